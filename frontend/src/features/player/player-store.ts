/**
 * The app's one audio player (spec §4 "Audio playback": one track at a time; the play button
 * flips to pause and resets at the end). It plays whatever track was asked for last through that
 * track's `MediaEngine`: a score's own, else the one <audio> element every track shares
 * (audio-engine.ts, made on the first play). Every action takes one path whatever the engine;
 * React reads the store through useSyncExternalStore.
 *
 * Two subscriptions, so the cheap question "is this track playing?" is not asked 4×/s: `state`
 * (track, playing, buffering, duration, error) changes on user actions and media events;
 * `time` (the position) changes on every timeupdate and only the current track's progress and
 * the now-playing bar listen to it.
 */

import type { AudioEngine } from './audio-engine';
import { evenGainDb, rememberEvenLoudness, storedEvenLoudness, type Loudness } from './loudness';
import type { MediaEngine, MediaEvent } from './media-engine';
import type { Stream } from './streams';

/**
 * A track as an audio post shows it (spec §3 "Displayed post model"; posts turn the wire's items
 * into these): what AudioTrack shows and plays.
 */
export interface AudioItem {
  title: string;
  artist: string;
  coverUrl: string | null;
  /** m:ss, default '0:00' */
  duration: string;
  durationSeconds: number | null;
  /** The uploaded original: the download. */
  url: string;
  /** Encoded copies to stream, best first (streams.ts); none until they are made. */
  streams: readonly Stream[];
  /** Decoded peaks (min,max pairs), or null. */
  peaks: Int8Array | null;
  /** As measured on upload (issue 32), or null. */
  loudness: Loudness | null;
}

/** The track being played: a displayed audio item plus where it came from. */
export interface PlayerTrack {
  postId: string;
  /** The track's position in its post. */
  index: number;
  title: string;
  artist: string;
  coverUrl: string | null;
  url: string;
  durationSeconds: number | null;
  peaks: Int8Array | null;
  /** As measured on upload: the player evens tracks out with it (loudness.ts). */
  loudness?: Loudness | null;
  /** What plays it when it has its own (a score's synthesiser); else the <audio> element plays `url`. */
  engine?: MediaEngine;
}

export interface PlayerState {
  track: PlayerTrack | null;
  /** Playing, or asked to play and waiting for the first data. */
  playing: boolean;
  /** Waiting for data (starting or stalled). */
  buffering: boolean;
  /** Seconds, from the engine once it knows, else the track's own; 0 when unknown. */
  duration: number;
  /** Spec §8: 'Failed to play audio', for the current track. */
  error: string | null;
  /** 0 to 1, and whether muted: remembered on this device (issue 19). */
  volume: number;
  muted: boolean;
  /** Whether tracks are played evened out to one loudness: remembered on this device. */
  evenLoudness: boolean;
  /** The current track's speed (1: as recorded); a new track starts at 1. */
  speed: number;
  /**
   * The list the track was played from (the tracks of the page's posts, in order), which
   * Previous and Next walk and which plays on when a track ends; the track alone when none.
   */
  queue: readonly PlayerTrack[];
}

export interface PlayerActions {
  /**
   * Plays `track` (from `at` seconds if given), stopping whatever played before; `queue` is the
   * list it was played from (kept when omitted and the track is in the current one).
   */
  play: (track: PlayerTrack, at?: number, queue?: readonly PlayerTrack[]) => void;
  /** The queue's next track, if any. */
  next: () => void;
  /** Back to the start of the track, or (within its first seconds) the queue's previous one. */
  previous: () => void;
  /** Pauses the playing track, or plays `track` (the current one when omitted). */
  toggle: (track?: PlayerTrack) => void;
  pause: () => void;
  /** Moves the current track to `seconds` (clamped to the track). */
  seek: (seconds: number) => void;
  /** Stops and forgets the current track (the now-playing bar goes away). */
  stop: () => void;
  /** Sets the volume (0 to 1; above 0 unmutes), remembered on this device. */
  setVolume: (volume: number) => void;
  /** Mutes, or unmutes, remembered on this device. */
  toggleMute: () => void;
  /** Turns evening tracks out on or off, remembered on this device. */
  toggleEvenLoudness: () => void;
  /** Plays the current track at this share of its speed (0.4 to 1.5), its pitch kept. */
  setSpeed: (speed: number) => void;
}

