// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { paintWaveform, waveformBars, type Bar } from './waveform';

const LAYOUT = { barWidth: 2, gap: 1, minHeight: 1 };

describe('waveformBars', () => {
  it('draws nothing on a canvas without area', () => {
    expect(waveformBars(new Int8Array([-10, 10]), 0, 40)).toEqual([]);
    expect(waveformBars(new Int8Array([-10, 10]), 100, 0)).toEqual([]);
  });

  it('draws a flat bar across the whole width when there are no peaks', () => {
    expect(waveformBars(null, 300, 50, LAYOUT)).toEqual([{ x: 0, y: 23, width: 300, height: 3 }]);
    // An empty or odd one-byte array holds no min,max pair either.
    expect(waveformBars(new Int8Array([5]), 300, 50, LAYOUT)).toEqual([{ x: 0, y: 23, width: 300, height: 3 }]);
  });

  it('turns each min,max pair into a bar around the middle, at a fixed pitch', () => {
    // Four bins on a canvas that fits exactly four 2px bars with 1px gaps (11px).
    const peaks = new Int8Array([-127, 127, -64, 64, 0, 0, -32, 96]);
    const bars = waveformBars(peaks, 11, 100, LAYOUT);
    const scale = (50 * 0.94) / 127;
    expect(bars.map((b) => b.x)).toEqual([0, 3, 6, 9]);
    expect(bars.every((b) => b.width === 2)).toBe(true);
    expect(bars[0]).toEqual({ x: 0, y: 3, width: 2, height: 94 });
    expect(bars[1]).toEqual({
      x: 3,
      y: Math.round(50 - 64 * scale),
      width: 2,
      height: Math.round(50 + 64 * scale) - Math.round(50 - 64 * scale),
    });
    // Silence still shows as a line of the least height.
    expect(bars[2]).toEqual({ x: 6, y: 50, width: 2, height: 1 });
    // Not symmetric: the max reaches higher than the min reaches lower.
    const last = bars[3]!;
    expect(50 - last.y).toBeGreaterThan(last.y + last.height - 50);
  });

  it('keeps the loudest of the bins a bar covers', () => {
    // Eight bins, two bars: each bar spans four bins.
    const peaks = new Int8Array([-1, 1, -90, 20, -3, 3, -2, 2, -5, 5, -4, 100, -6, 6, -1, 1]);
    const [first, second] = waveformBars(peaks, 5, 100, LAYOUT) as [Bar, Bar];
    const scale = (50 * 0.94) / 100;
    expect(first.y).toBe(Math.round(50 - 20 * scale));
    expect(first.y + first.height).toBe(Math.round(50 + 90 * scale));
    expect(second.y).toBe(Math.round(50 - 100 * scale));
    expect(second.y + second.height).toBe(Math.round(50 + 6 * scale));
  });

  it('scales a track to its loudest bin, but lifts a quiet one by at most 4×', () => {
    const loud = waveformBars(new Int8Array([-60, 60]), 2, 100, LAYOUT)[0]!;
    const quiet = waveformBars(new Int8Array([-8, 8]), 2, 100, LAYOUT)[0]!;
    // The loudest bin of each track fills the height...
    expect(loud).toEqual({ x: 0, y: 3, width: 2, height: 94 });
    // ...but near-silence is scaled as if its loudest were 32, not up to full height.
    expect(quiet.height).toBe(Math.round(50 + 8 * (47 / 32)) - Math.round(50 - 8 * (47 / 32)));
    expect(quiet.height).toBeLessThan(30);
  });

  it('repeats bins when the canvas has more bars than bins, and stays inside the canvas', () => {
    const bars = waveformBars(new Int8Array([-100, 100, -10, 10]), 31, 40, LAYOUT);
    expect(bars).toHaveLength(10);
    expect(bars.slice(0, 5).every((b) => b.height === bars[0]!.height)).toBe(true);
    expect(bars.slice(5).every((b) => b.height === bars[5]!.height)).toBe(true);
    expect(bars[0]!.height).toBeGreaterThan(bars[5]!.height);
    for (const bar of bars) {
      expect(bar.x + bar.width).toBeLessThanOrEqual(31);
      expect(bar.y).toBeGreaterThanOrEqual(0);
      expect(bar.y + bar.height).toBeLessThanOrEqual(40);
    }
  });

  it('scales the bars to device pixels', () => {
    const bars = waveformBars(new Int8Array([-50, 50, -50, 50]), 600, 80, { barWidth: 4, gap: 2, minHeight: 2 });
    expect(bars).toHaveLength(100);
    expect(bars[1]!.x).toBe(6);
    expect(bars[99]!.x + bars[99]!.width).toBe(598);
  });
});

describe('paintWaveform', () => {
  function recorder() {
    const calls: string[] = [];
    const ctx = {
      fillStyle: '',
      clearRect: (...a: number[]) => calls.push(`clear ${a.join(',')}`),
      fillRect: (...a: number[]) => calls.push(`fill ${ctx.fillStyle} ${a.join(',')}`),
      save: () => calls.push('save'),
      restore: () => calls.push('restore'),
      beginPath: () => {},
      rect: (...a: number[]) => calls.push(`rect ${a.join(',')}`),
      clip: () => calls.push('clip'),
    };
    return { ctx: ctx as unknown as CanvasRenderingContext2D, calls };
  }
  const bars: Bar[] = [
    { x: 0, y: 1, width: 2, height: 8 },
    { x: 3, y: 2, width: 2, height: 6 },
  ];
  const colors = { played: 'purple', rest: 'grey' };

  it('paints every bar muted, then the played part again in the accent colour', () => {
    const { ctx, calls } = recorder();
    paintWaveform(ctx, bars, 10, 10, 4, colors);
    expect(calls).toEqual([
      'clear 0,0,10,10',
      'fill grey 0,1,2,8',
      'fill grey 3,2,2,6',
      'save',
      'rect 0,0,4,10',
      'clip',
      'fill purple 0,1,2,8',
      'fill purple 3,2,2,6',
      'restore',
    ]);
  });

  it('paints only the muted bars before anything has played', () => {
    const { ctx, calls } = recorder();
    paintWaveform(ctx, bars, 10, 10, 0, colors);
    expect(calls).toEqual(['clear 0,0,10,10', 'fill grey 0,1,2,8', 'fill grey 3,2,2,6']);
  });
});
