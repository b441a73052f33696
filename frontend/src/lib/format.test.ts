import { describe, expect, it } from 'vitest';
import { formatCountdown, parseCountdown } from './format';

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

describe('parseCountdown', () => {
  it('reads the m:ss of a server message', () => {
    expect(parseCountdown('Please wait 2:41 before requesting another email.')).toBe(161_000);
    expect(parseCountdown('Please wait 0:05')).toBe(5_000);
  });

  it('is null without one', () => {
    expect(parseCountdown('Too many requests')).toBeNull();
  });
});
