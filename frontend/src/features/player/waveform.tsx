import { useEffect, useMemo, useRef, useState, type PointerEvent, type RefObject } from 'react';
import styles from './waveform.module.css';

/** A rectangle of the drawing, in canvas (device) pixels. */
export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BarLayout {
  /** Width of a bar and of the gap after it, in canvas pixels. */
  barWidth: number;
  gap: number;
  /** The least height of a bar, so silence still shows as a line. */
  minHeight: number;
}

const DEFAULT_LAYOUT: BarLayout = { barWidth: 2, gap: 1, minHeight: 1 };

/**
 * Peaks are not normalised (docs/posts.md: full scale is ±127), so a quiet recording would draw
 * as a flat line. The drawing scales each track to its own loudest bin, but never by more than
 * 127 / 32 (4×, 12 dB): near-silence stays low instead of becoming full-height noise.
 */
const QUIETEST_SCALED = 32;

/** How much of the half-height the loudest bar reaches. */
const HEADROOM = 0.94;

/**
 * The bars of a waveform `width` × `height` canvas pixels: one bar per `barWidth + gap` pixels,
 * each spanning the lowest min and the highest max of the peak bins it covers (min,max pairs
 * of signed bytes), centred on the middle line. Without peaks it is one flat bar across the
 * whole width.
 */
export function waveformBars(
  peaks: Int8Array | null,
  width: number,
  height: number,
  layout: BarLayout = DEFAULT_LAYOUT,
): Bar[] {
  const w = Math.floor(width);
  const h = Math.floor(height);
  if (w <= 0 || h <= 0) return [];
  const minHeight = Math.max(1, Math.min(h, Math.round(layout.minHeight)));
  const pairs = peaks ? Math.floor(peaks.length / 2) : 0;

  if (!peaks || pairs === 0) {
    const flat = Math.max(minHeight, Math.round(h * 0.06));
    return [{ x: 0, y: Math.floor((h - flat) / 2), width: w, height: flat }];
  }

  let loudest = 0;
  for (let i = 0; i < pairs * 2; i++) loudest = Math.max(loudest, Math.abs(peaks[i] ?? 0));
  const half = h / 2;
  const scale = (half * HEADROOM) / Math.max(loudest, QUIETEST_SCALED);

  const barWidth = Math.max(1, Math.round(layout.barWidth));
  const pitch = barWidth + Math.max(0, Math.round(layout.gap));
  const count = Math.max(1, Math.floor((w - barWidth) / pitch) + 1);
  const bars: Bar[] = [];
  for (let i = 0; i < count; i++) {
    const first = Math.floor((i * pairs) / count);
    const end = Math.max(first + 1, Math.floor(((i + 1) * pairs) / count));
    let lo = 127;
    let hi = -128;
    for (let bin = first; bin < end; bin++) {
      lo = Math.min(lo, peaks[bin * 2] ?? 0);
      hi = Math.max(hi, peaks[bin * 2 + 1] ?? 0);
    }
    if (hi < lo) [lo, hi] = [hi, lo];
    let top = Math.round(half - hi * scale);
    let bottom = Math.round(half - lo * scale);
    if (bottom - top < minHeight) {
      const middle = (top + bottom) / 2;
      top = Math.round(middle - minHeight / 2);
      bottom = top + minHeight;
    }
    top = Math.max(0, top);
    bottom = Math.min(h, bottom);
    bars.push({ x: i * pitch, y: top, width: Math.min(barWidth, w - i * pitch), height: bottom - top });
  }
  return bars;
}

interface Colors {
  played: string;
  rest: string;
}

/** Paints the bars in the rest colour, then the part left of `playedX` in the played colour. */
export function paintWaveform(
  ctx: CanvasRenderingContext2D,
  bars: readonly Bar[],
  width: number,
  height: number,
  playedX: number,
  colors: Colors,
): void {
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = colors.rest;
  for (const bar of bars) ctx.fillRect(bar.x, bar.y, bar.width, bar.height);
  if (playedX <= 0) return;
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, 0, playedX, height);
  ctx.clip();
  ctx.fillStyle = colors.played;
  for (const bar of bars) ctx.fillRect(bar.x, bar.y, bar.width, bar.height);
  ctx.restore();
}

