/**
 * Reading MusicXML: what one part writes in each of its measures (notes with their offsets,
 * voices, ties and loudness; tempo and dynamics marks; repeats, voltas and jumps), from the DOM
 * of a `score-partwise` document. Pitches come out sounding (`<transpose>` applied), unpitched
 * notes as General MIDI drums, durations in quarter notes. What does not sound is left out:
 * rests, cue notes and grace notes (ornaments too quick to matter to a learner following the
 * parts). Nothing here knows the order measures are played in (measure-order.ts) or time in
 * seconds (tempo-map.ts).
 */

import type { MeasureMarks } from './measure-order';

export interface WrittenNote {
  /** From the measure's start, in quarters. */
  offset: number;
  duration: number;
  midi: number;
  voice: string;
  staff: string;
  tieStart: boolean;
  tieStop: boolean;
  /** A velocity the note itself names (its `dynamics` attribute), 0 to 1. */
  velocity: number | null;
}

/** A tempo (quarters a minute) or a loudness (0 to 1) that holds from `offset` on. */
export interface Mark {
  offset: number;
  value: number;
}

export interface WrittenMeasure extends MeasureMarks {
  /** How far its music reaches, in quarters (a pickup measure is short). */
  reach: number;
  notes: WrittenNote[];
  tempos: Mark[];
  dynamics: Mark[];
  beats: number;
  beatType: number;
}

const STEPS: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** Loudness of the dynamics marks, as MIDI velocities over 127. */
const DYNAMICS: Record<string, number> = {
  pppppp: 8,
  ppppp: 12,
  pppp: 16,
  ppp: 24,
  pp: 36,
  p: 50,
  mp: 64,
  mf: 80,
  f: 96,
  ff: 110,
  fff: 120,
  ffff: 124,
  fffff: 126,
  ffffff: 127,
  sf: 100,
  sfz: 100,
  sffz: 115,
  sfp: 100,
  sfpp: 100,
  fz: 100,
  rf: 96,
  rfz: 100,
  fp: 96,
  pf: 64,
  n: 1,
};

const BEAT_UNITS: Record<string, number> = {
  maxima: 32,
  long: 16,
  breve: 8,
  whole: 4,
  half: 2,
  quarter: 1,
  eighth: 0.5,
  '16th': 0.25,
  '32nd': 0.125,
  '64th': 0.0625,
};

export function children(el: Element, name?: string): Element[] {
  const out: Element[] = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (!name || c.localName === name) out.push(c);
  return out;
}

export function child(el: Element | null | undefined, name: string): Element | null {
  if (!el) return null;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === name) return c;
  return null;
}

export function text(el: Element | null | undefined, name: string): string | null {
  return child(el, name)?.textContent?.trim() ?? null;
}

