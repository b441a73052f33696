import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PlusIcon } from '../../../components/first-load-icons';
import { ListIcon } from '../../../components/icons';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast';
import { ApiError } from '../../../lib/http';
import { PLAYLIST_LIMITS, playlistQueries, useAddToPlaylist, useCreatePlaylist } from '../../../lib/playlists';
import { useViewer } from '../../../lib/session';
import type { DisplayPost } from '../types';
import styles from './add-to-playlist.module.css';

/** The names of a post's tracks or scores, by place. */
function itemsOf(post: DisplayPost): string[] {
  if (post.type === 'audio') return post.content.map((t) => t.title);
  if (post.type === 'musicxml') return post.content.map((s) => s.fileName);
  return [];
}

/**
 * "Add to playlist" under an audio or sheet music post on its page (issue 31), for someone
 * signed in: pick the track (when the post has several), then one of one's playlists, or make a
 * new one with it in.
 */
export function AddToPlaylist({ post }: { post: DisplayPost }) {
  const viewer = useViewer();
  const [open, setOpen] = useState(false);
  const items = itemsOf(post);
  if (!viewer || items.length === 0) return null;
  return (
    <>
      <button type="button" className={`btn btn-secondary ${styles.open}`} onClick={() => setOpen(true)} aria-haspopup="dialog">
        <ListIcon size={18} />
        Add to playlist
      </button>
      {open ? <AddDialog post={post} items={items} viewerId={viewer.id} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function AddDialog({ post, items, viewerId, onClose }: { post: DisplayPost; items: string[]; viewerId: string; onClose: () => void }) {
  const playlists = useQuery(playlistQueries.ofUser(viewerId, viewerId));
  const add = useAddToPlaylist();
  const create = useCreatePlaylist();
  const toasts = useToast();
  const [track, setTrack] = useState(0);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = add.isPending || create.isPending;

  const failed = (e: Error) => setError(e instanceof ApiError && e.serverMessage ? e.serverMessage : 'Could not add the track');
  function addTo(playlistId: string, name: string) {
    setError(null);
    add.mutate(
      { playlistId, postId: post.id, track },
      {
        onSuccess: () => {
          toasts.show(`Added to ${name}`);
          onClose();
        },
        onError: failed,
      },
    );
  }

  return (
    <Modal open title="Add to playlist" onClose={onClose}>
      <div className={styles.body}>
        {items.length > 1 ? (
          <fieldset className={styles.tracks}>
            <legend>Which {post.type === 'audio' ? 'track' : 'score'}</legend>
            {items.map((name, i) => (
              <label key={`${name}-${i}`} className={styles.choice}>
                <input type="radio" name="playlist-track" checked={track === i} onChange={() => setTrack(i)} />
                {name}
              </label>
            ))}
          </fieldset>
        ) : (
          <p className={styles.what}>{items[0]}</p>
        )}
        {error ? (
          <p className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
        {playlists.isPending ? (
          <Spinner label="Loading your playlists" />
        ) : (
          <ul className={styles.list} aria-label="Your playlists">
            {(playlists.data ?? []).map((p) => (
              <li key={p.id}>
                <button type="button" className={styles.playlist} disabled={busy} onClick={() => addTo(p.id, p.title)}>
                  <ListIcon size={18} />
                  <span className={styles.name}>{p.title}</span>
                  <span className={styles.count}>{p.items_count}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <form
          className={styles.create}
          onSubmit={(event) => {
            event.preventDefault();
            if (!title.trim()) {
              setError('A playlist needs a title');
              return;
            }
            create.mutate({ title }, { onSuccess: (made) => addTo(made.id, made.title), onError: failed });
          }}
        >
          <label className="visually-hidden" htmlFor="new-playlist-title">
            New playlist title
          </label>
          <input
            id="new-playlist-title"
            className="input"
            placeholder="New playlist"
            maxLength={PLAYLIST_LIMITS.title}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            <PlusIcon size={18} />
            Create and add
          </button>
        </form>
      </div>
    </Modal>
  );
}