interface Size {
  /** CSS pixels. */
  width: number;
  height: number;
  dpr: number;
}

function measure(canvas: HTMLCanvasElement): Size {
  const rect = canvas.getBoundingClientRect();
  return { width: rect.width, height: rect.height, dpr: window.devicePixelRatio || 1 };
}

function sameSize(a: Size, b: Size): boolean {
  return a.width === b.width && a.height === b.height && a.dpr === b.dpr;
}

/** Follows the canvas's size and the screen's pixel density. */
function useCanvasSize(ref: RefObject<HTMLCanvasElement | null>): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0, dpr: 1 });

  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const update = () => {
      const next = measure(canvas);
      setSize((current) => (sameSize(current, next) ? current : next));
    };
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [ref]);

  // Moving the window to a screen of another density changes no size, only the ratio.
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(`(resolution: ${size.dpr}dppx)`);
    const onChange = () => {
      const canvas = ref.current;
      if (canvas) setSize(measure(canvas));
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [ref, size.dpr]);

  return size;
}

interface WaveformProps {
  peaks: Int8Array | null;
  /** How much has played, 0..1. */
  progress: number;
  /** Called with 0..1 where a click or a drag ends. */
  onSeek: (fraction: number) => void;
  className?: string;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/**
 * The track's waveform on a canvas, sharp at any pixel density: the played part in the accent
 * colour. Pointer input seeks (a drag previews, the release seeks); keyboards and screen
 * readers use the slider laid over it, so the canvas itself is hidden from them.
 */
export function Waveform({ peaks, progress, onSeek, className }: WaveformProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const size = useCanvasSize(ref);
  const [scrub, setScrub] = useState<number | null>(null);
  const colors = useRef<Colors | null>(null);

  const pixelWidth = Math.round(size.width * size.dpr);
  const pixelHeight = Math.round(size.height * size.dpr);
  const bars = useMemo(
    () =>
      waveformBars(peaks, pixelWidth, pixelHeight, {
        barWidth: 2 * size.dpr,
        gap: size.dpr,
        minHeight: size.dpr,
      }),
    [peaks, pixelWidth, pixelHeight, size.dpr],
  );

  const shown = clamp01(scrub ?? progress);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas || pixelWidth <= 0 || pixelHeight <= 0) return;
    if (canvas.width !== pixelWidth) canvas.width = pixelWidth;
    if (canvas.height !== pixelHeight) canvas.height = pixelHeight;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    // The colours come from the stylesheet (--wave-played, --wave-rest on a parent).
    if (!colors.current) {
      const style = getComputedStyle(canvas);
      colors.current = {
        played: style.getPropertyValue('--wave-played').trim() || '#6d01d0',
        rest: style.getPropertyValue('--wave-rest').trim() || '#cbc6d8',
      };
    }
    paintWaveform(ctx, bars, pixelWidth, pixelHeight, Math.round(shown * pixelWidth), colors.current);
  }, [bars, pixelWidth, pixelHeight, shown]);

  const fraction = (event: PointerEvent<HTMLCanvasElement>): number | null => {
    const rect = event.currentTarget.getBoundingClientRect();
    return rect.width > 0 ? clamp01((event.clientX - rect.left) / rect.width) : null;
  };

  return (
    <canvas
      ref={ref}
      className={[styles.canvas, className].filter(Boolean).join(' ')}
      aria-hidden="true"
      data-testid="waveform"
      data-scrubbing={scrub !== null ? 'true' : undefined}
      onPointerDown={(event) => {
        if (event.pointerType === 'mouse' && event.button !== 0) return;
        const at = fraction(event);
        if (at === null) return;
        event.currentTarget.setPointerCapture?.(event.pointerId);
        setScrub(at);
      }}
      onPointerMove={(event) => {
        if (scrub === null) return;
        const at = fraction(event);
        if (at !== null) setScrub(at);
      }}
      onPointerUp={(event) => {
        if (scrub === null) return;
        const at = fraction(event) ?? scrub;
        setScrub(null);
        onSeek(at);
      }}
      // A touch that turns into scrolling the page is not a seek.
      onPointerCancel={() => setScrub(null)}
    />
  );
}
