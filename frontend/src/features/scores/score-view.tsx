import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { IOSMDOptions, OpenSheetMusicDisplay } from 'opensheetmusicdisplay';
import { Spinner } from '../../components/spinner';
import { scoreQueries } from './api';
import { ScoreControls, storedTransposition } from './score-controls';
import { drawScore, type DrawnPiece } from './score-drawing';
import type { ScoreSource } from './score-source';
import { SyncTapper } from './recording/sync-tapper';
import type { SyncPoint } from './recording/sync-map';
import { useScorePlayback, type DrawnScore, type FollowedRecording, type ScoreIdentity } from './use-score-playback';
import type { PlayerTrack } from '../player';
import styles from './score-view.module.css';

export const SCORE_WORDS = {
  loading: 'Loading score...',
  failed: 'This score could not be displayed.',
  download: 'Download',
} as const;

/** How long the width must stay put before the score is laid out again. */
export const SCORE_RESIZE_DEBOUNCE_MS = 200;

/**
 * What OSMD is told. The page's CSP (style-src 'self') allows what OSMD's SVG backend does:
 * CSSOM writes (`el.style.x = ...`) and SVG presentation attributes, no <style> elements, no
 * style="" attributes. OSMD's own cursor is off: it would be an <img> with a generated data: URL
 * and a window scroll listener; the player draws its own (use-score-playback.ts). Rests over
 * several measures stay one measure each, so every written measure has its place to point at.
 * Automatic resizing is off: OSMD's
 * own window listener is never removed (a leak per score shown); ScoreView watches its box.
 * Title and composer are shown by the page above the score, so OSMD does not draw them again.
 */
export const OSMD_OPTIONS: IOSMDOptions = {
  backend: 'svg',
  autoResize: false,
  disableCursor: true,
  followCursor: false,
  drawTitle: false,
  drawSubtitle: false,
  drawComposer: false,
  drawLyricist: false,
  drawCredits: false,
  autoGenerateMultipleRestMeasuresFromRestMeasures: false,
};

/** Smaller notes on a phone, so a system holds more than one measure. */
export function zoomFor(width: number): number {
  if (width < 480) return 0.65;
  if (width < 768) return 0.8;
  return 1;
}

type OsmdModule = typeof import('opensheetmusicdisplay');
interface Osmd {
  Osmd: typeof OpenSheetMusicDisplay;
  /** Moves the notes and key signatures of a transposed score; absent, scores are shown as written. */
  TransposeCalculator?: OsmdModule['TransposeCalculator'];
}

/**
 * OpenSheetMusicDisplay (~340 KB gzipped with VexFlow and JSZip) is fetched the first time a
 * score is shown, never with the page, and once for all the scores on it (a failed download is
 * tried again next time). It is a CommonJS bundle: depending on the bundler its class is a named
 * export or sits under `default`.
 */
let osmdLoading: Promise<Osmd> | null = null;

function loadOsmd(): Promise<Osmd> {
  osmdLoading ??= import('opensheetmusicdisplay').then(
    (mod: Partial<OsmdModule> & { default?: Partial<OsmdModule> }) => {
      const Osmd = mod.OpenSheetMusicDisplay ?? mod.default?.OpenSheetMusicDisplay;
      if (!Osmd) throw new Error('OpenSheetMusicDisplay is missing from its module');
      return { Osmd, TransposeCalculator: mod.TransposeCalculator ?? mod.default?.TransposeCalculator };
    },
  );
  osmdLoading.catch(() => {
    osmdLoading = null;
  });
  return osmdLoading;
}

type Status = 'loading' | 'ready' | 'error';