export function number(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function yes(el: Element, attribute: string): boolean {
  return el.getAttribute(attribute) === 'yes';
}

/** The measure's `<sound>` facts: tempo, dynamics and jumps. */
function readSound(sound: Element, offset: number, m: WrittenMeasure) {
  const tempo = number(sound.getAttribute('tempo'));
  if (tempo !== null && tempo > 0) m.tempos.push({ offset, value: tempo });
  const dynamics = number(sound.getAttribute('dynamics'));
  if (dynamics !== null && dynamics >= 0) m.dynamics.push({ offset, value: Math.min(1, (dynamics * 0.9) / 127) });
  if (sound.hasAttribute('segno')) m.segno = true;
  if (sound.hasAttribute('coda')) m.coda = true;
  if (yes(sound, 'dacapo')) m.daCapo = true;
  if (sound.hasAttribute('dalsegno')) m.dalSegno = true;
  if (sound.hasAttribute('tocoda')) m.toCoda = true;
  if (sound.hasAttribute('fine')) m.fine = true;
}

/** A direction's marks: dynamics, a metronome mark, segno and coda signs, "Fine" and "D.C." words. */
function readDirection(direction: Element, offset: number, m: WrittenMeasure) {
  const sound = child(direction, 'sound');
  for (const type of children(direction, 'direction-type')) {
    const dynamics = child(type, 'dynamics');
    if (dynamics) {
      for (const mark of children(dynamics)) {
        const velocity = DYNAMICS[mark.localName];
        if (velocity !== undefined) m.dynamics.push({ offset, value: velocity / 127 });
      }
    }
    const metronome = child(type, 'metronome');
    if (metronome && !sound?.hasAttribute('tempo')) {
      const unit = BEAT_UNITS[text(metronome, 'beat-unit') ?? ''];
      const perMinute = number(text(metronome, 'per-minute'));
      const dots = children(metronome, 'beat-unit-dot').length;
      if (unit !== undefined && perMinute !== null && perMinute > 0) {
        m.tempos.push({ offset, value: perMinute * unit * (2 - 1 / 2 ** dots) });
      }
    }
    if (child(type, 'segno')) m.segno = true;
    if (child(type, 'coda')) m.coda = true;
  }
  if (sound) readSound(sound, offset, m);
}

/** What a part's measures carry on to the next ones while it is read. */
export interface PartState {
  divisions: number;
  transpose: number;
  beats: number;
  beatType: number;
  ending: number[] | null;
  /** `<instrument id>` → its MIDI drum key. */
  drums: ReadonlyMap<string, number>;
}

function endingNumbers(value: string | null): number[] {
  return (value ?? '')
    .split(/[,\s]+/)
    .map((n) => Number.parseInt(n, 10))
    .filter((n) => Number.isFinite(n) && n > 0);
}

function readMeasure(measure: Element, state: PartState): WrittenMeasure {
  const m: WrittenMeasure = {
    reach: 0,
    notes: [],
    tempos: [],
    dynamics: [],
    beats: state.beats,
    beatType: state.beatType,
    forwardRepeat: false,
    backwardRepeat: null,
    ending: state.ending,
    segno: false,
    coda: false,
    daCapo: false,
    dalSegno: false,
    toCoda: false,
    fine: false,
  };
  let position = 0;
  let lastStart = 0;
  let endingClosed = false;
  const q = (el: Element | null) => (number(text(el, 'duration')) ?? 0) / state.divisions;
  for (const el of children(measure)) {
    switch (el.localName) {
      case 'attributes': {
        const divisions = number(text(el, 'divisions'));
        if (divisions !== null && divisions > 0) state.divisions = divisions;
        const transpose = child(el, 'transpose');
        if (transpose) {
          state.transpose = (number(text(transpose, 'chromatic')) ?? 0) + 12 * (number(text(transpose, 'octave-change')) ?? 0);
        }
        const time = child(el, 'time');
        if (time) {
          const beats = (text(time, 'beats') ?? '').split('+').reduce((sum, b) => sum + (Number.parseInt(b, 10) || 0), 0);
          const beatType = number(text(time, 'beat-type'));
          if (beats > 0 && beatType !== null && beatType > 0) {
            state.beats = beats;
            state.beatType = beatType;
            m.beats = beats;
            m.beatType = beatType;
          }
        }
        break;
      }
      case 'note': {
        const duration = q(el);
        const isChord = child(el, 'chord') !== null;
        const start = isChord ? lastStart : position;
        if (!isChord) lastStart = position;
        if (child(el, 'grace')) break;
        if (!isChord) position += duration;
        m.reach = Math.max(m.reach, position);
        if (child(el, 'rest') || child(el, 'cue')) break;
        let midi: number | null = null;
        const pitch = child(el, 'pitch');
        const unpitched = child(el, 'unpitched');
        if (pitch) {
          const step = STEPS[(text(pitch, 'step') ?? '').toUpperCase()];
          const octave = number(text(pitch, 'octave'));
          if (step !== undefined && octave !== null) {
            midi = (octave + 1) * 12 + step + Math.round(number(text(pitch, 'alter')) ?? 0) + state.transpose;
          }
        } else if (unpitched) {
          const instrument = child(el, 'instrument')?.getAttribute('id') ?? '';
          midi = state.drums.get(instrument) ?? drumFromPosition(text(unpitched, 'display-step'), number(text(unpitched, 'display-octave')));
        }
        if (midi === null || midi < 0 || midi > 127 || duration <= 0) break;
        const ties = children(el, 'tie').map((t) => t.getAttribute('type'));
        const dynamics = number(el.getAttribute('dynamics'));
        m.notes.push({
          offset: start,
          duration,
          midi,
          voice: text(el, 'voice') ?? '1',
          staff: text(el, 'staff') ?? '1',
          tieStart: ties.includes('start'),
          tieStop: ties.includes('stop'),
          velocity: dynamics !== null ? Math.min(1, (dynamics * 0.9) / 127) : null,
        });
        break;
      }
      case 'backup':
        position = Math.max(0, position - q(el));
        break;
      case 'forward':
        position += q(el);
        m.reach = Math.max(m.reach, position);
        break;
      case 'direction': {
        const offset = position + (number(text(el, 'offset')) ?? 0) / state.divisions;
        readDirection(el, Math.max(0, offset), m);
        break;
      }
      case 'sound':
        readSound(el, position, m);
        break;
      case 'barline': {
        const repeat = child(el, 'repeat');
        if (repeat?.getAttribute('direction') === 'forward') m.forwardRepeat = true;
        if (repeat?.getAttribute('direction') === 'backward') {
          m.backwardRepeat = number(repeat.getAttribute('times')) ?? 0;
        }
        const ending = child(el, 'ending');
        const type = ending?.getAttribute('type');
        if (ending && type === 'start') {
          state.ending = endingNumbers(ending.getAttribute('number'));
          m.ending = state.ending;
        } else if (ending && (type === 'stop' || type === 'discontinue')) {
          m.ending ??= endingNumbers(ending.getAttribute('number'));
          endingClosed = true;
        }
        const sound = child(el, 'sound');
        if (sound) readSound(sound, position, m);
        break;
      }
      default:
        break;
    }
  }
  if (endingClosed) state.ending = null;
  return m;
}

/** A drum for an unpitched note with no instrument: by where it sits on the staff. */
function drumFromPosition(step: string | null, octave: number | null): number {
  const line = (STEPS[(step ?? 'C').toUpperCase()] ?? 0) + 12 * (octave ?? 4);
  if (line <= 12 * 4 + 5) return 36; // below the staff's middle: bass drum
  if (line <= 12 * 5 + 0) return 38; // snare
  return 42; // hi-hat and cymbals above
}

/** How a part is read from its start; `drums` maps its instruments to drum keys. */
export function partState(drums: ReadonlyMap<string, number>): PartState {
  return { divisions: 1, transpose: 0, beats: 4, beatType: 4, ending: null, drums };
}

/**
 * Every measure a `<part>` writes, in written order, read on from `state` (a part given in
 * pieces is read piece after piece with one state).
 */
export function readPart(part: Element, state: PartState): WrittenMeasure[] {
  return children(part, 'measure').map((m) => readMeasure(m, state));
}
