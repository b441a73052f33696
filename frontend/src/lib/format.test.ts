// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { downloadName, formatCountdown, formatDuration, formatRelativeTime, parseCountdown } from './format';

describe('formatCountdown', () => {
  it.each([
    [180_000, '3:00'],
    [179_001, '3:00'],
    [179_000, '2:59'],
    [161_000, '2:41'],
    [60_000, '1:00'],
    [59_000, '0:59'],
    [9_000, '0:09'],
    [1, '0:01'],
    [0, '0:00'],
    [-5, '0:00'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatCountdown(ms)).toBe(text);
  });
});

describe('formatDuration', () => {
  it('writes m:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65.4)).toBe('1:05');
    expect(formatDuration(600)).toBe('10:00');
  });

  it('rounds a length to the nearest second; an elapsed time passes Math.floor', () => {
    expect(formatDuration(59.5)).toBe('1:00');
    expect(formatDuration(59.5, Math.floor)).toBe('0:59');
    expect(formatDuration(3599.99, Math.floor)).toBe('59:59');
  });

  it('is 0:00 for what is not a time', () => {
    expect(formatDuration(-3)).toBe('0:00');
    expect(formatDuration(-0.4)).toBe('0:00');
    expect(formatDuration(Number.NaN)).toBe('0:00');
    expect(formatDuration(Number.POSITIVE_INFINITY, Math.floor)).toBe('0:00');
  });
});

describe('parseCountdown', () => {
  it('reads the m:ss of a server message', () => {
    expect(parseCountdown('Please wait 2:41 before requesting another email.')).toBe(161_000);
    expect(parseCountdown('Please wait 0:05')).toBe(5_000);
  });

  it('is null without one', () => {
    expect(parseCountdown('Too many requests')).toBeNull();
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();

  it.each([
    [0, 'just now'],
    [59_999, 'just now'],
    [60_000, '1m ago'],
    [59 * 60_000 + 59_999, '59m ago'],
    [3_600_000, '1h ago'],
    [23 * 3_600_000 + 3_599_999, '23h ago'],
    [86_400_000, '1d ago'],
    [7 * 86_400_000 - 1, '6d ago'],
  ])('%i ms ago → %s', (ms, text) => {
    expect(formatRelativeTime(before(ms), now)).toBe(text);
  });

  it('gives the locale date from 7 days on', () => {
    const then = new Date(now.getTime() - 7 * 86_400_000);
    expect(formatRelativeTime(then, now)).toBe(then.toLocaleDateString());
  });

  it("says days in words for notifications ('N days ago'), the rest as for posts", () => {
    const words = { days: 'words' } as const;
    expect(formatRelativeTime(before(5 * 60_000), now, words)).toBe('5m ago');
    expect(formatRelativeTime(before(86_400_000), now, words)).toBe('1 day ago');
    expect(formatRelativeTime(before(7 * 86_400_000 - 1), now, words)).toBe('6 days ago');
    const then = new Date(now.getTime() - 8 * 86_400_000);
    expect(formatRelativeTime(then, now, words)).toBe(then.toLocaleDateString());
  });

  it("says 'just now' for a time slightly ahead of this clock, and nothing for a bad one", () => {
    expect(formatRelativeTime(new Date(now.getTime() + 5_000), now)).toBe('just now');
    expect(formatRelativeTime('not a date', now)).toBe('');
  });
});

describe('downloadName', () => {
  it("is the title with the stored file's extension", () => {
    expect(downloadName('Morning Take', '/media/posts/abc/track-1.MP3')).toBe('Morning Take.mp3');
    expect(downloadName('Moonlight Sonata.musicxml', 'https://cdn.example/s/1.musicxml?x=1')).toBe('Moonlight Sonata.musicxml');
  });

  it('takes out what file systems refuse, and falls back to the stored name', () => {
    expect(downloadName('AC/DC: "Live"?', '/media/a.wav')).toBe('AC DC Live.wav');
    expect(downloadName('  ', '/media/posts/x/take%201.ogg')).toBe('take 1.ogg');
    expect(downloadName('..hidden', '/media/a.mp3')).toBe('hidden.mp3');
  });
});
