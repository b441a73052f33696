import { createContext, useContext, type ReactNode } from 'react';
import type { PlayerTrack } from './player-store';

const TrackListContext = createContext<readonly PlayerTrack[] | null>(null);

/**
 * The tracks of a list of posts, in order (issue 19): a track played inside it queues the rest,
 * so Next, Previous and the end of a track walk the list (a multi-track post in its order).
 */
export function TrackList({ tracks, children }: { tracks: readonly PlayerTrack[]; children: ReactNode }) {
  return <TrackListContext.Provider value={tracks}>{children}</TrackListContext.Provider>;
}

/** The list a track is shown in; none outside one (the track plays alone). */
export function useTrackList(): readonly PlayerTrack[] | undefined {
  return useContext(TrackListContext) ?? undefined;
}
