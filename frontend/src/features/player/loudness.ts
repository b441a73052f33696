/**
 * Evening tracks out (issue 32): each track's loudness is measured on upload (EBU R128, served as
 * `loudness` beside its duration), and the player plays it at a gain that brings it to one target
 * loudness, never raising its true peak above a ceiling. The file is never changed. On by
 * default; the now-playing bar has the switch, remembered on this device.
 */

/** A track's loudness as the server measured it. */
export interface Loudness {
  /** Integrated loudness, LUFS. */
  integratedLufs: number;
  /** The highest true peak of any channel, dBTP. */
  truePeakDbtp: number;
}

/** Where every track is brought: the loudness streaming services play at. */
export const TARGET_LUFS = -14;
/** The highest a track's true peak may be raised to, so that a raised track does not clip. */
export const PEAK_CEILING_DBTP = -1;
/** The most a track is lowered or raised, whatever it measured (a near-silent intro track). */
const MOST_DB = 24;

/**
 * The gain, in dB, that brings a track to the target: 0 when its loudness is unknown. A quiet
 * track is raised only as far as its peak allows; a loud one is lowered all the way.
 */
export function evenGainDb(loudness: Loudness | null | undefined): number {
  if (!loudness || !Number.isFinite(loudness.integratedLufs) || !Number.isFinite(loudness.truePeakDbtp)) return 0;
  const toTarget = TARGET_LUFS - loudness.integratedLufs;
  const headroom = PEAK_CEILING_DBTP - loudness.truePeakDbtp;
  const gain = toTarget > 0 ? Math.min(toTarget, Math.max(0, headroom)) : toTarget;
  return Math.max(-MOST_DB, Math.min(MOST_DB, gain));
}

/** The wire's `loudness` ({integrated_lufs, true_peak_dbtp} or null) as the player reads it. */
export function toLoudness(json: unknown): Loudness | null {
  if (!json || typeof json !== 'object') return null;
  const { integrated_lufs: integrated, true_peak_dbtp: peak } = json as Record<string, unknown>;
  if (typeof integrated !== 'number' || typeof peak !== 'number') return null;
  if (!Number.isFinite(integrated) || !Number.isFinite(peak)) return null;
  return { integratedLufs: integrated, truePeakDbtp: peak };
}

/** Where the switch is remembered on this device. */
export const EVEN_LOUDNESS_KEY = 'selfsound.evenLoudness';

/** Whether tracks are evened out on this device: yes unless switched off (or storage refused). */
export function storedEvenLoudness(): boolean {
  try {
    return localStorage.getItem(EVEN_LOUDNESS_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function rememberEvenLoudness(on: boolean): void {
  try {
    localStorage.setItem(EVEN_LOUDNESS_KEY, on ? 'on' : 'off');
  } catch {
    // Storage refused (a private window): the switch holds for this page only.
  }
}
