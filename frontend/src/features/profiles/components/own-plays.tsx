import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '../../../components/alert';
import { MoreOf } from '../../../components/load-more-button';
import type { components } from '../../../lib/api-schema';
import { request } from '../../../lib/http';
import { playsText } from '../../posts';
import type { Lenient } from '../../../lib/lenient';
import styles from './own-plays.module.css';

/** A track or score of one's own with its plays, as GET /profile/me/plays sends it. */
type TrackPlaysInput = Lenient<components['schemas']['TrackPlaysJson']>;

export interface TrackPlays {
  postId: string;
  kind: 'audio' | 'musicxml';
  /** Its place in the post, from 0. */
  track: number;
  title: string;
  plays: number;
}

/** Posts a page (each brings all its tracks). */
export const OWN_PLAYS_PAGE = 10;

export const OWN_PLAYS_WORDS = {
  title: 'Plays of your tracks',
  hint: 'A play counts after 30 seconds of listening, or a whole shorter track: once per listener and track each hour. Your own plays are not counted.',
  failed: 'Could not load your plays',
  retry: 'Try Again',
} as const;

function toTrackPlays(json: TrackPlaysInput): TrackPlays | null {
  if (json.post_id === undefined || json.post_id === null) return null;
  const plays = typeof json.plays_count === 'number' && json.plays_count > 0 ? Math.floor(json.plays_count) : 0;
  return {
    postId: String(json.post_id),
    kind: json.type === 'musicxml' ? 'musicxml' : 'audio',
    track: typeof json.track === 'number' && json.track >= 0 ? json.track : 0,
    title: typeof json.title === 'string' && json.title.trim() !== '' ? json.title : 'Untitled',
    plays,
  };
}

interface PlaysPage {
  tracks: TrackPlays[];
  /** Where the next page starts: the last post's id when this page held a full page of posts. */
  next: string | null;
}

async function fetchOwnPlays(before: string | null, signal: AbortSignal): Promise<PlaysPage> {
  const params = new URLSearchParams({ limit: String(OWN_PLAYS_PAGE) });
  if (before) params.set('before', before);
  const answer = await request<TrackPlaysInput[] | null>(`/profile/me/plays?${params.toString()}`, { signal });
  const tracks = (Array.isArray(answer) ? answer : []).map(toTrackPlays).filter((t): t is TrackPlays => t !== null);
  const posts = new Set(tracks.map((t) => t.postId));
  return { tracks, next: posts.size >= OWN_PLAYS_PAGE ? (tracks.at(-1)?.postId ?? null) : null };
}

/**
 * On one's own profile (issue 31): each of one's tracks and scores with how often it was played,
 * newest post first. Nothing shows for a person without any. Loaded with the page's first visit
 * to it, not with the app (own-profile-page.tsx loads it lazily).
 */
export function OwnPlays({ viewerId }: { viewerId: string }) {
  const query = useInfiniteQuery({
    queryKey: ['profiles', 'own-plays', viewerId] as const,
    queryFn: ({ pageParam, signal }) => fetchOwnPlays(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: PlaysPage) => last.next,
    meta: { shows: ['posts'] },
  });
  if (query.isPending) return null;
  if (query.isError && !query.data) {
    return (
      <Alert tone="error" className={styles.section}>
        <p>{OWN_PLAYS_WORDS.failed}</p>
        <button type="button" className="btn btn-secondary" onClick={() => void query.refetch()}>
          {OWN_PLAYS_WORDS.retry}
        </button>
      </Alert>
    );
  }
  const tracks = query.data.pages.flatMap((page) => page.tracks);
  if (tracks.length === 0) return null;
  const several = new Map<string, number>();
  for (const t of tracks) several.set(t.postId, (several.get(t.postId) ?? 0) + 1);
  return (
    <section className={styles.section} aria-labelledby="own-plays-title">
      <h2 id="own-plays-title" className={styles.title}>
        {OWN_PLAYS_WORDS.title}
      </h2>
      <p className={styles.hint}>{OWN_PLAYS_WORDS.hint}</p>
      <ol className={styles.list}>
        {tracks.map((t) => (
          <li key={`${t.postId}-${t.track}`} className={styles.row}>
            <span className={styles.what}>
              <Link to={`/post/${encodeURIComponent(t.postId)}`} className={styles.name}>
                {t.title}
              </Link>
              <span className={styles.kind}>
                {t.kind === 'musicxml' ? 'Score' : 'Track'}
                {(several.get(t.postId) ?? 0) > 1 ? ` ${t.track + 1}` : ''}
              </span>
            </span>
            <span className={styles.count}>{playsText(t.plays)}</span>
          </li>
        ))}
      </ol>
      <MoreOf query={query} className={styles.more} />
    </section>
  );
}
