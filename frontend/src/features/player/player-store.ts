/**
 * The app's one audio player (spec §4 "Audio playback": one track at a time; the play button
 * flips to pause and resets at the end). A single <audio> element, created on the first play,
 * plays whatever track was asked for last; React reads the store through useSyncExternalStore.
 *
 * Two subscriptions, so the cheap question "is this track playing?" is not asked 4×/s: `state`
 * (track, playing, buffering, duration, error) changes on user actions and media events;
 * `time` (the position) changes on every timeupdate and only the current track's progress and
 * the now-playing bar listen to it.
 */

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
  url: string;
  /** Decoded peaks (min,max pairs), or null. */
  peaks: Int8Array | null;
}

/** What a sound source other than the player's own <audio> element tells it. */
export type MediaEvent = 'play' | 'pause' | 'ended' | 'time' | 'durationchange';

/**
 * A source of sound the player drives in place of its <audio> element (a score played by the
 * synthesiser, issue 20): the now-playing bar, the media keys, the volume and "one medium at a
 * time" work for it as for a track. Times are in seconds.
 */
export interface MediaEngine {
  /** Plays from where it is. */
  play(): void;
  pause(): void;
  seek(seconds: number): void;
  currentTime(): number;
  duration(): number;
  setVolume(volume: number, muted: boolean): void;
  /** Stops and lets go of what it holds; it may be played again. */
  stop(): void;
  /** Tells what happens on its own (it ended, its position or length moved). */
  onEvent(listener: (event: MediaEvent) => void): () => void;
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
  /** Played by this instead of the <audio> element (then `url` is only what it plays). */
  engine?: MediaEngine;
}

export interface PlayerState {
  track: PlayerTrack | null;
  /** Playing, or asked to play and waiting for the first data. */
  playing: boolean;
  /** Waiting for data (starting or stalled). */
  buffering: boolean;
  /** Seconds, from the element once it knows, else the track's own; 0 when unknown. */
  duration: number;
  /** Spec §8: 'Failed to play audio', for the current track. */
  error: string | null;
  /** 0 to 1, and whether muted: remembered on this device (issue 19). */
  volume: number;
  muted: boolean;
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
}

export interface PlayerStore extends PlayerActions {
  getState: () => PlayerState;
  subscribe: (listener: () => void) => () => void;
  getTime: () => number;
  subscribeTime: (listener: () => void) => () => void;
  /** Stops and lets go of the media; the store can still play afterwards. */
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
 * `createAudio` makes the element on the first play (never before: a page with no playing
 * track holds no media element and loads nothing).
 */
/**
 * One medium plays at a time (issue 19): when the player starts, every other sounding <audio> or
 * <video> of the page (a video in the overlay) pauses. The other way round is
 * `pauseThePlayerWhenMediaStarts`.
 */
function pauseOtherMedia(mine: HTMLMediaElement | null) {
  if (typeof document === 'undefined') return;
  for (const other of document.querySelectorAll<HTMLMediaElement>('audio, video')) {
    if (other !== mine && !other.paused && !other.muted) other.pause();
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

export function createPlayerStore(createAudio: () => HTMLAudioElement = () => document.createElement('audio')): PlayerStore {
  let state: PlayerState = { ...IDLE, ...storedVolume() };
  let time = 0;
  let audio: HTMLAudioElement | null = null;
  /** The engine of the current track, if it has one, and how to stop listening to it. */
  let engine: { of: MediaEngine; off: () => void } | null = null;
  /** Bumped by every play request, so the answer to an older one is ignored. */
  let request = 0;
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
      artwork: track.coverUrl ? [{ src: new URL(track.coverUrl, window.location.href).href }] : [],
    });
  }

  function updatePosition() {
    const session = mediaSession();
    if (!session || typeof session.setPositionState !== 'function' || !state.duration) return;
    try {
      session.setPositionState({
        duration: state.duration,
        position: Math.min(time, state.duration),
        playbackRate: engine ? 1 : (audio?.playbackRate ?? 1),
      });
    } catch {
      // A browser that disagrees about the numbers keeps its own idea of the position.
    }
  }

  /** The element, with its listeners, made on first use. */
  function element(): HTMLAudioElement {
    if (audio) return audio;
    const el = createAudio();
    el.preload = 'auto';
    el.volume = state.volume;
    el.muted = state.muted;
    el.addEventListener('play', () => {
      setState({ playing: !el.paused, error: null });
      pauseOtherMedia(el);
    });
    el.addEventListener('playing', () => setState({ playing: !el.paused, buffering: false }));
    // After a new src is set the old track's pause is not ours to report: only a real pause is.
    el.addEventListener('pause', () => {
      if (el.paused) setState({ playing: false, buffering: false });
    });
    el.addEventListener('waiting', () => setState({ buffering: true }));
    el.addEventListener('timeupdate', () => setTime(el.currentTime));
    const onDuration = () => {
      if (Number.isFinite(el.duration) && el.duration > 0) {
        setState({ duration: el.duration });
        updatePosition();
      }
    };
    el.addEventListener('durationchange', onDuration);
    el.addEventListener('loadedmetadata', onDuration);
    el.addEventListener('seeked', updatePosition);
    // Spec §4: at the end the button resets (and the track goes back to its start); the
    // queue's next track, if any, plays on.
    el.addEventListener('ended', () => {
      const after = state.queue[placeIn(state.queue, state.track) + 1];
      if (after && placeIn(state.queue, state.track) >= 0) {
        store.play(after);
        return;
      }
      setState({ playing: false, buffering: false });
      el.currentTime = 0;
      setTime(0);
      updatePosition();
    });
    el.addEventListener('error', () => {
      if (!state.track || !el.error) return;
      setState({ playing: false, buffering: false, error: PLAY_FAILED });
    });
    audio = el;
    attachMediaSession();
    return el;
  }

