import { describe, expect, it } from 'vitest';
import { MARK_SIZE, markPlaces, type TrackMark } from './track-marks';

const mark = (id: string, seconds: number): TrackMark => ({ id, seconds, name: id, avatarUrl: null, text: '' });

describe('markPlaces', () => {
  it('puts marks closer than a mark apart in one place, in the order of their moments', () => {
    // 100 s across 440 px: 4.4 px a second, a mark is 22 px (5 s).
    const places = markPlaces([mark('c', 50), mark('a', 10), mark('b', 14.9), mark('d', 15.1), mark('e', 99)], 100, 440);
    expect(places.map((p) => [p.at, p.marks.map((m) => m.id)])).toEqual([
      [0.1, ['a', 'b']],
      [0.151, ['d']],
      [0.5, ['c']],
      [0.99, ['e']],
    ]);
    expect(MARK_SIZE).toBe(22);
  });

  it('keeps a mark past the end at the end, and draws nothing without a length or a width', () => {
    expect(markPlaces([mark('late', 120)], 100, 300).map((p) => p.at)).toEqual([1]);
    expect(markPlaces([mark('a', 1)], 0, 300)).toEqual([]);
    expect(markPlaces([mark('a', 1)], 100, 0)).toEqual([]);
  });
});
