/**
 * A MusicXML score as a performance (issue 20): every note of every part, at the time it sounds
 * with repeats, voltas, da capo, dal segno, coda and fine followed, at its sounding pitch
 * (transposing instruments), with its loudness (dynamics) and the tempo changes, in quarter
 * notes from the start. The player turns quarters into seconds through the tempo map, so the
 * tempo slider changes nothing here.
 *
 * `readTimeline` puts together what the modules beside it read: musicxml.ts (what each part
 * writes in each measure), instruments.ts (what plays each part), measure-order.ts (the order
 * measures are played in) and tempo-map.ts (the tempo changes). It reads the DOM of a
 * `score-partwise` document (score-file.ts turns a `score-timewise` one and an `.mxl` archive
 * into that first).
 */

import { partInfos, readPartList, type ListedPart, type PartInfo } from './instruments';
import { performanceOrder } from './measure-order';
import { children, partState, readPart, type PartState, type WrittenMeasure, type WrittenNote } from './musicxml';
import { tempoMap, type Tempo } from './tempo-map';

export interface TimedNote {
  part: number;
  /** The sounding MIDI key (transposition applied); for percussion, the General MIDI drum. */
  midi: number;
  /** From the start of the performance, in quarter notes. */
  start: number;
  duration: number;
  /** 0 to 1. */
  velocity: number;
  /** The performed measure it starts in (an index of `Timeline.measures`). */
  measure: number;
}

export interface PerformedMeasure {
  /** The written measure played (0-based: the nth `<measure>`), as the engraving numbers them. */
  written: number;
  /** From the start of the performance, in quarter notes. */
  start: number;
  length: number;
  /** Its time signature's beats, and a beat's length in quarter notes (the metronome's). */
  beats: number;
  beatLength: number;
}

export interface Timeline {
  parts: PartInfo[];
  /** Sorted by start. */
  notes: TimedNote[];
  /** In the order they are played. */
  measures: PerformedMeasure[];
  /** Sorted, the first at 0. */
  tempos: Tempo[];
  /** The whole performance, in quarter notes. */
  length: number;
  /** How many measures are written. */
  written: number;
}

/** A note's loudness before any dynamics mark: mf. */
const DEFAULT_VELOCITY = 80 / 127;

/**
 * Reads a `score-partwise` document as a performance, or a score given in pieces (each a
 * document of some of its measures, in order: score-source.ts).
 */
export function readTimeline(score: Document | Iterable<Document>): Timeline {
  let listed: ListedPart[] = [];
  let ids: string[] = [];
  let states: PartState[] = [];
  const written: WrittenMeasure[][] = [];
  const unpitched: boolean[] = [];
  for (const doc of 'documentElement' in score ? [score] : score) {
    const root = doc.documentElement;
    const partEls = children(root, 'part');
    if (states.length === 0) {
      listed = readPartList(root);
      ids = partEls.map((part) => part.getAttribute('id') ?? '');
      states = ids.map((id) => partState(listed.find((p) => p.id === id)?.drums ?? new Map<string, number>()));
    }
    partEls.forEach((part, index) => {
      const state = states[index];
      if (!state) return;
      (written[index] ??= []).push(...readPart(part, state));
      unpitched[index] ||= part.getElementsByTagName('unpitched').length > 0;
    });
  }
  const count = Math.max(0, ...written.map((w) => w.length));
  const parts = partInfos(listed, ids, (index) => (unpitched[index] ?? false) && (written[index] ?? []).some((m) => m.notes.length > 0));

  // One measure as all parts write it: its length (what the longest part reaches, else its
  // time signature), and its repeats and jumps as any part marks them.
  const merged = Array.from({ length: count }, (_, i) => {
    const all = written.map((w) => w[i]).filter((m): m is WrittenMeasure => m !== undefined);
    const first = all[0];
    const reach = Math.max(0, ...all.map((m) => m.reach));
    const beats = first?.beats ?? 4;
    const beatType = first?.beatType ?? 4;
    return {
      length: reach > 0 ? reach : (beats * 4) / beatType,
      beats,
      beatLength: 4 / beatType,
      forwardRepeat: all.some((m) => m.forwardRepeat),
      backwardRepeat: all.find((m) => m.backwardRepeat !== null)?.backwardRepeat ?? null,
      ending: all.find((m) => m.ending)?.ending ?? null,
      segno: all.some((m) => m.segno),
      coda: all.some((m) => m.coda),
      daCapo: all.some((m) => m.daCapo),
      dalSegno: all.some((m) => m.dalSegno),
      toCoda: all.some((m) => m.toCoda),
      fine: all.some((m) => m.fine),
    };
  });

  const order = performanceOrder(merged);
  const measures: PerformedMeasure[] = [];
  const tempos: Tempo[] = [];
  const notes: TimedNote[] = [];
  // Per part: the notes tied on and not yet ended (by key, voice and staff), and the loudness.
  const open = parts.map(() => new Map<string, TimedNote>());
  const level = parts.map(() => DEFAULT_VELOCITY);
  let at = 0;
  order.forEach((w, index) => {
    const info = merged[w];
    if (!info) return;
    measures.push({ written: w, start: at, length: info.length, beats: info.beats, beatLength: info.beatLength });
    for (const [p, partMeasures] of written.entries()) {
      const m = partMeasures[w];
      if (!m) continue;
      for (const t of m.tempos) tempos.push({ at: at + t.offset, bpm: t.value });
      // Marks and notes of the measure in time order, a mark before a note at the same moment.
      type Event = { offset: number; mark?: number; note?: WrittenNote };
      const events: Event[] = [
        ...m.dynamics.map((d): Event => ({ offset: d.offset, mark: d.value })),
        ...m.notes.map((n): Event => ({ offset: n.offset, note: n })),
      ].sort((a, b) => a.offset - b.offset || (a.mark !== undefined ? -1 : 1));
      const ties = open[p];
      for (const event of events) {
        if (event.mark !== undefined) {
          level[p] = event.mark;
          continue;
        }
        const n = event.note;
        if (!n || !ties) continue;
        const key = `${n.midi}/${n.voice}/${n.staff}`;
        const start = at + n.offset;
        const tiedTo = n.tieStop ? ties.get(key) : undefined;
        if (tiedTo) {
          tiedTo.duration = start + n.duration - tiedTo.start;
          if (!n.tieStart) ties.delete(key);
          continue;
        }
        const note: TimedNote = {
          part: p,
          midi: n.midi,
          start,
          duration: n.duration,
          velocity: n.velocity ?? level[p] ?? DEFAULT_VELOCITY,
          measure: index,
        };
        notes.push(note);
        if (n.tieStart) ties.set(key, note);
        else ties.delete(key);
      }
    }
    at += info.length;
  });
  notes.sort((a, b) => a.start - b.start || a.part - b.part || a.midi - b.midi);
  return { parts, notes, measures, tempos: tempoMap(tempos), length: at, written: count };
}

/** The performed measure sounding at quarter `q` (the last when past the end). */
export function measureAt(timeline: Timeline, q: number): number {
  const list = timeline.measures;
  let lo = 0;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((list[mid]?.start ?? 0) <= q) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}
