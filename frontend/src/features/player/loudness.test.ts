import { describe, expect, it } from 'vitest';
import { evenGainDb, toLoudness } from './loudness';

describe('evenGainDb', () => {
  it('lowers a loud master all the way to −14 LUFS', () => {
    expect(evenGainDb({ integratedLufs: -8, truePeakDbtp: 0.5 })).toBeCloseTo(-6);
  });

  it('raises a quiet recording, but never its true peak above −1 dBTP', () => {
    expect(evenGainDb({ integratedLufs: -20, truePeakDbtp: -12 })).toBeCloseTo(6);
    expect(evenGainDb({ integratedLufs: -24, truePeakDbtp: -4 })).toBeCloseTo(3);
    // Already at its ceiling: left as it is rather than lowered.
    expect(evenGainDb({ integratedLufs: -20, truePeakDbtp: -0.2 })).toBe(0);
  });

  it('leaves a track whose loudness is unknown as it is, and bounds the rest', () => {
    expect(evenGainDb(null)).toBe(0);
    expect(evenGainDb(undefined)).toBe(0);
    expect(evenGainDb({ integratedLufs: Number.NaN, truePeakDbtp: -3 })).toBe(0);
    expect(evenGainDb({ integratedLufs: -69, truePeakDbtp: -60 })).toBe(24);
  });
});

describe('toLoudness', () => {
  it('reads the wire’s numbers and nothing else', () => {
    expect(toLoudness({ integrated_lufs: -9.5, true_peak_dbtp: -0.3 })).toEqual({ integratedLufs: -9.5, truePeakDbtp: -0.3 });
    expect(toLoudness(null)).toBeNull();
    expect(toLoudness({ integrated_lufs: '-9', true_peak_dbtp: 0 })).toBeNull();
    expect(toLoudness('loud')).toBeNull();
  });
});
