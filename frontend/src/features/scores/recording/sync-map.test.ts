import { describe, expect, it } from 'vitest';
import { anchorsOf, quarterAt, secondsAt } from './sync-map';

// Four bars of 4/4, the third played twice (a repeat): performed bars 0..4.
const score = {
  measures: [0, 4, 8, 12, 16].map((start) => ({ start, length: 4 })),
  length: 20,
};

describe('a sync map', () => {
  const anchors = anchorsOf(score, [
    { bar: 0, at_ms: 1000 },
    { bar: 1, at_ms: 3000 },
    { bar: 3, at_ms: 5000 },
    { bar: 9, at_ms: 9000 }, // past the score: left out
  ]);

  it('moves evenly through the quarters between two points', () => {
    expect(quarterAt(anchors, 1)).toBe(0);
    expect(quarterAt(anchors, 2)).toBe(2);
    expect(quarterAt(anchors, 3)).toBe(4);
    expect(quarterAt(anchors, 4)).toBe(8);
    expect(quarterAt(anchors, 5)).toBe(12);
  });

  it('keeps the nearest pace outside its points, within the score', () => {
    expect(quarterAt(anchors, 0.5)).toBe(0);
    expect(quarterAt(anchors, 5.5)).toBe(14);
    expect(quarterAt(anchors, 60)).toBe(20);
  });

  it('turns a place in the score back into a moment of the recording', () => {
    expect(secondsAt(anchors, 0)).toBe(1);
    expect(secondsAt(anchors, 6)).toBe(3.5);
    expect(secondsAt(anchors, 12)).toBe(5);
    expect(secondsAt(anchors, 16)).toBe(6);
  });

  it('needs two points that fit the score', () => {
    const one = anchorsOf(score, [{ bar: 0, at_ms: 0 }, { bar: 7, at_ms: 100 }]);
    expect(quarterAt(one, 1)).toBeNull();
    expect(secondsAt(one, 1)).toBeNull();
  });
});
