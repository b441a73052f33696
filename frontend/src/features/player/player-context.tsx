import { createContext, useEffect, useState, type ReactNode } from 'react';
import { createPlayerStore, pauseThePlayerWhenMediaStarts, type PlayerStore } from './player-store';

export const PlayerContext = createContext<PlayerStore | null>(null);

/**
 * Holds the app's one player. It sits above the routes (app/providers.tsx), so the music goes
 * on while the listener moves between pages. The store never changes, so the context itself
 * re-renders nobody: components subscribe to what they show (use-player.ts). One medium plays
 * at a time: a video that starts pauses it, and it pauses a video when it starts.
 */
export function PlayerProvider({ children }: { children: ReactNode }) {
  const [player] = useState(createPlayerStore);
  useEffect(() => () => player.dispose(), [player]);
  useEffect(() => pauseThePlayerWhenMediaStarts(player), [player]);
  return <PlayerContext.Provider value={player}>{children}</PlayerContext.Provider>;
}
