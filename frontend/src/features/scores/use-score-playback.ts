import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useKeptEngines, usePlayerActions, usePlayerPosition, usePlayerSelector, type MediaEngine, type PlayerTrack } from '../player';
import { anchorsOf, quarterAt, secondsAt, type SyncPoint } from './recording/sync-map';
import type { DrawnPiece } from './score-drawing';
import type { ScoreSource } from './score-source';

type Playback = typeof import('./playback');
type Engine = InstanceType<Playback['ScorePlayer']>;
type Timeline = ReturnType<Playback['readTimeline']>;

/**
 * The engine (timeline, synthesiser, cursor geometry) is fetched once a score is drawn, in idle
 * time (its timeline gives the length shown before the first Play), or by the first Play; once
 * for every score of the page; a failed download is tried again next time.
 */
let playbackLoading: Promise<Playback> | null = null;

export function loadPlayback(): Promise<Playback> {
  playbackLoading ??= import('./playback');
  playbackLoading.catch(() => {
    playbackLoading = null;
  });
  return playbackLoading;
}

/** A kept engine as what it is: only scores keep theirs with the player, each a ScorePlayer. */
function asScoreEngine(engine: MediaEngine | undefined): Engine | null {
  return (engine as Engine | undefined) ?? null;
}

/** Which score of which post: the player's track identity, and what the now-playing bar says. */
export interface ScoreIdentity {
  postId: string;
  index: number;
  composer: string;
}

/** A score as drawn so far: a new object every time a piece more is drawn, or all again. */
export interface DrawnScore {
  /** The pieces drawn, one under another (score-drawing.ts). */
  pieces: readonly DrawnPiece[];
  /** What it is drawn from, which the player reads too. */
  source: ScoreSource;
  /** The box the score scrolls in. */
  host: HTMLElement;
  /** Whether every piece is drawn. */
  complete: boolean;
}

/** The measures of a piece the player reads at once. */
const READ_PIECE = 64;

export function* piecesOf(source: ScoreSource): Generator<Document> {
  for (let from = 0; from < Math.max(1, source.measures); from += READ_PIECE) yield source.piece(from, from + READ_PIECE);
}

/** A recording the score follows (issue 35): the track, and its sync map. */
export interface FollowedRecording {
  track: PlayerTrack;
  points: readonly SyncPoint[];
}

/** A score to hear: which one, and its drawing once there is one. */
export interface PlayableScore {
  /** Which post's score it is; undefined where the score is only shown. */
  identity: ScoreIdentity | undefined;
  title: string;
  url: string;
  drawn: DrawnScore | null;
  /** The recording it follows, if it has one the viewer may hear. */
  recording?: FollowedRecording | null;
  /** Whether Play plays the recording at first (the recording's own page). */
  followFirst?: boolean;
}

export type PlaybackStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * Hearing a drawn score: loads the engine when asked, hands it to the app's player as the
 * current track (so the now-playing bar, media keys and one-medium-at-a-time hold), moves the
 * cursor over the engraving in time with the sound and keeps it in view, and starts from a
 * measure that is clicked. The engine is kept with the player (`useKeptEngines`), so a score
 * goes on playing when its page is left and its page, opened again, shows the same one. The
 * cursor is the element `cursorRef` is given to.
 */
