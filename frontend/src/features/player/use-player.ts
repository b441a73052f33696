import { useCallback, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import { PlayerContext } from './player-context';
import { sameTrack, type KeptEngines, type PlayerActions, type PlayerState, type PlayerStore, type PlayerTrack } from './player-store';

export function usePlayerStore(): PlayerStore {
  const store = useContext(PlayerContext);
  if (!store) throw new Error('The audio player is used outside its PlayerProvider (app/providers.tsx)');
  return store;
}

/**
 * One value of the player's state. The component re-renders only when that value changes, so
 * `select` should return a primitive (or a reference the state keeps, like `track`).
 */
export function usePlayerSelector<T>(select: (state: PlayerState) => T): T {
  const store = usePlayerStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

/** Whether a track is loaded, so the now-playing bar shows (the layout leaves room for it). */
export function useNowPlayingShown(): boolean {
  return usePlayerSelector((state) => state.track !== null);
}

/** play, toggle, pause, seek and stop; subscribes to nothing. */
export function usePlayerActions(): PlayerActions {
  return usePlayerStore();
}

/** The engines of the scores played on this visit (see `KeptEngines`); subscribes to nothing. */
export function useKeptEngines(): KeptEngines {
  return usePlayerStore();
}

/** The whole state plus the actions (re-renders on every state change, but not on time). */
export function usePlayer(): PlayerState & PlayerActions {
  const store = usePlayerStore();
  const state = useSyncExternalStore(store.subscribe, store.getState);
  return {
    ...state,
    play: store.play,
    toggle: store.toggle,
    pause: store.pause,
    seek: store.seek,
    stop: store.stop,
    setVolume: store.setVolume,
    toggleMute: store.toggleMute,
    toggleEvenLoudness: store.toggleEvenLoudness,
    setSpeed: store.setSpeed,
    next: store.next,
    previous: store.previous,
  };
}

/** Where the player is: its track and how far into it, in seconds. */
export interface PlayerPosition {
  track: PlayerState['track'];
  seconds: number;
}

/**
 * Reads where the player is at the moment it is called, subscribing to nothing (a comment takes
 * the moment it is on when its writing starts).
 */
export function usePlayerPosition(): () => PlayerPosition {
  const store = usePlayerStore();
  return useCallback(() => ({ track: store.getState().track, seconds: store.now() }), [store]);
}

const noSubscription = () => () => {};
const zero = () => 0;

/**
 * The playing position in seconds, updated 4×/s while playing. With `enabled` false it is 0 and
 * nothing is subscribed (a track that is not the current one).
 */
export function usePlayerTime(enabled = true): number {
  const store = usePlayerStore();
  return useSyncExternalStore(enabled ? store.subscribeTime : noSubscription, enabled ? store.getTime : zero);
}

/** What a track's own controls show: idle unless it is the current track. */
export type TrackStatus = 'idle' | 'loading' | 'playing' | 'paused' | 'error';

export function useTrackStatus(postId: string, index: number): TrackStatus {
  const select = useCallback(
    (state: PlayerState): TrackStatus => {
      if (!sameTrack(state.track, { postId, index })) return 'idle';
      if (state.error) return 'error';
      if (!state.playing) return 'paused';
      return state.buffering ? 'loading' : 'playing';
    },
    [postId, index],
  );
  return usePlayerSelector(select);
}

/**
 * Calls `report` with each track whose play counts (`countPlays`: 30 s of sound, or a shorter
 * track to its end), for as long as the component is mounted. The latest `report` is called.
 * The counter is loaded when something first plays, so it is not part of the first load.
 */
export function useCountedPlays(report: (track: PlayerTrack) => void): void {
  const store = usePlayerStore();
  const latest = useRef(report);
  useEffect(() => {
    latest.current = report;
  });
  useEffect(() => {
    let stop: (() => void) | undefined;
    let state: 'waiting' | 'loading' | 'gone' = 'waiting';
    const start = () => {
      if (state !== 'waiting' || !store.getState().track) return;
      state = 'loading';
      void import('./play-counter').then(({ countPlays }) => {
        if (state === 'loading') stop = countPlays(store, (track) => latest.current(track));
      });
    };
    const off = store.subscribe(start);
    start();
    return () => {
      state = 'gone';
      off();
      stop?.();
    };
  }, [store]);
}