interface ScoreViewProps {
  /** The MusicXML file (.musicxml, .xml or .mxl), on our own origin. */
  url: string;
  /** The score's title, for the figure's name and the download link. */
  title: string;
  /** Which post's score it is, when it may be played (the post page). */
  player?: ScoreIdentity;
  /** The recording it follows (issue 35), when it has one the viewer may hear. */
  recording?: FollowedRecording | null;
  /** Whether Play plays the recording at first (on the recording's own page). */
  followFirst?: boolean;
  /** Its author tapping a sync map along a recording, when they are. */
  tapping?: TapAlong | null;
  /** Comments on its bars, marked over them. */
  barMarks?: readonly BarMark[];
  /** Given what the page's comments need of the player (and null when the score goes). */
  onBars?: (control: BarsControl | null) => void;
}

const NO_MARKS: readonly BarMark[] = [];

/** A comment on bars of the score (issue 35), drawn as a mark over its first bar. */
export interface BarMark {
  id: string;
  /** Written bars, counted from 1. */
  from: number;
  to: number;
  /** Who wrote it and what, as the mark is named. */
  label: string;
}

/** What the page's comments ask of a score: the bars it is at now, and to play some bars. */
export interface BarsControl {
  /** The looped bars, else the bar the cursor is in (counted from 1); null when neither. */
  current: () => { from: number; to: number } | null;
  /** Plays bar `from` (or loops `from` to `to`). */
  play: (bars: { from: number; to: number }) => void;
}

/** What the author taps along: the recording, the map it had, and what becomes of the new one. */
export interface TapAlong {
  track: PlayerTrack;
  initial: readonly SyncPoint[] | null;
  onSave: (points: SyncPoint[]) => Promise<void>;
  onCancel: () => void;
  problem: string | null;
}

/**
 * Across the score with a mouse or pen from bar A to bar B loops them (issue 35); a click
 * without a drag plays from the measure clicked. On a touch screen a drag scrolls, and the
 * controls' Loop bars fields choose the bars.
 */
