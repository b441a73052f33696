// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { performanceOrder } from './measure-order';

type Written = Parameters<typeof performanceOrder>[0][number];

describe('the order measures are played in', () => {
  it('follows repeats and voltas, and D.C. al Fine', () => {
    const plain: Written = { forwardRepeat: false, backwardRepeat: null, ending: null, segno: false, coda: false, daCapo: false, dalSegno: false, toCoda: false, fine: false };
    const m = (change: Partial<Written> = {}): Written => ({ ...plain, ...change });
    // |: 0 1 :| 2
    expect(performanceOrder([m(), m({ backwardRepeat: 0 }), m()])).toEqual([0, 1, 0, 1, 2]);
    // 0 |: 1 [1. 2 :|] [2. 3] 4
    expect(performanceOrder([m(), m({ forwardRepeat: true }), m({ ending: [1], backwardRepeat: 0 }), m({ ending: [2] }), m()])).toEqual([
      0, 1, 2, 1, 3, 4,
    ]);
    // Three times round: |: 0 [1.2. 1 :|] [3. 2]
    expect(performanceOrder([m(), m({ ending: [1, 2], backwardRepeat: 0 }), m({ ending: [3] })])).toEqual([0, 1, 0, 1, 0, 2]);
    // A repeat played four times.
    expect(performanceOrder([m({ backwardRepeat: 4 })])).toEqual([0, 0, 0, 0]);
    // 0 1(Fine) 2 (D.C. al Fine): 0 1 2 0 1
    expect(performanceOrder([m(), m({ fine: true }), m({ daCapo: true })])).toEqual([0, 1, 2, 0, 1]);
    // 0 1(segno) 2(to coda) 3 (D.S. al Coda) 4(coda): 0 1 2 3 1 2 4
    expect(performanceOrder([m(), m({ segno: true }), m({ toCoda: true }), m({ dalSegno: true }), m({ coda: true })])).toEqual([
      0, 1, 2, 3, 1, 2, 4,
    ]);
  });

  it('keeps going on jumps that would loop', () => {
    const plain: Written = { forwardRepeat: false, backwardRepeat: null, ending: null, segno: false, coda: false, daCapo: true, dalSegno: false, toCoda: false, fine: false };
    expect(performanceOrder([plain, plain]).length).toBeLessThan(10);
    // A repeat asked a billion times plays at most 20,000 measures.
    expect(performanceOrder([{ ...plain, daCapo: false, backwardRepeat: 1e9 }])).toHaveLength(20_000);
  });
});