/**
 * The engines of the scores played on this visit, by file: a score goes on playing (in the
 * now-playing bar) when its page is left, and its page, opened again, shows the same one.
 */
export interface KeptEngines {
  /**
   * Keeps `track` and its engine under `track.url`. At most `KEPT_ENGINES` are kept: each holds
   * an audio context, of which a browser allows only a few, so the oldest not playing lets go of
   * its own (`stop`; played again, it makes a new one) and is forgotten.
   */
  keep: (track: KeptTrack) => void;
  /** The track kept for the file at `url`, with its engine. */
  kept: (url: string) => KeptTrack | undefined;
}

export type KeptTrack = PlayerTrack & { engine: MediaEngine };

/** How many engines `KeptEngines` holds at most. */
export const KEPT_ENGINES = 3;

export interface PlayerStore extends PlayerActions, KeptEngines {
  getState: () => PlayerState;
  subscribe: (listener: () => void) => () => void;
  getTime: () => number;
  /** The position this moment, read from what plays (`getTime` moves 4×/s): a cursor's, a loop's. */
  now: () => number;
  subscribeTime: (listener: () => void) => () => void;
  /** Stops and lets go of the media and the kept engines; the store can still play afterwards. */
  dispose: () => void;
}

export const PLAY_FAILED = 'Failed to play audio';

/** How far the lock-screen / headset skip buttons jump when they do not say. */
const SKIP_SECONDS = 10;

/** Where the volume is remembered on this device. */
export const VOLUME_KEY = 'selfsound.volume';

/** The volume remembered on this device: full and unmuted when none (or storage is refused). */
export function storedVolume(): Pick<PlayerState, 'volume' | 'muted'> {
  try {
    const stored = JSON.parse(localStorage.getItem(VOLUME_KEY) ?? 'null') as { volume?: unknown; muted?: unknown } | null;
    const volume = typeof stored?.volume === 'number' && Number.isFinite(stored.volume) ? stored.volume : 1;
    return { volume: Math.min(1, Math.max(0, volume)), muted: stored?.muted === true };
  } catch {
    return { volume: 1, muted: false };
  }
}

function rememberVolume(volume: number, muted: boolean) {
  try {
    localStorage.setItem(VOLUME_KEY, JSON.stringify({ volume, muted }));
  } catch {
    // Storage refused (a private window): the volume holds for this page only.
  }
}

const IDLE: PlayerState = {
  track: null,
  playing: false,
  buffering: false,
  duration: 0,
  error: null,
  volume: 1,
  muted: false,
  evenLoudness: true,
  speed: 1,
  queue: [],
};

/** Within this many seconds of a track's start, Previous goes to the track before. */
const RESTART_SECONDS = 3;

/** Where `track` is in `queue`; -1 when it is not. */
export function placeIn(queue: readonly PlayerTrack[], track: PlayerTrack | null): number {
  return queue.findIndex((t) => sameTrack(t, track));
}

export function sameTrack(a: Pick<PlayerTrack, 'postId' | 'index'> | null, b: Pick<PlayerTrack, 'postId' | 'index'> | null): boolean {
  return a !== null && b !== null && a.postId === b.postId && a.index === b.index;
}

