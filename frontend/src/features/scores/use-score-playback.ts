import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import type { OpenSheetMusicDisplay } from 'opensheetmusicdisplay';
import { usePlayerActions, usePlayerSelector, type PlayerTrack } from '../player';

type Playback = typeof import('./playback');
type Engine = InstanceType<Playback['ScorePlayer']>;

/**
 * The engine (timeline, synthesiser, cursor geometry) is fetched the first time a score is
 * played, once for every score of the page; a failed download is tried again next time.
 */
let playbackLoading: Promise<Playback> | null = null;

/**
 * The engine of each score played on this visit, by file: a score goes on playing (in the
 * now-playing bar) when its page is left, and its page, opened again, shows the same one. At most
 * `KEPT_ENGINES`: each holds an audio context, of which a browser allows only a few; the oldest
 * not playing lets go of its own (played again, it makes a new one).
 */
const engines = new Map<string, { engine: Engine; track: PlayerTrack }>();
const KEPT_ENGINES = 3;

function keep(url: string, kept: { engine: Engine; track: PlayerTrack }) {
  engines.set(url, kept);
  for (const [key, old] of engines) {
    if (engines.size <= KEPT_ENGINES) break;
    if (key !== url && !old.engine.isPlaying()) {
      old.engine.stop();
      engines.delete(key);
    }
  }
}
function loadPlayback(): Promise<Playback> {
  playbackLoading ??= import('./playback');
  playbackLoading.catch(() => {
    playbackLoading = null;
  });
  return playbackLoading;
}

/** Which score of which post: the player's track identity, and what the now-playing bar says. */
export interface ScoreIdentity {
  postId: string;
  index: number;
  composer: string;
}

export type PlaybackStatus = 'idle' | 'loading' | 'ready' | 'error';

interface Options {
  identity: ScoreIdentity | undefined;
  title: string;
  url: string;
  /** The drawn score and its Document (set by ScoreView once drawn). */
  osmd: RefObject<OpenSheetMusicDisplay | null>;
  doc: RefObject<Document | null>;
  /** The box the score scrolls in, the SVG's box, and the cursor element. */
  host: RefObject<HTMLDivElement | null>;
  canvas: RefObject<HTMLDivElement | null>;
  cursor: RefObject<HTMLDivElement | null>;
  /** Bumped whenever the score is drawn again (its layout changed). */
  drawn: number;
}

/**
 * Hearing a drawn score: loads the engine when asked, hands it to the app's player as the
 * current track (so the now-playing bar, media keys and one-medium-at-a-time hold), moves the
 * cursor over the engraving in time with the sound and keeps it in view, and starts from a
 * measure that is clicked.
 */
export function useScorePlayback({ identity, title, url, osmd, doc, host, canvas, cursor, drawn }: Options) {
  const player = usePlayerActions();
  const known = engines.get(url);
  const [status, setStatus] = useState<PlaybackStatus>(known ? 'ready' : 'idle');
  const [engine, setEngine] = useState<Engine | null>(known?.engine ?? null);
  const [playback, setPlayback] = useState<Playback | null>(null);
  const track = useRef<PlayerTrack | null>(known?.track ?? null);
  const layout = useRef<{ drawn: number; value: ReturnType<Playback['readLayout']> } | null>(null);

  const isCurrent = usePlayerSelector(
    (s) => s.track !== null && identity !== undefined && s.track.postId === identity.postId && s.track.index === identity.index && s.track.url === url,
  );
  const playing = usePlayerSelector((s) => isCurrent && s.playing);

  /** The engine, made the first time it is needed. */
  const ready = useCallback(async (): Promise<Engine | null> => {
    const score = doc.current;
    if (!identity || !score) return null;
    if (engine) return engine;
    setStatus('loading');
    try {
      const mod = await loadPlayback();
      setPlayback(mod);
      const made = new mod.ScorePlayer(mod.readTimeline(score));
      track.current = {
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
      keep(url, { engine: made, track: track.current });
      setEngine(made);
      setStatus('ready');
      return made;
    } catch (error) {
      console.error('The score player could not be loaded', error);
      setStatus('error');
      return null;
    }
  }, [engine, doc, identity, title, url]);

  /** Play, or pause when this score is playing. */
  const toggle = useCallback(async () => {
    if (playing) {
      player.pause();
      return;
    }
    const made = await ready();
    if (made && track.current) player.play(track.current);
  }, [playing, player, ready]);

  const currentLayout = useCallback(() => {
    const mod = playback;
    const svg = canvas.current?.querySelector('svg');
    const drawnScore = osmd.current;
    if (!mod || !svg || !drawnScore) return null;
    if (layout.current?.drawn !== drawn) layout.current = { drawn, value: mod.readLayout(drawnScore, svg) };
    return layout.current.value;
  }, [playback, canvas, osmd, drawn]);

  /** Plays from the measure drawn under a click (client coordinates), if any. */
  const playAt = useCallback(
    async (clientX: number, clientY: number) => {
      const made = await ready();
      const mod = await loadPlayback();
      const svg = canvas.current?.querySelector('svg');
      const drawnScore = osmd.current;
      if (!made || !svg || !drawnScore || !track.current) return;
      const geometry = mod.readLayout(drawnScore, svg);
      const box = svg.getBoundingClientRect();
      const measure = mod.measureAtPoint(geometry, (clientX - box.left) / geometry.scale, (clientY - box.top) / geometry.scale);
      if (measure < 0) return;
      const performed = made.timeline.measures.find((m) => m.written === measure);
      if (!performed) return;
      made.seekQuarter(performed.start);
      player.play(track.current);
    },
    [ready, canvas, player, osmd],
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
    if (!made || !el || !mod) return;
    let frame = 0;
    let lastTop = Number.NaN;
    const place = () => {
      const geometry = currentLayout();
      const svg = canvas.current?.querySelector('svg');
      const scroller = host.current;
      if (!geometry || !svg || !scroller) return;
      const q = made.quarter();
      const performed = made.timeline.measures[made.measure()];
      const at = performed && mod.cursorAt(geometry, performed.written, q - performed.start, performed.length);
      if (!at || !isCurrentRef.current) {
        el.hidden = true;
        return;
      }
      const svgBox = svg.getBoundingClientRect();
      const hostBox = scroller.getBoundingClientRect();
      const left = svgBox.left - hostBox.left + scroller.scrollLeft + at.x * geometry.scale;
      const top = svgBox.top - hostBox.top + scroller.scrollTop + at.top * geometry.scale;
      el.hidden = false;
      el.style.transform = `translate(${left.toFixed(1)}px, ${top.toFixed(1)}px)`;
      el.style.height = `${((at.bottom - at.top) * geometry.scale).toFixed(1)}px`;
      el.dataset.measure = String(performed.written + 1);
      if (made.isPlaying() && at.top !== lastTop) {
        lastTop = at.top;
        follow(el, scroller);
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
  }, [engine, playback, cursor, canvas, host, currentLayout]);

  const subscribe = useCallback((listener: () => void) => engine?.subscribe(listener) ?? (() => {}), [engine]);
  // Rendered again when the engine's settings change (tempo, parts, metronome).
  useSyncExternalStore(subscribe, () => engine?.version() ?? 0);

  return { status, engine, playing, isCurrent, toggle, playAt, ready };
}

/** Brings the cursor into view when it nears an edge of the window or of the score's box. */
function follow(cursor: HTMLElement, scroller: HTMLElement) {
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
