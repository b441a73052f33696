import { useMemo, useState, type DragEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { BackButton } from '../../components/back-button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { BinIcon, PencilIcon, PlayIcon, ScoreIcon } from '../../components/first-load-icons';
import { ChevronDownIcon, ChevronUpIcon, GripIcon, ShuffleIcon } from '../../components/icons';
import { PageSpinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { ApiError } from '../../lib/http';
import {
  playlistQueries,
  useDeletePlaylist,
  useMoveInPlaylist,
  useRemoveFromPlaylist,
  type PlaylistItemJson,
  type PlaylistPageJson,
} from '../../lib/playlists';
import { useViewer } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { AudioTrack, TrackList, toPlayerTrack, usePlayerActions, type PlayerTrack } from '../player';
import { toDisplayPost, type DisplayPost } from '../posts';
import { PlaylistDialog } from './components/playlist-dialog';
import styles from './playlist-page.module.css';

export const PLAYLIST_WORDS = {
  notFound: 'Playlist not found',
  loadFailed: 'Failed to load playlist',
  playAll: 'Play all',
  shuffle: 'Shuffle',
  edit: 'Edit',
  delete: 'Delete',
  emptyTitle: 'No tracks yet',
  emptyOwn: 'Add tracks and scores from a post’s page with “Add to playlist”.',
  emptyOther: 'Nothing here yet.',
  unavailable: 'No longer available',
  private: 'Private',
  public: 'Public',
  confirmTitle: 'Delete this playlist?',
  confirmMessage: 'Its tracks stay where they are; only the playlist goes. This cannot be undone.',
  deleted: 'Playlist deleted.',
  openScore: 'Open score',
  tracks: (n: number) => `${n} ${n === 1 ? 'track' : 'tracks'}`,
  label: (title: string) => `Tracks of ${title}`,
} as const;

/** One row of the list: what the item shows, or none when it is no longer available. */
interface Row {
  item: PlaylistItemJson;
  post: DisplayPost | null;
  /** Its name, for the controls' labels. */
  name: string;
}

function rowsOf(page: PlaylistPageJson): Row[] {
  return page.items.map((item) => {
    const post = item.post ? toDisplayPost(item.post) : null;
    let name: string = PLAYLIST_WORDS.unavailable;
    if (post?.type === 'audio') name = post.content[item.track]?.title ?? name;
    if (post?.type === 'musicxml') name = post.content[item.track]?.fileName ?? name;
    return { item, post, name };
  });
}

/** The audio tracks of the rows, in order: what Play all queues. */
function tracksOf(rows: readonly Row[]): PlayerTrack[] {
  return rows.flatMap(({ item, post }) => {
    const audio = post?.type === 'audio' ? post.content[item.track] : undefined;
    return audio && post ? [toPlayerTrack(post.id, item.track, audio)] : [];
  });
}

function shuffled<T>(list: readonly T[]): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * A playlist (/playlist/:id, issue 31): its title, owner and description, Play all and Shuffle
 * (its tracks queued in order, or shuffled), and its items: a track plays in place (the rest
 * of the list queued after it), a score opens its page. Its owner reorders items by dragging
 * them or with Move up / Move down, removes them, edits the playlist and deletes it; an item
 * whose post is gone or hidden shows to them as no longer available, and to nobody else.
 */
export function PlaylistPage() {
  const id = useParams().playlistId ?? '';
  const viewer = useViewer();
  const query = useQuery(playlistQueries.detail(id, viewer?.id));
  usePageTitle(query.data?.title ?? PLAYLIST_WORDS.notFound);
  if (query.isPending) return <PageSpinner label="Loading playlist" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className={styles.page}>
        <BackButton />
        <Alert tone="error">{notFound ? PLAYLIST_WORDS.notFound : PLAYLIST_WORDS.loadFailed}</Alert>
      </div>
    );
  }
  return <Playlist page={query.data} own={viewer?.id === query.data.user.id} />;
}

