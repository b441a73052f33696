// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CREEP_CAP, creepDelay, nextCreep, shownPercent } from './progress';

describe('the creep (spec §4, §9)', () => {
  it('steps every 200–300 ms', () => {
    expect(creepDelay(0)).toBe(200);
    expect(creepDelay(0.5)).toBe(250);
    expect(creepDelay(0.999)).toBe(300);
  });

  it('moves forward on every step, slower near the top, and never past 85 %', () => {
    for (const random of [0, 0.5, 0.999]) {
      let creep = 0;
      let previousStep = Infinity;
      for (let step = 0; step < 400; step += 1) {
        const next = nextCreep(creep, random);
        expect(next).toBeGreaterThanOrEqual(creep);
        expect(next).toBeLessThanOrEqual(CREEP_CAP);
        if (creep < 60) {
          // Far from the cap, each step is no bigger than the one before.
          expect(next - creep).toBeLessThanOrEqual(previousStep + 1e-9);
          previousStep = next - creep;
        }
        creep = next;
      }
      expect(creep).toBe(CREEP_CAP);
    }
  });

  it('reaches most of the way within a few seconds', () => {
    let creep = 0;
    // 20 steps of 250 ms: 5 s.
    for (let step = 0; step < 20; step += 1) creep = nextCreep(creep, 0.5);
    expect(creep).toBeGreaterThan(60);
    expect(creep).toBeLessThan(CREEP_CAP);
  });
});

describe('the shown percentage', () => {
  it('follows the real fraction up to 95 % and leaves 100 % to the answer', () => {
    expect(shownPercent(0.5, 0)).toBe(47);
    expect(shownPercent(1, 0)).toBe(95);
    expect(shownPercent(1, 85)).toBe(95);
  });

  it('shows the creep while the real fraction is behind or unknown, capped at 85 %', () => {
    expect(shownPercent(null, 30)).toBe(30);
    expect(shownPercent(0.1, 30)).toBe(30);
    expect(shownPercent(null, 99)).toBe(85);
  });
});