function useBarDrag(playback: ReturnType<typeof useScorePlayback>) {
  const from = useRef<Promise<number> | null>(null);
  const looping = useRef(false);
  const measureAt = (x: number, y: number) => playback.measureAt(x, y).catch(() => -1);
  return {
    start(e: React.PointerEvent) {
      looping.current = false;
      // Choosing bars by tapping them: each press is a tap, not the start of a drag.
      from.current = e.pointerType !== 'touch' && e.button === 0 && !playback.picking ? measureAt(e.clientX, e.clientY) : null;
      // Released outside the score, the drag still ends here.
      if (from.current) e.currentTarget.setPointerCapture(e.pointerId);
    },
    cancel() {
      from.current = null;
      looping.current = false;
    },
    end(e: React.PointerEvent) {
      const start = from.current;
      from.current = null;
      if (!start) return;
      looping.current = false;
      const x = e.clientX;
      const y = e.clientY;
      looping.current = true;
      void Promise.all([start, measureAt(x, y)]).then(async ([a, b]) => {
        if (a >= 0 && b >= 0 && a !== b) await playback.loopBars({ from: Math.min(a, b), to: Math.max(a, b) });
        else if (b >= 0) await playback.playMeasure(b);
      });
    },
    click(e: React.MouseEvent) {
      // A mouse's click follows its pointerup, which has already decided (a loop, or play from there).
      if (looping.current) {
        looping.current = false;
        return;
      }
      const picking = playback.picking;
      if (picking) {
        // Choosing bars to loop: the first tap marks bar A, the second bar B and loops them.
        void measureAt(e.clientX, e.clientY).then(async (bar) => {
          if (bar < 0) return;
          if (picking.first === null) {
            playback.setPicking({ first: bar });
            return;
          }
          playback.setPicking(null);
          await playback.loopBars({ from: Math.min(picking.first, bar), to: Math.max(picking.first, bar) });
        });
        return;
      }
      void playback.playAt(e.clientX, e.clientY);
    },
  };
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * A MusicXML file drawn as sheet music, fitted to the width it is given and laid out again when
 * that changes. It is drawn a piece at a time (score-drawing.ts), so the first systems show at
 * once and the page keeps answering while the rest are drawn. While nothing is drawn a spinner
 * shows; if it cannot be drawn, a Download link stays.
 */
export function ScoreView({
  url,
  title,
  player,
  recording = null,
  followFirst = false,
  tapping = null,
  barMarks = NO_MARKS,
  onBars,
}: ScoreViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const file = useQuery(scoreQueries.file(url));
  const source = file.data;
  /** Set every time a piece is drawn (a new object: the player reads its layout again). */
  const [drawn, setDrawn] = useState<DrawnScore | null>(null);
  const playback = useScorePlayback({ identity: player, title, url, drawn, recording, followFirst });
  const { cursorRef } = playback;
  // The drawing's status belongs to one file: a new one starts at 'loading' without an extra render.
  const [result, setResult] = useState<{ source: ScoreSource; status: Status } | null>(null);
  const status: Status = file.isError ? 'error' : result && result.source === source ? result.status : 'loading';
  const drag = useBarDrag(playback);
  /** Semitones the notation is moved (the player's Transpose; kept on the device per score). */
  const [shown, setShown] = useState(() => storedTransposition(url).shown);

  // The page's comments: the bars it is at (looped, else under the cursor) and a way to play some.
  const { looped, playMeasure, loopBars } = playback;
  useEffect(() => {
    if (!onBars) return;
    onBars({
      current: () => {
        if (looped) return { from: looped.from + 1, to: looped.to + 1 };
        const el = cursorRef.current;
        const bar = el && !el.hidden ? Number(el.dataset.measure) : NaN;
        return Number.isInteger(bar) && bar >= 1 ? { from: bar, to: bar } : null;
      },
      play: ({ from, to }) => void (to > from ? loopBars({ from: from - 1, to: to - 1 }) : playMeasure(from - 1)),
    });
    return () => onBars(null);
  }, [onBars, looped, playMeasure, loopBars, cursorRef]);

  // OpenSheetMusicDisplay is fetched while the file is.
  useEffect(() => {
    void loadOsmd();
  }, []);

  useEffect(() => {
    if (file.error) console.warn(`Score ${url} could not be displayed:`, file.error.message);
  }, [file.error, url]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host || !source) return;
    // The pieces are drawn into a box of their own, made and removed here: under StrictMode's
    // second mount, or for another file, nothing of the previous drawing is left behind.
    const target = document.createElement('div');
    target.className = styles.canvas ?? '';
    host.appendChild(target);

    let disposed = false;
    let run: AbortController | null = null;
    let pieces: readonly DrawnPiece[] = [];
    let observer: ResizeObserver | null = null;
    let resizeTimer: number | undefined;
    let drawnWidth = -1;

    const clear = () => {
      for (const piece of pieces) piece.osmd.clear();
      pieces = [];
      target.replaceChildren();
    };

    const draw = async () => {
      const { Osmd, TransposeCalculator } = await loadOsmd();
      if (disposed) return;
      run?.abort();
      const controller = new AbortController();
      run = controller;
      clear();
      drawnWidth = host.clientWidth;
      try {
        await drawScore({
          Osmd,
          source,
          options: OSMD_OPTIONS,
          zoom: zoomFor(drawnWidth),
          transpose: TransposeCalculator ? { semitones: shown, Calculator: TransposeCalculator } : undefined,
          into: target,
          boxClass: styles.piece ?? '',
          signal: controller.signal,
          onPiece: (drawnSoFar, done) => {
            pieces = drawnSoFar;
            setDrawn({ pieces: drawnSoFar, source, host, complete: done });
            setResult({ source, status: 'ready' });
          },
        });
      } catch (error) {
        if (isAbort(error) || disposed) return;
        console.warn(`Score ${url} could not be displayed:`, error instanceof Error ? error.message : error);
        // What was drawn stays; a score of which nothing could be drawn offers its download.
        if (pieces.length === 0) setResult({ source, status: 'error' });
      }
    };

    void draw().then(() => {
      if (disposed || typeof ResizeObserver !== 'function') return;
      observer = new ResizeObserver(() => {
        window.clearTimeout(resizeTimer);
        resizeTimer = window.setTimeout(() => {
          if (disposed || Math.abs(host.clientWidth - drawnWidth) < 1) return;
          void draw();
        }, SCORE_RESIZE_DEBOUNCE_MS);
      });
      observer.observe(host);
    });

    return () => {
      disposed = true;
      run?.abort();
      observer?.disconnect();
      window.clearTimeout(resizeTimer);
      clear();
      target.remove();
      setDrawn(null);
    };
  }, [source, url, shown]);

  /** Bar A, tapped while choosing the bars to loop, shaded until bar B is. */
  const first = playback.picking?.first;
  const pickBox = first !== null && first !== undefined ? playback.layout?.measures[first] : null;

  return (
    <figure
      className={styles.score}
      aria-label={`Score: ${title}`}
      aria-busy={status === 'loading' || (drawn !== null && !drawn.complete)}
      data-status={status}
      data-drawn={drawn?.complete ? 'all' : drawn ? 'some' : 'none'}
    >
      {player && tapping && status === 'ready' && source ? <SyncTapper playback={playback} {...tapping} /> : null}
      {player && status === 'ready' && source ? <ScoreControls
          playback={playback}
          partNames={source.partNames}
          measures={source.measures}
          title={title}
          url={url}
          onShown={setShown}
        /> : null}
      <div
        ref={hostRef}
        data-score-drawing
        className={status === 'error' ? styles.hidden : player ? `${styles.host} ${styles.playable}` : styles.host}
        onPointerDown={player ? (e) => drag.start(e) : undefined}
        onPointerUp={player ? (e) => drag.end(e) : undefined}
        onPointerCancel={player ? () => drag.cancel() : undefined}
        onClick={player ? (e) => drag.click(e) : undefined}
      >
        {player ? <div ref={cursorRef} className={styles.cursor} hidden aria-hidden="true" data-score-cursor /> : null}
        {playback.layout
          ? barMarks.map((mark, i) => {
              const box = playback.layout?.measures[mark.from - 1];
              if (!box) return null;
              // Marks over the same bar stand side by side.
              const before = barMarks.slice(0, i).filter((m) => m.from === mark.from).length;
              return (
                <button
                  key={mark.id}
                  type="button"
                  className={styles.barMark}
                  data-bar-mark={mark.id}
                  aria-label={mark.label}
                  title={mark.label}
                  style={{ transform: `translate(${(box.left + 4 + before * 26).toFixed(1)}px, ${(box.top - 26).toFixed(1)}px)` }}
                  onPointerDown={(e) => e.stopPropagation()}
                  onPointerUp={(e) => e.stopPropagation()}
                  onClick={(e) => {
                    e.stopPropagation();
                    void (mark.to > mark.from ? loopBars({ from: mark.from - 1, to: mark.to - 1 }) : playMeasure(mark.from - 1));
                  }}
                />
              );
            })
          : null}
        {pickBox ? (
          <div
            className={styles.loopBar}
            aria-hidden="true"
            data-score-pick
            style={{ transform: `translate(${pickBox.left.toFixed(1)}px, ${pickBox.top.toFixed(1)}px)`, width: pickBox.right - pickBox.left, height: pickBox.bottom - pickBox.top }}
          />
        ) : null}
        {playback.loopBoxes.map((b) => (
          <div
            key={`${b.left},${b.top}`}
            className={styles.loopBar}
            aria-hidden="true"
            data-score-loop
            style={{ transform: `translate(${b.left.toFixed(1)}px, ${b.top.toFixed(1)}px)`, width: b.width, height: b.height }}
          />
        ))}
      </div>
      {status === 'loading' ? (
        <div className={styles.loading}>
          <Spinner size="md" label="" />
          <span role="status">{SCORE_WORDS.loading}</span>
        </div>
      ) : null}
      {status === 'error' ? (
        <div className={styles.error} role="alert">
          <p>{SCORE_WORDS.failed}</p>
          <a href={url} download className="btn btn-secondary">
            {SCORE_WORDS.download} {title}
          </a>
        </div>
      ) : null}
    </figure>
  );
}
