/** Seconds as m:ss (whole seconds, rounded down: the elapsed time of a player). */
export function formatTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** A track's length as m:ss, rounded to the nearest second as the server writes `duration`. */
export function formatLength(seconds: number): string {
  return formatTime(Number.isFinite(seconds) ? Math.round(seconds) : 0);
}
