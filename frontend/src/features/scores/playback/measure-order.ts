/**
 * The order measures are played in: repeats (with a number of times), voltas, da capo, dal
 * segno, to coda and fine, as marked on the written measures.
 */

/** What a written measure marks about the way through the piece. */
export interface MeasureMarks {
  forwardRepeat: boolean;
  /** The times a backward repeat at its end is played (its `times`), 0 when it does not say; null when none. */
  backwardRepeat: number | null;
  /** The ending (volta) it belongs to: the passes it is played on. */
  ending: number[] | null;
  segno: boolean;
  coda: boolean;
  daCapo: boolean;
  dalSegno: boolean;
  toCoda: boolean;
  fine: boolean;
}

/** The most measures a performance plays: a guard against jumps that would never end. */
const MOST_MEASURES = 20_000;

/** The written measures (their indexes) in the order they are played. */
export function performanceOrder(measures: ReadonlyArray<MeasureMarks>): number[] {
  const order: number[] = [];
  let i = 0;
  let sectionStart = 0;
  let pass = 1;
  // After a D.C. or D.S. repeats are not taken again, Fine ends the piece, and To Coda jumps.
  let jumped = false;
  const jumpsTaken = new Set<number>();
  while (i < measures.length && order.length < MOST_MEASURES) {
    const m = measures[i];
    if (!m) break;
    if (m.forwardRepeat && i !== sectionStart && !jumped) {
      sectionStart = i;
      pass = 1;
    }
    if (m.ending && m.ending.length > 0 && !jumped && !m.ending.includes(pass)) {
      i++;
      continue;
    }
    if (m.ending && m.ending.length > 0 && jumped && !m.ending.includes(endingGroupMost(measures, i))) {
      i++;
      continue;
    }
    order.push(i);
    if (jumped && m.fine) break;
    if (jumped && m.toCoda) {
      const coda = measures.findIndex((x, at) => at > i && x.coda);
      if (coda >= 0) {
        i = coda;
        continue;
      }
    }
    if (m.backwardRepeat !== null && !jumped) {
      const times = m.backwardRepeat > 0 ? m.backwardRepeat : Math.max(2, lastEnding(measures, i));
      if (pass < times) {
        pass++;
        i = sectionStart;
        continue;
      }
      pass = 1;
      sectionStart = i + 1;
    }
    if ((m.daCapo || m.dalSegno) && !jumpsTaken.has(i)) {
      jumpsTaken.add(i);
      jumped = true;
      const segno = m.dalSegno ? measures.findIndex((x) => x.segno) : 0;
      i = Math.max(0, segno);
      continue;
    }
    i++;
  }
  return order;
}

/** The highest ending number of the volta group measure `at` is in (played after a D.C.). */
function endingGroupMost(measures: ReadonlyArray<Pick<MeasureMarks, 'ending'>>, at: number): number {
  let first = at;
  while (first > 0 && (measures[first - 1]?.ending?.length ?? 0) > 0) first--;
  let most = 0;
  for (let i = first; i < measures.length && (measures[i]?.ending?.length ?? 0) > 0; i++) {
    most = Math.max(most, ...(measures[i]?.ending ?? []));
  }
  return most;
}

/** The highest ending number of the voltas around measure `at` (the passes its repeat makes). */
function lastEnding(measures: ReadonlyArray<Pick<MeasureMarks, 'ending'>>, at: number): number {
  let most = 0;
  for (let i = at; i < measures.length; i++) {
    const ending = measures[i]?.ending;
    if (!ending || ending.length === 0) {
      if (i > at) break;
      continue;
    }
    most = Math.max(most, ...ending);
  }
  return most;
}
