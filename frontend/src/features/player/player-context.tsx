import { createContext, useEffect, useState, type ReactNode } from 'react';
import { createPlayerStore, loadAudioEngine, pauseThePlayerWhenMediaStarts, type PlayerStore } from './player-store';

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
  // The <audio> engine's code once the page has shown (a first play also asks for it).
  useEffect(() => {
    (window.requestIdleCallback ?? setTimeout)(() => void loadAudioEngine());
  }, []);
  return <PlayerContext.Provider value={player}>{children}</PlayerContext.Provider>;
}
