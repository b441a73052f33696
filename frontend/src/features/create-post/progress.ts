/**
 * What the upload bar shows (spec §4 Create posts, §9 Upload progress).
 *
 * The bar follows the browser's real upload progress: the bytes sent fill it up to 95 %, and
 * 100 % waits for the server's answer. Until the browser reports a real fraction (some never do
 * for small bodies), the spec's creep keeps it moving: a step every 200–300 ms, slowing down as
 * it nears 85 %, never past it. Shown = max(real × 95 %, creep).
 */

export const CREEP_CAP = 85;
/** The share of the bar the bytes fill; the rest is the server's work. */
export const REAL_SHARE = 0.95;
export const CREEP_MIN_DELAY_MS = 200;
export const CREEP_MAX_DELAY_MS = 300;

/** The creep after one more step; `random` is in [0, 1). */
export function nextCreep(current: number, random: number): number {
  const room = CREEP_CAP - current;
  if (room <= 0) return CREEP_CAP;
  // 6–14 % of what is left, at least a quarter point, so it slows near the cap.
  const step = Math.max(0.25, room * (0.06 + random * 0.08));
  return Math.min(CREEP_CAP, current + step);
}

/** The wait before the next creep step, 200–300 ms. */
export function creepDelay(random: number): number {
  return CREEP_MIN_DELAY_MS + Math.round(random * (CREEP_MAX_DELAY_MS - CREEP_MIN_DELAY_MS));
}

/** The whole percentage shown for a real fraction (0–1, or null before any) and the creep. */
export function shownPercent(real: number | null, creep: number): number {
  const fromBytes = real === null ? 0 : Math.max(0, Math.min(1, real)) * REAL_SHARE * 100;
  return Math.floor(Math.max(fromBytes, Math.min(creep, CREEP_CAP)));
}
