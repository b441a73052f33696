import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../../components/alert';
import { EmptyState } from '../../../components/empty-state';
import { PlusIcon } from '../../../components/first-load-icons';
import { ListIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { playlistQueries } from '../../../lib/playlists';
import { useViewer } from '../../../lib/session';
import { PlaylistDialog } from './playlist-dialog';
import styles from './playlists-list.module.css';

const tracks = (n: number) => `${n} ${n === 1 ? 'track' : 'tracks'}`;

/**
 * A person's playlists (their profile's Playlists tab, issue 31): all of them for their owner,
 * with New playlist; the public ones for anyone else.
 */
export function PlaylistsList({ userId }: { userId: string }) {
  const viewer = useViewer();
  const own = viewer?.id === userId;
  const query = useQuery(playlistQueries.ofUser(userId, viewer?.id));
  const [creating, setCreating] = useState(false);
  return (
    <section className={styles.section} aria-label="Playlists">
      {own ? (
        <button type="button" className={`btn btn-secondary ${styles.new}`} onClick={() => setCreating(true)}>
          <PlusIcon size={18} />
          New playlist
        </button>
      ) : null}
      {query.isPending ? (
        <Spinner label="Loading playlists" />
      ) : query.isError ? (
        <Alert tone="error">Failed to load playlists</Alert>
      ) : query.data.length === 0 ? (
        <EmptyState
          title="No playlists yet"
          text={own ? 'Gather tracks and scores you love into a playlist.' : 'Nothing to listen to here yet.'}
        />
      ) : (
        <ul className={styles.list}>
          {query.data.map((p) => (
            <li key={p.id}>
              <Link to={`/playlist/${encodeURIComponent(p.id)}`} className={styles.card}>
                <span className={styles.icon} aria-hidden="true">
                  <ListIcon size={22} />
                </span>
                <span className={styles.text}>
                  <span className={styles.title}>{p.title}</span>
                  <span className={styles.meta}>
                    {tracks(p.items_count)}
                    {p.public ? '' : ' · Private'}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {creating ? <PlaylistDialog onClose={() => setCreating(false)} /> : null}
    </section>
  );
}