function knownDuration(track: PlayerTrack): number {
  const seconds = track.durationSeconds;
  return seconds !== null && Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function mediaSession(): MediaSession | null {
  return typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null;
}

/**
 * One medium plays at a time (issue 19): when the player starts, every sounding <audio> or
 * <video> of the page (a video in the overlay) pauses. The player's own element is not in the
 * page. The other way round is `pauseThePlayerWhenMediaStarts`.
 */
function pauseOtherMedia() {
  if (typeof document === 'undefined') return;
  for (const other of document.querySelectorAll<HTMLMediaElement>('audio, video')) {
    if (!other.paused && !other.muted) other.pause();
  }
}

/**
 * The other half of one medium at a time: a sounding <audio> or <video> of the page that starts
 * pauses the player, which keeps its track, ready to resume. Muted previews (a video tile) do
 * not count. Returns how to stop listening.
 */
export function pauseThePlayerWhenMediaStarts(player: Pick<PlayerStore, 'pause' | 'getState'>): () => void {
  // Media events do not bubble: listened for on the way down instead.
  const onPlay = (event: Event) => {
    const el = event.target;
    if (!(el instanceof HTMLMediaElement) || el.muted) return;
    if (player.getState().playing) player.pause();
  };
  document.addEventListener('play', onPlay, true);
  return () => document.removeEventListener('play', onPlay, true);
}

/**
 * The <audio> engine's code, a chunk of its own: no page needs it to show, so it is asked for
 * when the page is idle (player-context.tsx), and at the latest by the first play.
 */
let Engine: typeof AudioEngine | undefined;
export function loadAudioEngine(): Promise<void> {
  return import('./audio-engine').then((m) => {
    Engine = m.AudioEngine;
  });
}

export function createPlayerStore(createAudio?: () => HTMLAudioElement): PlayerStore {
  let state: PlayerState = { ...IDLE, ...storedVolume(), evenLoudness: storedEvenLoudness() };
  let time = 0;
  /** What plays a track without an engine of its own: the one <audio> element, made on first use. */
  let audio: AudioEngine | null = null;
  /** The engine of the current track, and how to stop listening to it. */
  let current: { of: MediaEngine; off: () => void } | null = null;
  /** Bumped by every play request, so the answer to an older one is ignored. */
  let request = 0;
  let sessionAttached = false;
  const kept = new Map<string, KeptTrack>();
  const listeners = new Set<() => void>();
  const timeListeners = new Set<() => void>();

  function setState(patch: Partial<PlayerState>) {
    const next = { ...state, ...patch };
    const changed = (Object.keys(patch) as (keyof PlayerState)[]).some((key) => next[key] !== state[key]);
    if (!changed) return;
    const before = state;
    state = next;
    if (before.track !== next.track) updateMetadata();
    if (before.playing !== next.playing) {
      const session = mediaSession();
      if (session) session.playbackState = next.track ? (next.playing ? 'playing' : 'paused') : 'none';
    }
    for (const listener of [...listeners]) listener();
  }

  function setTime(seconds: number) {
    const next = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
    if (next === time) return;
    time = next;
    for (const listener of [...timeListeners]) listener();
  }

  function updateMetadata() {
    const session = mediaSession();
    if (!session) return;
    const track = state.track;
    if (!track || typeof MediaMetadata === 'undefined') {
      session.metadata = null;
      return;
    }
    session.metadata = new MediaMetadata({
      title: track.title,
      artist: track.artist,
      // A track without a cover, or a score: the app's icon on the lock screen.
      artwork: [{ src: new URL(track.coverUrl ?? `${import.meta.env.BASE_URL}artwork.png`, window.location.href).href }],
    });
  }

  function updatePosition() {
    const session = mediaSession();
    if (!session || typeof session.setPositionState !== 'function' || !state.duration) return;
    try {
      // A score's tempo is its length; a track may be slowed down.
      const playbackRate = current?.of.setSpeed ? state.speed : 1;
      session.setPositionState({ duration: state.duration, position: Math.min(time, state.duration), playbackRate });
    } catch {
      // A browser that disagrees about the numbers keeps its own idea of the position.
    }
  }

  /** The system's media controls (lock screen, headset) drive the store from the first play on. */
  function attachMediaSession() {
    const session = mediaSession();
    if (sessionAttached || !session) return;
    sessionAttached = true;
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => store.toggle()],
      ['pause', () => store.pause()],
      ['stop', () => store.stop()],
      ['seekto', (details) => store.seek(details.seekTime ?? time)],
      ['seekbackward', (details) => store.seek(time - (details.seekOffset ?? SKIP_SECONDS))],
      ['seekforward', (details) => store.seek(time + (details.seekOffset ?? SKIP_SECONDS))],
      ['previoustrack', () => store.previous()],
      ['nexttrack', () => store.next()],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
  }

  /** What the current engine tells, as the store's state. */
  function heard(of: MediaEngine, event: MediaEvent) {
    if (current?.of !== of) return;
    switch (event) {
      case 'play':
        setState({ playing: true, error: null });
        pauseOtherMedia();
        break;
      case 'playing':
        setState({ playing: true, buffering: false });
        break;
      case 'pause':
        setState({ playing: false, buffering: false });
        break;
      case 'waiting':
        setState({ buffering: true });
        break;
      case 'durationchange':
        setState({ duration: of.duration() });
        break;
      case 'ended': {
        // Spec §4: at the end the button resets; the queue's next track, if any, plays on.
        const at = placeIn(state.queue, state.track);
        const after = state.queue[at + 1];
        if (after && at >= 0) {
          store.play(after);
          return;
        }
        setState({ playing: false, buffering: false });
        break;
      }
      case 'error':
        if (state.track) setState({ playing: false, buffering: false, error: PLAY_FAILED });
        break;
      case 'time':
      case 'seeked':
        break;
    }
    setTime(of.currentTime());
    if (event === 'seeked' || event === 'durationchange' || event === 'ended') updatePosition();
  }

  /** Makes `of` the current engine; the one before is paused and no longer heard. */
  function attach(of: MediaEngine) {
    if (current?.of === of) return;
    release();
    current = { of, off: of.onEvent((event) => heard(of, event)) };
    attachMediaSession();
  }

  function release() {
    if (!current) return;
    current.off();
    current.of.pause();
    current = null;
  }

  /** Asks the engine to play; a refusal is 'Failed to play audio' unless a newer request came. */
  function start(of: MediaEngine) {
    const mine = ++request;
    let result: Promise<void>;
    try {
      result = Promise.resolve(of.play());
    } catch (error) {
      result = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    result.then(
      () => {
        if (mine === request) setState({ buffering: false });
      },
      (error: unknown) => {
        // Interrupted by a newer request (another track, a pause): not a failure.
        if (mine !== request || isAbort(error)) return;
        setState({ playing: false, buffering: false, error: PLAY_FAILED });
      },
    );
  }

  function clamp(seconds: number, duration: number): number {
    return Math.min(Math.max(0, Number.isFinite(seconds) ? seconds : 0), duration || Infinity);
  }

  const store: PlayerStore = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getTime: () => time,
    now: () => (current && state.track ? current.of.currentTime() : time),
    subscribeTime(listener) {
      timeListeners.add(listener);
      return () => timeListeners.delete(listener);
    },

    play(track, at, queue) {
      const list = queue && placeIn(queue, track) >= 0 ? queue : placeIn(state.queue, track) >= 0 ? state.queue : [track];
      if (list !== state.queue) setState({ queue: list });
      if (!track.engine && !Engine) {
        // Asked before the engine's code came: play once it has, unless asked otherwise since.
        // What sounded (a score's own engine) stops now, as any other play would stop it.
        const mine = ++request;
        release();
        setState({ track, playing: true, buffering: true, error: null });
        loadAudioEngine().then(
          () => mine === request && store.play(track, at, queue),
          () => mine === request && setState({ playing: false, buffering: false, error: PLAY_FAILED }),
        );
        return;
      }
      const of = track.engine ?? (audio ??= new Engine!(createAudio));
      const again = current?.of === of && sameTrack(state.track, track) && state.track?.url === track.url;
      attach(of);
      of.setVolume(state.volume, state.muted);
      if (!again) of.load?.(track.url, knownDuration(track));
      const speed = again ? state.speed : 1;
      of.setSpeed?.(speed);
      of.setGain?.(state.evenLoudness ? evenGainDb(track.loudness) : 0);
      if (at !== undefined && Number.isFinite(at)) of.seek(clamp(at, of.duration()));
      setState({ track, playing: true, buffering: of.waiting?.() ?? false, duration: of.duration(), error: null, speed });
      setTime(of.currentTime());
      updatePosition();
      start(of);
    },

    next() {
      const after = state.queue[placeIn(state.queue, state.track) + 1];
      if (after && placeIn(state.queue, state.track) >= 0) store.play(after);
    },

    previous() {
      const at = placeIn(state.queue, state.track);
      if (time > RESTART_SECONDS || at <= 0) store.seek(0);
      else {
        const before = state.queue[at - 1];
        if (before) store.play(before);
      }
    },

    toggle(track) {
      const target = track ?? state.track;
      if (!target) return;
      if (state.playing && sameTrack(state.track, target)) store.pause();
      else store.play(target);
    },

    pause() {
      // A pending play() is rejected with an AbortError; that answer is not a failure.
      request++;
      current?.of.pause();
      setState({ playing: false, buffering: false });
    },

    seek(seconds) {
      if (!state.track || !current) return;
      current.of.seek(clamp(seconds, state.duration));
      setTime(current.of.currentTime());
      updatePosition();
    },

    stop() {
      request++;
      const was = current?.of;
      release();
      was?.stop();
      setTime(0);
      setState({ ...IDLE, volume: state.volume, muted: state.muted, evenLoudness: state.evenLoudness, queue: [] });
    },

    setSpeed(speed) {
      const to = Math.min(1.5, Math.max(0.4, Number.isFinite(speed) ? speed : 1));
      current?.of.setSpeed?.(to);
      setState({ speed: to });
      updatePosition();
    },

    setVolume(volume) {
      const to = Math.min(1, Math.max(0, Number.isFinite(volume) ? volume : 1));
      const muted = to === 0 ? state.muted : false;
      current?.of.setVolume(to, muted);
      setState({ volume: to, muted });
      rememberVolume(to, muted);
    },

    toggleMute() {
      const muted = !state.muted;
      current?.of.setVolume(state.volume, muted);
      setState({ muted });
      rememberVolume(state.volume, muted);
    },

    toggleEvenLoudness() {
      const evenLoudness = !state.evenLoudness;
      current?.of.setGain?.(evenLoudness ? evenGainDb(state.track?.loudness) : 0);
      setState({ evenLoudness });
      rememberEvenLoudness(evenLoudness);
    },

    keep(track) {
      kept.set(track.url, track);
      for (const [url, old] of kept) {
        if (kept.size <= KEPT_ENGINES) break;
        const playing = current?.of === old.engine && state.playing;
        if (url !== track.url && !playing) {
          old.engine.stop();
          kept.delete(url);
        }
      }
    },

    kept: (url) => kept.get(url),

    dispose() {
      store.stop();
      for (const { engine } of kept.values()) engine.stop();
      kept.clear();
      audio?.stop();
      audio = null;
      const session = mediaSession();
      if (session && sessionAttached) {
        for (const action of ['play', 'pause', 'stop', 'seekto', 'seekbackward', 'seekforward', 'previoustrack', 'nexttrack'] as const) {
          try {
            session.setActionHandler(action, null);
          } catch {
            // Not supported here.
          }
        }
      }
      sessionAttached = false;
    },
  };
  return store;
}
