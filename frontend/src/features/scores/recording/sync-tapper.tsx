import { useEffect, useRef, useState } from 'react';
import { Waveform, usePlayerActions, usePlayerPosition, usePlayerSelector, usePlayerTime, type PlayerTrack } from '../../player';
import { formatDuration } from '../../../lib/format';
import type { useScorePlayback } from '../use-score-playback';
import type { SyncPoint } from './sync-map';
import styles from './sync-tapper.module.css';

export const TAPPER_WORDS = {
  heading: 'Sync the score to the recording',
  help: 'Play the recording and tap at the start of every bar, repeats included: press Space or the Tap button. Tap slowly at a lower speed if you like; drag a marker on the waveform to correct it.',
  play: 'Play recording',
  pause: 'Pause',
  fromStart: 'From the start',
  tap: 'Tap',
  undo: 'Undo last tap',
  clear: 'Start over',
  save: 'Save sync',
  saving: 'Saving…',
  cancel: 'Cancel',
  tapped: (n: number, of: number) => `${n} of ${of} bars tapped`,
  next: (bar: number) => `Next: bar ${bar}`,
  done: 'Every bar is tapped.',
  tooFew: 'Tap at least two bars to save.',
  marker: (bar: number, at: string) => `Bar ${bar} at ${at}`,
} as const;

/** Two taps closer than this are one tap twice (a bounce of the key). */
const BOUNCE_MS = 80;
/** How far an arrow key moves a marker. */
const NUDGE_MS = 20;

interface SyncTapperProps {
  playback: ReturnType<typeof useScorePlayback>;
  /** The recording tapped along. */
  track: PlayerTrack;
  /** The map it had, to correct; none for a new one. */
  initial: readonly SyncPoint[] | null;
  onSave: (points: SyncPoint[]) => Promise<void>;
  onCancel: () => void;
  /** What went wrong saving, said where the author reads it. */
  problem: string | null;
}

/** `m:ss.s`, the precision a tap is corrected at. */
function tenths(ms: number): string {
  return `${formatDuration(ms / 1000, Math.floor)}.${Math.floor((ms % 1000) / 100)}`;
}

/**
 * Tapping along a recording to make a score's sync map (issue 35): one tap a bar as the recording
 * plays, the bars counted as the performance plays them (repeats played out), and each tap a
 * marker on the recording's waveform that can be dragged (or moved with the arrow keys) to
 * correct it. The map is the author's to save.
 */
