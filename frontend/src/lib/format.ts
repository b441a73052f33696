/** Small formatting helpers shared across features. */

/** Milliseconds as m:ss, rounding up so a countdown never shows 0:00 while time is left. */
export function formatCountdown(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/**
 * Seconds as m:ss. A track's length rounds to the nearest second, as the server writes a post's
 * `duration`; a player's elapsed time passes `Math.floor`, so a second shows once it has passed.
 * Anything not finite, or below 0, is 0:00.
 */
export function formatDuration(seconds: number, round: (seconds: number) => number = Math.round): string {
  const whole = Number.isFinite(seconds) ? Math.max(0, round(seconds)) : 0;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Parses the first m:ss in a text into milliseconds, e.g. 'Please wait 2:41 before…' → 161000. */
export function parseCountdown(text: string): number | null {
  const match = /(\d+):([0-5]\d)/.exec(text);
  if (!match) return null;
  return (Number(match[1]) * 60 + Number(match[2])) * 1000;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago, the way posts say it (spec §4 Relative timestamps): 'just now' under a minute,
 * then 'Nm ago', 'Nh ago', 'Nd ago' under 7 days, else the date in the reader's locale. A time
 * a little in the future (clocks differ) counts as 'just now'; an unreadable one gives ''.
 * Notifications say days in words ('1 day ago', '3 days ago'): `days: 'words'`.
 */
export function formatRelativeTime(
  when: string | Date,
  now: Date = new Date(),
  { days = 'short' }: { days?: 'short' | 'words' } = {},
): string {
  const date = typeof when === 'string' ? new Date(when) : when;
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const ago = now.getTime() - time;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)}m ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)}h ago`;
  if (ago < 7 * DAY) {
    const n = Math.floor(ago / DAY);
    return days === 'words' ? `${n} ${n === 1 ? 'day' : 'days'} ago` : `${n}d ago`;
  }
  return date.toLocaleDateString();
}

/**
 * The name a downloaded file is saved under: its title (characters file systems refuse taken
 * out), with the extension of the stored file, e.g. "Morning Take.mp3". A title left empty falls
 * back to the stored file's own name.
 */
export function downloadName(title: string, url: string): string {
  const path = (() => {
    try {
      return new URL(url, 'http://x').pathname;
    } catch {
      return url;
    }
  })();
  const stored = decodeURIComponent(path.split('/').pop() ?? '');
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(stored)?.[1]?.toLowerCase();
  // Control characters and those Windows, macOS or Linux refuse in a name.
  // eslint-disable-next-line no-control-regex
  const base = title.replace(/[\u0000-\u001f<>:"/\\|?*]+/g, ' ').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  if (!base) return stored;
  if (!extension || base.toLowerCase().endsWith(`.${extension}`)) return base;
  return `${base}.${extension}`;
}
