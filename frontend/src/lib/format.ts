/** Small formatting helpers shared across features. */

/** Milliseconds as m:ss, rounding up so a countdown never shows 0:00 while time is left. */
export function formatCountdown(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/** Parses the first m:ss in a text into milliseconds, e.g. 'Please wait 2:41 before…' → 161000. */
export function parseCountdown(text: string): number | null {
  const match = /(\d+):([0-5]\d)/.exec(text);
  if (!match) return null;
  return (Number(match[1]) * 60 + Number(match[2])) * 1000;
}