export function useScorePlayback({ identity, title, url, drawn, recording = null, followFirst = false }: PlayableScore) {
  const player = usePlayerActions();
  const engines = useKeptEngines();
  const [known] = useState(() => engines.kept(url));
  const [status, setStatus] = useState<PlaybackStatus>(known ? 'ready' : 'idle');
  const [engine, setEngine] = useState<Engine | null>(() => asScoreEngine(known?.engine));
  const [playback, setPlayback] = useState<Playback | null>(null);
  /** The written bars looped (from 0), or none: the Loop bars form shows them. */
  const [looped, setLooped] = useState<{ from: number; to: number } | null>(null);
  /**
   * Choosing the looped bars by tapping them on the score (a touch screen's way, where a drag
   * scrolls): null when not choosing; else the first bar tapped (from 0), or null before it.
   */
  const [picking, setPicking] = useState<{ first: number | null } | null>(null);
  const track = useRef<PlayerTrack | null>(known ?? null);
  const cursor = useRef<HTMLDivElement>(null);
  const layout = useRef<{ drawn: DrawnScore; value: ReturnType<Playback['readLayout']> } | null>(null);
  const source = drawn?.source ?? null;
  /** The score's timeline, read in idle time once it is drawn: its length before the first Play. */
  const [timeline, setTimeline] = useState<{ of: ScoreSource; value: Timeline } | null>(null);
  const complete = drawn?.complete ?? false;
  useEffect(() => {
    if (!complete || !source || engine || timeline?.of === source) return;
    let live = true;
    (window.requestIdleCallback ?? setTimeout)(() => {
      loadPlayback().then(
        (mod) => {
          if (!live) return;
          setPlayback(mod);
          setTimeline({ of: source, value: mod.readTimeline(piecesOf(source)) });
        },
        () => {}, // the first Play asks again, and says so if it fails
      );
    });
    return () => {
      live = false;
    };
  }, [complete, source, engine, timeline]);
  /** Seconds at the score's own tempo, before there is an engine to ask; null until known. */
  const length = timeline && playback ? playback.secondsAt(timeline.value.tempos, timeline.value.length) : null;

  /** Whether the recording plays, the cursor following its sync map, in place of the score's own sound. */
  const [following, setFollowing] = useState(followFirst && recording !== null);
  const follow = following ? recording : null;
  const scoreIsCurrent = usePlayerSelector(
    (s) => s.track !== null && identity !== undefined && s.track.postId === identity.postId && s.track.index === identity.index && s.track.url === url,
  );
  const recordingIsCurrent = usePlayerSelector(
    (s) => s.track !== null && follow !== null && s.track.postId === follow.track.postId && s.track.index === follow.track.index,
  );
  const isCurrent = follow ? recordingIsCurrent : scoreIsCurrent;
  const playing = usePlayerSelector((s) => isCurrent && s.playing);
  const position = usePlayerPosition();

  /** The engine, made the first time it is needed. */
  /**
   * What the controls have chosen (tempo, parts, sound, transposition), given to a new engine
   * before it first plays: set by the controls (ScoreControls), which also apply later changes.
   */
  const configured = useRef<((engine: Engine) => void) | null>(null);
  const configure = useCallback((apply: (engine: Engine) => void) => {
    configured.current = apply;
  }, []);

  const ready = useCallback(async (): Promise<Engine | null> => {
    if (!identity || !source) return null;
    if (engine) return engine;
    setStatus('loading');
    try {
      const mod = await loadPlayback();
      setPlayback(mod);
      const made = new mod.ScorePlayer(timeline?.of === source ? timeline.value : mod.readTimeline(piecesOf(source)));
      configured.current?.(made);
      const kept = {
        postId: identity.postId,
        index: identity.index,
        title,
        artist: identity.composer,
        coverUrl: null,
        url,
        durationSeconds: made.duration(),
        peaks: null,
        engine: made,
      };
      track.current = kept;
      engines.keep(kept);
      setEngine(made);
      setStatus('ready');
      return made;
    } catch (error) {
      console.error('The score player could not be loaded', error);
      setStatus('error');
      return null;
    }
  }, [engine, engines, source, identity, title, url, timeline]);

  /** The score's performance: the engine's, or read for the recording to follow (no engine needed). */
  const readPerformance = useCallback(async (): Promise<{ timeline: Timeline; mod: Playback } | null> => {
    if (!source) return null;
    try {
      const mod = await loadPlayback();
      setPlayback(mod);
      if (engine) return { timeline: engine.timeline, mod };
      if (timeline?.of === source) return { timeline: timeline.value, mod };
      const value = mod.readTimeline(piecesOf(source));
      setTimeline({ of: source, value });
      return { timeline: value, mod };
    } catch (error) {
      console.error('The score player could not be loaded', error);
      setStatus('error');
      return null;
    }
  }, [engine, source, timeline]);
  const performed = engine?.timeline ?? (timeline?.of === source ? timeline.value : null);
  const anchors = useMemo(() => (follow && performed ? anchorsOf(performed, follow.points) : null), [follow, performed]);
  /** The recording's loop, in its seconds (the score's own loop is the engine's). */
  const recordingLoop = useRef<{ from: number; to: number; quarters: { from: number; to: number } } | null>(null);

  /** Plays the recording from `at` seconds (where it is when not given), the cursor following. */
  const playRecording = useCallback(
    async (at?: number) => {
      if (!recording) return false;
      if (!(await readPerformance())) return false;
      player.play(recording.track, at);
      return true;
    },
    [recording, readPerformance, player],
  );

  /** Plays with the recording (true) or the score's own sound (false): the loop is let go. */
  const chooseFollowing = useCallback(
    (on: boolean) => {
      if (on === following) return;
      if (playing) player.pause();
      engine?.setLoop(null);
      recordingLoop.current = null;
      setLooped(null);
      setFollowing(on && recording !== null);
    },
    [following, playing, player, engine, recording],
  );

  /** "Play with recording": the recording plays from where it is, the cursor following. */
  const playWithRecording = useCallback(async () => {
    chooseFollowing(true);
    return playRecording();
  }, [chooseFollowing, playRecording]);

  /** Play, or pause when this score (or its recording) is playing. */
  const toggle = useCallback(async () => {
    if (playing) {
      player.pause();
      return;
    }
    if (follow) {
      await playRecording();
      return;
    }
    const made = await ready();
    if (made && track.current) player.play(track.current);
  }, [playing, player, ready, follow, playRecording]);

  const currentLayout = useCallback(() => {
    if (!playback || !drawn) return null;
    if (layout.current?.drawn !== drawn) layout.current = { drawn, value: playback.readLayout(drawn.pieces, drawn.host) };
    return layout.current.value;
  }, [playback, drawn]);

  /** Plays from the first performance of the written measure `measure` (0 is the first). */
  const playMeasure = useCallback(
    async (measure: number): Promise<boolean> => {
      if (follow) {
        const read = await readPerformance();
        const first = read?.timeline.measures.find((m) => m.written === measure);
        const at = first && read ? secondsAt(anchorsOf(read.timeline, follow.points), first.start) : null;
        return at !== null && (await playRecording(at));
      }
      const made = await ready();
      if (!made || !track.current) return false;
      const performed = made.timeline.measures.find((m) => m.written === measure);
      if (!performed) return false;
      made.seekQuarter(performed.start);
      player.play(track.current);
      return true;
    },
    [ready, player, follow, readPerformance, playRecording],
  );

  /**
   * Loops written bars `from` to `to` (0 is the first; their first performances, in order) and
   * plays them, or stops looping (null). False when there are no such bars or no engine.
   */
  const loopBars = useCallback(
    async (bars: { from: number; to: number } | null): Promise<boolean> => {
      if (follow) {
        if (!bars) {
          recordingLoop.current = null;
          setLooped(null);
          return true;
        }
        const read = await readPerformance();
        if (!read) return false;
        const map = anchorsOf(read.timeline, follow.points);
        const first = read.timeline.measures.find((m) => m.written === bars.from);
        const last = first && read.timeline.measures.find((m) => m.written === bars.to && m.start >= first.start);
        if (!first || !last) return false;
        const quarters = { from: first.start, to: last.start + last.length };
        const from = secondsAt(map, quarters.from);
        const to = secondsAt(map, quarters.to);
        if (from === null || to === null || to <= from) return false;
        recordingLoop.current = { from, to, quarters };
        setLooped(bars);
        return playRecording(from);
      }
      const made = await ready();
      if (!made || !track.current) return false;
      if (!bars) {
        made.setLoop(null);
        setLooped(null);
        return true;
      }
      const first = made.timeline.measures.find((m) => m.written === bars.from);
      const last = first && made.timeline.measures.find((m) => m.written === bars.to && m.start >= first.start);
      if (!first || !last) return false;
      made.setLoop({ from: first.start, to: last.start + last.length });
      setLooped(bars);
      player.play(track.current);
      return true;
    },
    [ready, player, follow, readPerformance, playRecording],
  );

  /** The written measure (from 0) drawn under a point of the page, or -1. */
  const measureAt = useCallback(
    async (clientX: number, clientY: number): Promise<number> => {
      const mod = await loadPlayback();
      if (!drawn) return -1;
      const host = drawn.host;
      // The layout read for the cursor, when there is one (reading a big score's costs).
      const geometry = currentLayout() ?? mod.readLayout(drawn.pieces, host);
      const box = host.getBoundingClientRect();
      return mod.measureAtPoint(geometry, clientX - box.left + host.scrollLeft, clientY - box.top + host.scrollTop);
    },
    [drawn, currentLayout],
  );

  const playAt = useCallback(
    async (clientX: number, clientY: number) => {
      const measure = await measureAt(clientX, clientY);
      if (measure >= 0) await playMeasure(measure);
    },
    [measureAt, playMeasure],
  );

  const isCurrentRef = useRef(isCurrent);
  useEffect(() => {
    isCurrentRef.current = isCurrent;
  });

  // A score played before this page was opened: its engine's module comes back from the cache.
  useEffect(() => {
    if (engine && !playback) void loadPlayback().then(setPlayback);
  }, [engine, playback]);

  // The cursor: placed every frame while playing, once when paused; the view follows it.
  useEffect(() => {
    const made = engine;
    const el = cursor.current;
    const mod = playback;
    if (!made || !el || !mod || follow) return;
    let frame = 0;
    let lastTop = Number.NaN;
    const place = () => {
      const geometry = currentLayout();
      const scroller = drawn?.host;
      if (!geometry || !scroller) return;
      const q = made.quarter();
      const performed = made.timeline.measures[made.measure()];
      const at = performed && mod.cursorAt(geometry, performed.written, q - performed.start, performed.length);
      if (!at || !isCurrentRef.current) {
        el.hidden = true;
        return;
      }
      placeCursor(el, at, performed.written);
      if (made.isPlaying() && at.top !== lastTop) {
        lastTop = at.top;
        keepInView(el, scroller);
      }
    };
    const loop = () => {
      place();
      if (made.isPlaying()) frame = requestAnimationFrame(loop);
    };
    const onChange = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(loop);
    };
    const off = made.subscribe(onChange);
    onChange();
    return () => {
      off();
      cancelAnimationFrame(frame);
    };
  }, [engine, playback, drawn, currentLayout, follow]);

  // Following the recording: the cursor where the sync map puts the player's position, every
  // frame while it plays; past the loop's end, back to its start.
  useEffect(() => {
    const el = cursor.current;
    const mod = playback;
    const known = performed;
    if (!follow || !el || !mod || !known || !anchors) return;
    let frame = 0;
    let lastTop = Number.NaN;
    const place = () => {
      const geometry = currentLayout();
      const scroller = drawn?.host;
      const now = position();
      const here = now.track && now.track.postId === follow.track.postId && now.track.index === follow.track.index;
      const loop = recordingLoop.current;
      if (here && loop && now.seconds >= loop.to) {
        player.seek(loop.from);
        now.seconds = loop.from;
      }
      const mapped = here ? quarterAt(anchors, now.seconds) : null;
      // Looping, the cursor stays in the looped bars (a seek lands a hair before their start).
      const q = mapped !== null && loop ? Math.min(loop.quarters.to - 1e-6, Math.max(loop.quarters.from, mapped)) : mapped;
      const bar = q !== null ? known.measures[mod.measureAt(known, q)] : undefined;
      const at = geometry && bar && q !== null && mod.cursorAt(geometry, bar.written, q - bar.start, bar.length);
      if (!at || !scroller) {
        el.hidden = true;
        return;
      }
      placeCursor(el, at, bar.written);
      el.dataset.at = now.seconds.toFixed(3);
      if (playing && at.top !== lastTop) {
        lastTop = at.top;
        keepInView(el, scroller);
      }
    };
    const loop = () => {
      place();
      if (playing) frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(frame);
  }, [follow, playback, performed, anchors, drawn, currentLayout, position, player, playing]);

  const subscribe = useCallback((listener: () => void) => engine?.subscribe(listener) ?? (() => {}), [engine]);
  // Rendered again when the engine's settings change (tempo, parts, metronome).
  useSyncExternalStore(subscribe, () => engine?.version() ?? 0);

  /** Where each written measure is drawn, once the drawing and the player's code are here. */
  const layoutNow = useMemo(() => (playback && drawn ? playback.readLayout(drawn.pieces, drawn.host) : null), [playback, drawn]);

  /** Where the looped bars are drawn, to be shaded on the score (boxes in the host's content). */
  const loopBoxes = useMemo(() => {
    if (!looped || !layoutNow) return [];
    return layoutNow.measures
      .slice(looped.from, looped.to + 1)
      .flatMap((m) => (m ? [{ left: m.left, top: m.top, width: m.right - m.left, height: m.bottom - m.top }] : []));
  }, [looped, layoutNow]);

  return {
    status,
    engine,
    length,
    playing,
    isCurrent,
    toggle,
    playAt,
    measureAt,
    playMeasure,
    loopBars,
    looped,
    loopBoxes,
    configure,
    cursorRef: cursor,
    /** Whether a recording may be followed, and whether it is. */
    canFollow: recording !== null,
    following: follow !== null,
    /** The recording followed now, if any. */
    followed: follow?.track ?? null,
    chooseFollowing,
    playWithRecording,
    picking,
    setPicking,
    /** Where each written measure is drawn (null until known): marks are placed on it. */
    layout: layoutNow,
    /** The score's performance, read when first asked (the tap-along counts its bars). */
    readPerformance,
  };
}

/** Shows the cursor at `at`, in written measure `written` (from 0; `data-measure` counts from 1). */
function placeCursor(el: HTMLElement, at: { x: number; top: number; bottom: number }, written: number) {
  el.hidden = false;
  el.style.transform = `translate(${at.x.toFixed(1)}px, ${at.top.toFixed(1)}px)`;
  el.style.height = `${(at.bottom - at.top).toFixed(1)}px`;
  el.dataset.measure = String(written + 1);
}

/** Brings the cursor into view when it nears an edge of the window or of the score's box. */
function keepInView(cursor: HTMLElement, scroller: HTMLElement) {
  const box = cursor.getBoundingClientRect();
  const bottomBar = 140;
  if (box.top < 72 || box.bottom > window.innerHeight - bottomBar) {
    const y = window.scrollY + box.top - Math.max(72, (window.innerHeight - bottomBar - box.height) / 3);
    window.scrollTo({ top: y, behavior: 'smooth' });
  }
  const hostBox = scroller.getBoundingClientRect();
  if (box.left < hostBox.left + 24 || box.right > hostBox.right - 24) {
    scroller.scrollTo({ left: scroller.scrollLeft + box.left - hostBox.left - 48, behavior: 'smooth' });
  }
}
