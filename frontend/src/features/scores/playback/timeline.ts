/**
 * A MusicXML score as a performance (issue 20): every note of every part, at the time it sounds
 * with repeats, voltas, da capo, dal segno, coda and fine followed, at its sounding pitch
 * (transposing instruments), with its loudness (dynamics) and the tempo changes, in quarter
 * notes from the start. The player turns quarters into seconds through the tempo map, so the
 * tempo slider changes nothing here.
 *
 * Read from the DOM of a `score-partwise` document (score-file.ts turns a `score-timewise` one
 * and an `.mxl` archive into that first). What does not sound is left out: rests, cue notes, and
 * grace notes (ornaments too quick to matter to a learner following the parts).
 */

export interface PartInfo {
  id: string;
  name: string;
  /** General MIDI program (1-128): the score's own, else guessed from the instrument's name. */
  program: number;
  /** Unpitched percussion (MIDI channel 10, or unpitched notes): a drum kit plays it. */
  percussion: boolean;
  /** 0 to 1 (the score's `<volume>`, else 0.8). */
  volume: number;
}

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

export interface Tempo {
  /** From the start of the performance, in quarter notes. */
  at: number;
  /** Quarter notes per minute. */
  bpm: number;
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

/** MusicXML's tempo when a score names none. */
export const DEFAULT_BPM = 120;

/** The most measures a performance plays: a guard against jumps that would never end. */
const MOST_MEASURES = 20_000;

// -------------------------------------------------------------------------------------------
// What one part writes in one measure

interface WrittenNote {
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

interface Mark {
  offset: number;
  value: number;
}

interface WrittenMeasure {
  /** How far its music reaches, in quarters (a pickup measure is short). */
  reach: number;
  notes: WrittenNote[];
  tempos: Mark[];
  dynamics: Mark[];
  beats: number;
  beatType: number;
  forwardRepeat: boolean;
  /** The times a backward repeat at its end is played (its `times`), or 0 when none. */
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
const DEFAULT_VELOCITY = 80 / 127;

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

function children(el: Element, name?: string): Element[] {
  const out: Element[] = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (!name || c.localName === name) out.push(c);
  return out;
}

function child(el: Element | null | undefined, name: string): Element | null {
  if (!el) return null;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === name) return c;
  return null;
}

function text(el: Element | null | undefined, name: string): string | null {
  return child(el, name)?.textContent?.trim() ?? null;
}

function number(value: string | null | undefined): number | null {
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

interface PartState {
  divisions: number;
  transpose: number;
  beats: number;
  beatType: number;
  ending: number[] | null;
  /** `<instrument id>` → its MIDI drum key. */
  drums: Map<string, number>;
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

// -------------------------------------------------------------------------------------------
// Instruments

/** General MIDI programs for the instruments a part's name may say it is. */
const NAMED_PROGRAMS: Array<[RegExp, number]> = [
  [/harpsichord|cembalo/, 7],
  [/celesta/, 9],
  [/glockenspiel/, 10],
  [/vibraphone/, 12],
  [/marimba/, 13],
  [/xylophone/, 14],
  [/bells|chimes/, 15],
  [/organ/, 20],
  [/accordion/, 22],
  [/harmonica/, 23],
  [/electric guitar/, 28],
  [/bass guitar|electric bass/, 34],
  [/guitar|\blute\b|ukulele|banjo|mandolin/, 25],
  [/contrabass|double bass|string bass/, 44],
  [/violin|fiddle/, 41],
  [/viola/, 42],
  [/cello/, 43],
  [/harp/, 47],
  [/timpani/, 48],
  [/strings?\b|ensemble/, 49],
  [/choir|chorus|voice|vocal|soprano|mezzo|alto|contralto|tenor|baritone|singer|lead vocal/, 53],
  [/trumpet|cornet|flugelhorn/, 57],
  [/trombone/, 58],
  [/tuba|euphonium/, 59],
  [/horn/, 61],
  [/brass/, 62],
  [/soprano sax/, 65],
  [/alto sax/, 66],
  [/tenor sax/, 67],
  [/baritone sax|sax/, 68],
  [/oboe|english horn|cor anglais/, 69],
  [/bassoon/, 71],
  [/clarinet/, 72],
  [/piccolo/, 73],
  [/flute/, 74],
  [/recorder/, 75],
  [/pan ?flute|pan pipes/, 76],
  [/whistle/, 79],
  [/ocarina/, 80],
  [/synth|lead/, 81],
  [/pad/, 89],
  [/piano|keyboard|klavier|pianoforte/, 1],
];

function programFromName(name: string, voices: boolean): number {
  const n = name.toLowerCase();
  // "Bass" alone: the lowest voice of a choir, or a bass instrument.
  if (/^\s*(b\.?|bass)\s*\d*\s*$/.test(n)) return voices ? 53 : 33;
  for (const [pattern, program] of NAMED_PROGRAMS) if (pattern.test(n)) return program;
  return 1;
}

interface PartListEntry {
  id: string;
  name: string;
  program: number | null;
  channel: number | null;
  volume: number | null;
  drums: Map<string, number>;
}

function readPartList(root: Element): PartListEntry[] {
  const list = child(root, 'part-list');
  if (!list) return [];
  return children(list, 'score-part').map((sp) => {
    const instrument = children(sp, 'score-instrument')[0];
    const name = [text(sp, 'part-name'), text(instrument, 'instrument-name')].filter(Boolean).join(' ');
    const midis = children(sp, 'midi-instrument');
    const first = midis[0] ?? null;
    const drums = new Map<string, number>();
    for (const mi of midis) {
      const key = number(text(mi, 'midi-unpitched'));
      const id = mi.getAttribute('id');
      if (key !== null && id) drums.set(id, key - 1);
    }
    const volume = number(text(first, 'volume'));
    return {
      id: sp.getAttribute('id') ?? '',
      name,
      program: number(text(first, 'midi-program')),
      channel: number(text(first, 'midi-channel')),
      volume: volume === null ? null : Math.min(1, Math.max(0, volume / 100)),
      drums,
    };
  });
}

// -------------------------------------------------------------------------------------------
// The performance

/** The written measures in the order they are played: repeats, voltas, D.C., D.S., coda, fine. */
export function performanceOrder(measures: ReadonlyArray<Pick<WrittenMeasure, 'forwardRepeat' | 'backwardRepeat' | 'ending' | 'segno' | 'coda' | 'daCapo' | 'dalSegno' | 'toCoda' | 'fine'>>): number[] {
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
function endingGroupMost(measures: ReadonlyArray<Pick<WrittenMeasure, 'ending'>>, at: number): number {
  let first = at;
  while (first > 0 && (measures[first - 1]?.ending?.length ?? 0) > 0) first--;
  let most = 0;
  for (let i = first; i < measures.length && (measures[i]?.ending?.length ?? 0) > 0; i++) {
    most = Math.max(most, ...(measures[i]?.ending ?? []));
  }
  return most;
}

/** The highest ending number of the voltas around measure `at` (the passes its repeat makes). */
function lastEnding(measures: ReadonlyArray<Pick<WrittenMeasure, 'ending'>>, at: number): number {
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

/** Reads a `score-partwise` document as a performance. */
export function readTimeline(doc: Document): Timeline {
  const root = doc.documentElement;
  const listed = readPartList(root);
  const partEls = children(root, 'part');
  const written: WrittenMeasure[][] = partEls.map((part) => {
    const entry = listed.find((p) => p.id === part.getAttribute('id'));
    const state: PartState = {
      divisions: 1,
      transpose: 0,
      beats: 4,
      beatType: 4,
      ending: null,
      drums: entry?.drums ?? new Map<string, number>(),
    };
    return children(part, 'measure').map((m) => readMeasure(m, state));
  });
  const count = Math.max(0, ...written.map((w) => w.length));
  const voices = listed.some((p) => programFromName(p.name, false) === 53);
  const parts: PartInfo[] = partEls.map((part, index) => {
    const entry = listed.find((p) => p.id === part.getAttribute('id'));
    const name = entry?.name || `Part ${index + 1}`;
    const hasUnpitched = (written[index] ?? []).some((m) => m.notes.length > 0) && part.getElementsByTagName('unpitched').length > 0;
    const percussion = entry?.channel === 10 || hasUnpitched;
    const program = entry?.program && entry.program >= 1 && entry.program <= 128 ? entry.program : programFromName(name, voices);
    return { id: entry?.id ?? `P${index + 1}`, name, program, percussion, volume: entry?.volume ?? 0.8 };
  });

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
  tempos.sort((a, b) => a.at - b.at);
  const tempoMap: Tempo[] = [];
  for (const t of tempos) {
    const last = tempoMap.at(-1);
    if (last && Math.abs(last.at - t.at) < 1e-9) last.bpm = t.bpm;
    else if (!last || last.bpm !== t.bpm) tempoMap.push({ ...t });
  }
  if (tempoMap.length === 0 || (tempoMap[0]?.at ?? 0) > 0) tempoMap.unshift({ at: 0, bpm: tempoMap[0]?.bpm ?? DEFAULT_BPM });
  return { parts, notes, measures, tempos: tempoMap, length: at, written: count };
}

// -------------------------------------------------------------------------------------------
// Time

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
