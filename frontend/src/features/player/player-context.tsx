import { createContext, useEffect, useState, type ReactNode } from 'react';
import { createPlayerStore, type PlayerStore } from './player-store';

export const PlayerContext = createContext<PlayerStore | null>(null);

/**
 * Holds the app's one player. It sits above the routes (app/providers.tsx), so the music goes
 * on while the listener moves between pages. The store never changes, so the context itself
 * re-renders nobody: components subscribe to what they show (use-player.ts).
 */
export function PlayerProvider({ children }: { children: ReactNode }) {
  const [player] = useState(createPlayerStore);
  useEffect(() => () => player.dispose(), [player]);
  return <PlayerContext.Provider value={player}>{children}</PlayerContext.Provider>;
}
