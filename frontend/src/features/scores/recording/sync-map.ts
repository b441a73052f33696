/**
 * A recording's sync map (issue 35; docs/posts.md, "A score that follows a recording"): for bars
 * of the performance (the score's bars as played, repeats played out, from 0), the moment of the
 * track each starts at. Between two points the score moves evenly through its quarters; before
 * the first and after the last it goes at the pace of the nearest pair. Points past the score's
 * last performed bar are left out.
 */

export interface SyncPoint {
  bar: number;
  at_ms: number;
}

/** What the map needs of the score: each performed bar's start and length, in quarter notes. */
export interface PerformedBars {
  measures: ReadonlyArray<{ start: number; length: number }>;
  length: number;
}

/** The map as anchors: (seconds, quarters), both increasing; empty when fewer than two fit the score. */
export interface SyncAnchors {
  seconds: number[];
  quarters: number[];
  /** The whole performance, in quarters. */
  length: number;
}

export function anchorsOf(score: PerformedBars, points: readonly SyncPoint[]): SyncAnchors {
  const seconds: number[] = [];
  const quarters: number[] = [];
  for (const p of points) {
    const bar = score.measures[p.bar];
    if (!bar) continue;
    seconds.push(p.at_ms / 1000);
    quarters.push(bar.start);
  }
  return seconds.length >= 2 ? { seconds, quarters, length: score.length } : { seconds: [], quarters: [], length: score.length };
}

/** The segment (i, i + 1) of `xs` that `x` falls in, the first or last one outside. */
function segment(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((xs[mid] ?? 0) <= x) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

function interpolate(xs: readonly number[], ys: readonly number[], x: number): number {
  const i = segment(xs, x);
  const x0 = xs[i] ?? 0;
  const x1 = xs[i + 1] ?? x0;
  const y0 = ys[i] ?? 0;
  const y1 = ys[i + 1] ?? y0;
  return x1 === x0 ? y0 : y0 + ((x - x0) * (y1 - y0)) / (x1 - x0);
}

/** Where in the score (quarters from its start) the recording is `seconds` in; null without a map. */
export function quarterAt(anchors: SyncAnchors, seconds: number): number | null {
  if (anchors.seconds.length < 2) return null;
  return Math.min(anchors.length, Math.max(0, interpolate(anchors.seconds, anchors.quarters, seconds)));
}

/** When the recording reaches quarter `q` of the score (seconds, from 0); null without a map. */
export function secondsAt(anchors: SyncAnchors, q: number): number | null {
  if (anchors.seconds.length < 2) return null;
  return Math.max(0, interpolate(anchors.quarters, anchors.seconds, q));
}
