import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { IOSMDOptions, OpenSheetMusicDisplay } from 'opensheetmusicdisplay';
import { Spinner } from '../../components/spinner';
import { scoreQueries } from './api';
import { ScoreControls } from './score-controls';
import { partNames } from './score-file';
import { useScorePlayback, type DrawnScore, type ScoreIdentity } from './use-score-playback';
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
type OsmdConstructor = typeof OpenSheetMusicDisplay;

/**
 * OpenSheetMusicDisplay (~340 KB gzipped with VexFlow and JSZip) is fetched the first time a
 * score is shown, never with the page, and once for all the scores on it (a failed download is
 * tried again next time). It is a CommonJS bundle: depending on the bundler its class is a named
 * export or sits under `default`.
 */
let osmdLoading: Promise<OsmdConstructor> | null = null;

function loadOsmd(): Promise<OsmdConstructor> {
  osmdLoading ??= import('opensheetmusicdisplay').then(
    (mod: Partial<OsmdModule> & { default?: Partial<OsmdModule> }) => {
      const Osmd = mod.OpenSheetMusicDisplay ?? mod.default?.OpenSheetMusicDisplay;
      if (!Osmd) throw new Error('OpenSheetMusicDisplay is missing from its module');
      return Osmd;
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
}

/**
 * A MusicXML file drawn as sheet music, fitted to the width it is given and laid out again when
 * that changes. While it loads a spinner shows; if it cannot be drawn, a Download link stays.
 */
export function ScoreView({ url, title, player }: ScoreViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const file = useQuery(scoreQueries.file(url));
  const source = file.data;
  const parts = useMemo(() => (source ? partNames(source) : []), [source]);
  /** Set every time OSMD has drawn the score (again). */
  const [drawn, setDrawn] = useState<DrawnScore | null>(null);
  const playback = useScorePlayback({ identity: player, title, url, drawn });
  const { cursorRef } = playback;
  // The drawing's status belongs to one file: a new one starts at 'loading' without an extra render.
  const [result, setResult] = useState<{ source: Document; status: Status } | null>(null);
  const status: Status = file.isError ? 'error' : result && result.source === source ? result.status : 'loading';

  // OpenSheetMusicDisplay is fetched while the file is.
  useEffect(() => {
    void loadOsmd();
  }, []);

  useEffect(() => {
    if (file.error) console.error(`Score ${url} could not be displayed`, file.error);
  }, [file.error, url]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host || !source) return;
    // OSMD draws into a box of its own, made and removed here: under StrictMode's second mount,
    // or for another file, nothing of the previous drawing is left behind.
    const target = document.createElement('div');
    target.className = styles.canvas ?? '';
    host.appendChild(target);

    let osmd: OpenSheetMusicDisplay | null = null;
    let disposed = false;
    let observer: ResizeObserver | null = null;
    let resizeTimer: number | undefined;
    let drawnWidth = -1;

    const draw = () => {
      if (!osmd) return;
      drawnWidth = host.clientWidth;
      osmd.Zoom = zoomFor(drawnWidth);
      osmd.render();
      setDrawn({ osmd, doc: source, host, canvas: target });
    };

    const show = async () => {
      const Osmd = await loadOsmd();
      if (disposed) return;
      osmd = new Osmd(target, OSMD_OPTIONS);
      await osmd.load(source, title);
      if (disposed) return;
      draw();
      setResult({ source, status: 'ready' });
      if (typeof ResizeObserver === 'function') {
        observer = new ResizeObserver(() => {
          window.clearTimeout(resizeTimer);
          resizeTimer = window.setTimeout(() => {
            if (disposed || Math.abs(host.clientWidth - drawnWidth) < 1) return;
            try {
              draw();
            } catch (error) {
              console.error('Score could not be laid out again', error);
            }
          }, SCORE_RESIZE_DEBOUNCE_MS);
        });
        observer.observe(host);
      }
    };

    show().catch((error: unknown) => {
      if (disposed) return;
      console.error(`Score ${url} could not be displayed`, error);
      setResult({ source, status: 'error' });
    });

    return () => {
      disposed = true;
      observer?.disconnect();
      window.clearTimeout(resizeTimer);
      osmd?.clear();
      target.remove();
      setDrawn(null);
    };
  }, [source, title, url]);

  return (
    <figure className={styles.score} aria-label={`Score: ${title}`} aria-busy={status === 'loading'} data-status={status}>
      {player && status === 'ready' ? <ScoreControls playback={playback} partNames={parts} title={title} /> : null}
      <div
        ref={hostRef}
        className={status === 'error' ? styles.hidden : player ? `${styles.host} ${styles.playable}` : styles.host}
        onClick={player ? (e) => void playback.playAt(e.clientX, e.clientY) : undefined}
      >
        {player ? <div ref={cursorRef} className={styles.cursor} hidden aria-hidden="true" data-score-cursor /> : null}
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