function Playlist({ page, own }: { page: PlaylistPageJson; own: boolean }) {
  const rows = useMemo(() => rowsOf(page), [page]);
  // The order shown from a move until the page is read again (then the server's).
  const [order, setOrder] = useState<{ ids: string[]; of: PlaylistPageJson } | null>(null);
  const shown = order?.of === page ? order.ids.flatMap((id) => rows.filter((r) => r.item.id === id)) : rows;
  const tracks = useMemo(() => tracksOf(shown), [shown]);
  const player = usePlayerActions();
  const toasts = useToast();
  const navigate = useNavigate();
  const move = useMoveInPlaylist(page.id);
  const remove = useRemoveFromPlaylist(page.id);
  const del = useDeletePlaylist(page.id);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);

  function moveTo(itemId: string, position: number) {
    const ids = shown.map((r) => r.item.id);
    const from = ids.indexOf(itemId);
    if (from < 0 || position < 0 || position >= ids.length || position === from) return;
    ids.splice(from, 1);
    ids.splice(position, 0, itemId);
    setOrder({ ids, of: page });
    move.mutate(
      { itemId, position },
      {
        onError: (error) => {
          setOrder(null);
          toasts.show(error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Could not move the track');
        },
      },
    );
    // Keyboard focus follows the item it moved.
    requestAnimationFrame(() => document.getElementById(`move-${itemId}-${position < from ? 'up' : 'down'}`)?.focus());
  }

  const onDrop = (event: DragEvent, position: number) => {
    event.preventDefault();
    if (dragged) moveTo(dragged, position);
    setDragged(null);
  };

  return (
    <div className={styles.page}>
      <div className={styles.topBar}>
        <BackButton />
      </div>
      <header className={styles.header}>
        <p className={styles.kind}>
          Playlist · {page.public ? PLAYLIST_WORDS.public : PLAYLIST_WORDS.private}
        </p>
        <h1 className={styles.title}>{page.title}</h1>
        <p className={styles.meta}>
          by <Link to={`/user/${encodeURIComponent(page.user.id)}`}>{page.user.name || page.user.login}</Link> ·{' '}
          {PLAYLIST_WORDS.tracks(shown.length)}
        </p>
        {page.description ? <p className={styles.description}>{page.description}</p> : null}
        <div className={styles.actions}>
          <button
            type="button"
            className="btn btn-primary"
            disabled={tracks.length === 0}
            onClick={() => tracks[0] && player.play(tracks[0], 0, tracks)}
          >
            <PlayIcon size={18} />
            {PLAYLIST_WORDS.playAll}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={tracks.length === 0}
            onClick={() => {
              const queue = shuffled(tracks);
              if (queue[0]) player.play(queue[0], 0, queue);
            }}
          >
            <ShuffleIcon size={18} />
            {PLAYLIST_WORDS.shuffle}
          </button>
          {own ? (
            <>
              <button type="button" className="btn btn-secondary" onClick={() => setDialog('edit')}>
                <PencilIcon size={18} />
                {PLAYLIST_WORDS.edit}
              </button>
              <button type="button" className="btn btn-secondary" onClick={() => setDialog('delete')}>
                <BinIcon size={18} />
                {PLAYLIST_WORDS.delete}
              </button>
            </>
          ) : null}
        </div>
      </header>
      {shown.length === 0 ? (
        <EmptyState title={PLAYLIST_WORDS.emptyTitle} text={own ? PLAYLIST_WORDS.emptyOwn : PLAYLIST_WORDS.emptyOther} />
      ) : (
        <TrackList tracks={tracks}>
          <ol className={styles.items} aria-label={PLAYLIST_WORDS.label(page.title)}>
            {shown.map((row, i) => (
              <li
                key={row.item.id}
                className={`${styles.item} ${dragged === row.item.id ? styles.dragging : ''}`}
                draggable={own}
                onDragStart={(event) => {
                  setDragged(row.item.id);
                  event.dataTransfer.effectAllowed = 'move';
                  event.dataTransfer.setData('text/plain', row.item.id);
                }}
                onDragEnd={() => setDragged(null)}
                onDragOver={(event) => {
                  if (dragged) event.preventDefault();
                }}
                onDrop={(event) => onDrop(event, i)}
              >
                {own ? (
                  <span className={styles.grip} aria-hidden="true" title="Drag to reorder">
                    <GripIcon size={18} />
                  </span>
                ) : null}
                <span className={styles.number} aria-hidden="true">
                  {i + 1}
                </span>
                <div className={styles.content}>
                  <ItemContent row={row} />
                </div>
                {own ? (
                  <div className={styles.controls}>
                    <button
                      type="button"
                      id={`move-${row.item.id}-up`}
                      className={styles.control}
                      aria-label={`Move ${row.name} up`}
                      disabled={i === 0}
                      onClick={() => moveTo(row.item.id, i - 1)}
                    >
                      <ChevronUpIcon size={18} />
                    </button>
                    <button
                      type="button"
                      id={`move-${row.item.id}-down`}
                      className={styles.control}
                      aria-label={`Move ${row.name} down`}
                      disabled={i === shown.length - 1}
                      onClick={() => moveTo(row.item.id, i + 1)}
                    >
                      <ChevronDownIcon size={18} />
                    </button>
                    <button
                      type="button"
                      className={styles.control}
                      aria-label={`Remove ${row.name}`}
                      onClick={() => remove.mutate(row.item.id)}
                    >
                      <BinIcon size={18} />
                    </button>
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
        </TrackList>
      )}
      {dialog === 'edit' ? <PlaylistDialog playlist={page} onClose={() => setDialog(null)} /> : null}
      <ConfirmDialog
        open={dialog === 'delete'}
        title={PLAYLIST_WORDS.confirmTitle}
        message={PLAYLIST_WORDS.confirmMessage}
        confirmLabel={PLAYLIST_WORDS.delete}
        busyLabel="Deleting..."
        busy={del.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() =>
          del.mutate(undefined, {
            onSuccess: () => {
              toasts.show(PLAYLIST_WORDS.deleted);
              void navigate('/profile');
            },
          })
        }
      />
    </div>
  );
}

function ItemContent({ row }: { row: Row }) {
  const { item, post } = row;
  if (post?.type === 'audio') {
    const audio = post.content[item.track];
    if (audio) return <AudioTrack postId={post.id} track={audio} index={item.track} />;
  }
  if (post?.type === 'musicxml') {
    const score = post.content[item.track];
    if (score) {
      return (
        <div className={styles.score}>
          <ScoreIcon size={22} />
          <span className={styles.scoreText}>
            <span className={styles.scoreTitle}>{score.fileName}</span>
            <span className={styles.scoreComposer}>{score.composer}</span>
          </span>
          <Link to={`/post/${encodeURIComponent(post.id)}`} className="btn btn-secondary">
            {PLAYLIST_WORDS.openScore}
          </Link>
        </div>
      );
    }
  }
  return <p className={styles.unavailable}>{PLAYLIST_WORDS.unavailable}</p>;
}