export function SyncTapper({ playback, track, initial, onSave, onCancel, problem }: SyncTapperProps) {
  const [points, setPoints] = useState<SyncPoint[]>(() => [...(initial ?? [])]);
  const [bars, setBars] = useState<number[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [tooFew, setTooFew] = useState(false);
  const tapButton = useRef<HTMLButtonElement>(null);
  const strip = useRef<HTMLDivElement>(null);
  const player = usePlayerActions();
  const position = usePlayerPosition();
  const current = usePlayerSelector((s) => s.track?.postId === track.postId && s.track.index === track.index);
  const playing = usePlayerSelector((s) => current && s.playing);
  const duration = usePlayerSelector((s) => (current && s.duration > 0 ? s.duration : (track.durationSeconds ?? 0)));
  const time = usePlayerTime(current);
  const { readPerformance } = playback;

  // The bars of the performance, in order: which written bar each tap is.
  useEffect(() => {
    let live = true;
    void readPerformance().then((read) => {
      if (live && read) setBars(read.timeline.measures.map((m) => m.written));
    });
    return () => {
      live = false;
    };
  }, [readPerformance]);

  const total = bars?.length ?? 0;
  const nextBar = bars?.[points.length];

  const tap = () => {
    const now = position();
    if (!current || !now.track || nextBar === undefined) return;
    const at = Math.round(now.seconds * 1000);
    setPoints((list) => {
      const last = list[list.length - 1];
      if (last && at - last.at_ms < BOUNCE_MS) return list;
      return [...list, { bar: list.length, at_ms: at }];
    });
    setTooFew(false);
  };

  const play = (from?: number) => {
    if (playing && from === undefined) player.pause();
    else player.play(track, from);
    tapButton.current?.focus();
  };

  /** Moves marker `i` to `ms`, kept between its neighbours. */
  const move = (i: number, ms: number) =>
    setPoints((list) => {
      const before = list[i - 1]?.at_ms ?? -1;
      const after = list[i + 1]?.at_ms ?? duration * 1000 + 1;
      const at = Math.round(Math.min(after - 1, Math.max(before + 1, ms)));
      return list.map((p, j) => (j === i ? { ...p, at_ms: at } : p));
    });

  const drag = (i: number) => (e: React.PointerEvent<HTMLButtonElement>) => {
    const box = strip.current?.getBoundingClientRect();
    if (!box || duration <= 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const to = (x: number) => move(i, ((x - box.left) / box.width) * duration * 1000);
    const target = e.currentTarget;
    const onMove = (m: PointerEvent) => to(m.clientX);
    const onUp = () => {
      target.removeEventListener('pointermove', onMove);
      target.removeEventListener('pointerup', onUp);
    };
    target.addEventListener('pointermove', onMove);
    target.addEventListener('pointerup', onUp);
  };

  const save = async () => {
    if (points.length < 2) {
      setTooFew(true);
      return;
    }
    setSaving(true);
    try {
      await onSave(points);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className={styles.tapper} aria-labelledby="sync-tapper-heading" data-sync-tapper>
      <h3 id="sync-tapper-heading" className={styles.heading}>
        {TAPPER_WORDS.heading}
      </h3>
      <p className={styles.help}>{TAPPER_WORDS.help}</p>
      <div className={styles.row}>
        <button type="button" className="btn btn-secondary" onClick={() => play()}>
          {playing ? TAPPER_WORDS.pause : TAPPER_WORDS.play}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => play(0)}>
          {TAPPER_WORDS.fromStart}
        </button>
        <span className={styles.time} aria-label="Position">
          {formatDuration(current ? time : 0, Math.floor)} / {formatDuration(duration)}
        </span>
      </div>
      <div className={styles.row}>
        <button
          ref={tapButton}
          type="button"
          className={`btn btn-primary ${styles.tap}`}
          disabled={!current || nextBar === undefined}
          // Taken when the key goes down or the finger lands, not when it lifts.
          onPointerDown={(e) => {
            e.preventDefault();
            tap();
          }}
          onKeyDown={(e) => {
            if ((e.key === ' ' || e.key === 'Enter') && !e.repeat) {
              e.preventDefault();
              tap();
            }
          }}
          data-sync-tap
        >
          {TAPPER_WORDS.tap}
        </button>
        <span role="status" className={styles.count} data-tapped={points.length}>
          {TAPPER_WORDS.tapped(points.length, total)}
          {' · '}
          {nextBar !== undefined ? TAPPER_WORDS.next(nextBar + 1) : TAPPER_WORDS.done}
        </span>
      </div>
      <div className={styles.strip} ref={strip}>
        <Waveform
          peaks={track.peaks}
          progress={duration > 0 && current ? time / duration : 0}
          onSeek={(f) => current && player.seek(f * duration)}
          className={styles.wave}
        />
        {points.map((p, i) => (
          <button
            key={p.bar}
            type="button"
            className={styles.marker}
            style={{ left: `${duration > 0 ? (p.at_ms / (duration * 1000)) * 100 : 0}%` }}
            aria-label={TAPPER_WORDS.marker((bars?.[p.bar] ?? p.bar) + 1, tenths(p.at_ms))}
            data-sync-marker={p.bar}
            data-at-ms={p.at_ms}
            onPointerDown={drag(i)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
                e.preventDefault();
                move(i, p.at_ms + (e.key === 'ArrowLeft' ? -NUDGE_MS : NUDGE_MS));
              }
            }}
          >
            <span aria-hidden="true">{(bars?.[p.bar] ?? p.bar) + 1}</span>
          </button>
        ))}
      </div>
      <div className={styles.row}>
        <button type="button" className="btn btn-secondary" disabled={points.length === 0} onClick={() => setPoints((l) => l.slice(0, -1))}>
          {TAPPER_WORDS.undo}
        </button>
        <button type="button" className="btn btn-secondary" disabled={points.length === 0} onClick={() => setPoints([])}>
          {TAPPER_WORDS.clear}
        </button>
        <span className={styles.spacer} />
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          {TAPPER_WORDS.cancel}
        </button>
        <button type="button" className="btn btn-primary" disabled={saving} onClick={() => void save()}>
          {saving ? TAPPER_WORDS.saving : TAPPER_WORDS.save}
        </button>
      </div>
      {tooFew || problem ? (
        <p role="alert" className={styles.problem}>
          {tooFew ? TAPPER_WORDS.tooFew : problem}
        </p>
      ) : null}
    </section>
  );
}
