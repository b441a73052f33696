/**
 * The tempo map: where the tempo changes, in quarter notes from the start of the performance,
 * and the conversions between quarters and seconds at a share of the score's tempo (the tempo
 * slider's `rate`, so the performance itself never changes with it).
 */

export interface Tempo {
  /** From the start of the performance, in quarter notes. */
  at: number;
  /** Quarter notes per minute. */
  bpm: number;
}

/** MusicXML's tempo when a score names none. */
export const DEFAULT_BPM = 120;

/**
 * The map of the tempo marks met along the performance (in any order): sorted, one per moment
 * (the last named there wins), a mark that changes nothing left out, the first at 0 (the first
 * mark's tempo, or MusicXML's default when there is none).
 */
export function tempoMap(marks: readonly Tempo[]): Tempo[] {
  const sorted = [...marks].sort((a, b) => a.at - b.at);
  const map: Tempo[] = [];
  for (const t of sorted) {
    const last = map.at(-1);
    if (last && Math.abs(last.at - t.at) < 1e-9) last.bpm = t.bpm;
    else if (!last || last.bpm !== t.bpm) map.push({ ...t });
  }
  if (map.length === 0 || (map[0]?.at ?? 0) > 0) map.unshift({ at: 0, bpm: map[0]?.bpm ?? DEFAULT_BPM });
  return map;
}

/** Seconds from the start to quarter `q`, at `rate` times the score's tempo. */
export function secondsAt(tempos: readonly Tempo[], q: number, rate = 1): number {
  let seconds = 0;
  for (let i = 0; i < tempos.length; i++) {
    const t = tempos[i];
    if (!t) break;
    if (t.at >= q) break;
    const end = Math.min(q, tempos[i + 1]?.at ?? Infinity);
    seconds += ((end - t.at) * 60) / (t.bpm * rate);
  }
  return seconds;
}

/** The quarter reached `seconds` from the start, at `rate` times the score's tempo. */
export function quarterAt(tempos: readonly Tempo[], seconds: number, rate = 1): number {
  let elapsed = 0;
  for (let i = 0; i < tempos.length; i++) {
    const t = tempos[i];
    if (!t) break;
    const next = tempos[i + 1]?.at ?? Infinity;
    const span = ((next - t.at) * 60) / (t.bpm * rate);
    if (elapsed + span >= seconds) return t.at + ((seconds - elapsed) * t.bpm * rate) / 60;
    elapsed += span;
  }
  return tempos.at(-1)?.at ?? 0;
}

/** The score's tempo (quarters a minute) at quarter `q`. */
export function tempoAt(tempos: readonly Tempo[], q: number): number {
  let bpm = tempos[0]?.bpm ?? DEFAULT_BPM;
  for (const t of tempos) {
    if (t.at > q) break;
    bpm = t.bpm;
  }
  return bpm;
}