  function attachMediaSession() {
    const session = mediaSession();
    if (!session) return;
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

  function start(el: HTMLAudioElement) {
    const mine = ++request;
    let result: Promise<void>;
    try {
      // An old browser answers nothing: then the media events tell the rest.
      result = Promise.resolve(el.play());
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

  /** Lets go of the current track's engine (paused, and no longer heard). */
  function releaseEngine() {
    if (!engine) return;
    engine.off();
    engine.of.pause();
    engine = null;
  }

  /** Plays `track` with its engine: the <audio> element rests meanwhile. */
  function playEngine(track: PlayerTrack, of: MediaEngine, from: number | undefined) {
    request++;
    audio?.pause();
    if (engine?.of !== of) {
      releaseEngine();
      const off = of.onEvent((event) => {
        if (engine?.of !== of) return;
        if (event === 'play') {
          setState({ playing: true, buffering: false, error: null });
          pauseOtherMedia(null);
        } else if (event === 'pause') setState({ playing: false, buffering: false });
        else if (event === 'ended') {
          setState({ playing: false, buffering: false });
          setTime(0);
        } else if (event === 'durationchange') setState({ duration: of.duration() });
        setTime(of.currentTime());
        updatePosition();
      });
      engine = { of, off };
    }
    of.setVolume(state.volume, state.muted);
    if (from !== undefined) of.seek(from);
    setState({ track, playing: true, buffering: false, duration: of.duration(), error: null });
    setTime(of.currentTime());
    of.play();
  }

  const store: PlayerStore = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getTime: () => time,
    subscribeTime(listener) {
      timeListeners.add(listener);
      return () => timeListeners.delete(listener);
    },

    play(track, at, queue) {
      const list = queue && placeIn(queue, track) >= 0 ? queue : placeIn(state.queue, track) >= 0 ? state.queue : [track];
      if (list !== state.queue) setState({ queue: list });
      const from = at !== undefined && Number.isFinite(at) ? Math.max(0, at) : undefined;
      if (track.engine) {
        playEngine(track, track.engine, from);
        return;
      }
      releaseEngine();
      const el = element();
      if (sameTrack(state.track, track) && state.track?.url === track.url) {
        if (from !== undefined) store.seek(from);
        setState({ playing: true, buffering: el.readyState < 3, error: null });
        start(el);
        return;
      }
      el.src = track.url;
      if (from !== undefined) el.currentTime = from;
      setTime(from ?? 0);
      setState({ track, playing: true, buffering: true, duration: knownDuration(track), error: null });
      start(el);
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
      audio?.pause();
      engine?.of.pause();
      setState({ playing: false, buffering: false });
    },

    seek(seconds) {
      if (engine && state.track?.engine === engine.of) {
        const to = Math.min(Math.max(0, Number.isFinite(seconds) ? seconds : 0), state.duration || Infinity);
        engine.of.seek(to);
        setTime(engine.of.currentTime());
        updatePosition();
        return;
      }
      if (!state.track || !audio) return;
      const limit = state.duration || Infinity;
      const to = Math.min(Math.max(0, Number.isFinite(seconds) ? seconds : 0), limit);
      audio.currentTime = to;
      setTime(to);
      updatePosition();
    },

    stop() {
      request++;
      if (engine) {
        const of = engine.of;
        releaseEngine();
        of.stop();
      }
      if (audio) {
        audio.pause();
        audio.removeAttribute('src');
        audio.load();
      }
      setTime(0);
      setState({ ...IDLE, volume: state.volume, muted: state.muted, queue: [] });
    },

    setVolume(volume) {
      const to = Math.min(1, Math.max(0, Number.isFinite(volume) ? volume : 1));
      const muted = to === 0 ? state.muted : false;
      if (audio) {
        audio.volume = to;
        audio.muted = muted;
      }
      engine?.of.setVolume(to, muted);
      setState({ volume: to, muted });
      rememberVolume(to, muted);
    },

    toggleMute() {
      const muted = !state.muted;
      if (audio) audio.muted = muted;
      engine?.of.setVolume(state.volume, muted);
      setState({ muted });
      rememberVolume(state.volume, muted);
    },

    dispose() {
      store.stop();
      const session = mediaSession();
      if (session) {
        for (const action of ['play', 'pause', 'stop', 'seekto', 'seekbackward', 'seekforward', 'previoustrack', 'nexttrack'] as const) {
          try {
            session.setActionHandler(action, null);
          } catch {
            // Not supported here.
          }
        }
      }
      audio = null;
    },
  };
  return store;
}
