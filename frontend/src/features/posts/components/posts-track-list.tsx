import { useMemo, type ReactNode } from 'react';
import { TrackList, toPlayerTrack } from '../../player';
import type { DisplayPost } from '../types';

/**
 * The tracks of `posts`, in their order (each post's in its own), for the player to play on
 * from one to the next: playing a track queues the rest of the list it came from (issue 19).
 */
export function PostsTrackList({ posts, children }: { posts: readonly DisplayPost[]; children: ReactNode }) {
  const tracks = useMemo(
    () => posts.flatMap((p) => (p.type === 'audio' ? p.content.map((item, i) => toPlayerTrack(p.id, i, item)) : [])),
    [posts],
  );
  return <TrackList tracks={tracks}>{children}</TrackList>;
}
