/**
 * What plays each part: the score's own General MIDI program, channel and volume
 * (`<midi-instrument>`), else an instrument guessed from the part's name ("Clarinet in B♭",
 * "Cello", "Soprano"), and the drum each unpitched instrument of a part strikes.
 */

import { child, children, number, text } from './musicxml';

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
  [/trumpet|cornet|flugelhorn/, 57],
  [/trombone/, 58],
  [/tuba|euphonium/, 59],
  [/oboe|english horn|cor anglais/, 69],
  [/horn/, 61],
  [/brass/, 62],
  [/soprano sax/, 65],
  [/alto sax/, 66],
  [/tenor sax/, 67],
  [/baritone sax|sax/, 68],
  [/bassoon/, 71],
  [/clarinet/, 72],
  [/piccolo/, 73],
  [/pan ?flute|pan pipes/, 76],
  [/flute/, 74],
  [/recorder/, 75],
  [/whistle/, 79],
  [/ocarina/, 80],
  // Voices after the instruments a voice's name may qualify (alto sax, soprano recorder, tenor
  // trombone), before a synth's lead.
  [/choir|chorus|voice|vocal|soprano|mezzo|alto|contralto|tenor|baritone|singer|lead vocal|\bcant(o|us)\b|\bquint(o|us)\b|\bsext(o|us)\b|\bsesto\b|\baltus\b|\bbass(o|us)\b/, 53],
  [/synth|lead/, 81],
  [/pad/, 89],
  [/piano|keyboard|klavier|pianoforte/, 1],
];

/** The choir's program, which a part named "Bass" joins when other parts are voices. */
const VOICES = 53;

function programFromName(name: string, voices: boolean): number {
  const n = name.toLowerCase();
  // "Bass" alone: the lowest voice of a choir, or a bass instrument.
  if (/^\s*(b\.?|bass)\s*\d*\s*$/.test(n)) return voices ? VOICES : 33;
  for (const [pattern, program] of NAMED_PROGRAMS) if (pattern.test(n)) return program;
  return 1;
}

/** A part as the score's part list describes it. */
export interface ListedPart {
  id: string;
  /** Its part name and its instrument's, as one. */
  name: string;
  /** Its part name alone ("Soprano", "Basso"). */
  partName: string;
  program: number | null;
  channel: number | null;
  volume: number | null;
  /** `<instrument id>` → the MIDI drum key it strikes. */
  drums: Map<string, number>;
}

/** The parts of the score's `<part-list>`, in order. */
export function readPartList(root: Element): ListedPart[] {
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
      partName: text(sp, 'part-name') ?? '',
      program: number(text(first, 'midi-program')),
      channel: number(text(first, 'midi-channel')),
      volume: volume === null ? null : Math.min(1, Math.max(0, volume / 100)),
      drums,
    };
  });
}

/**
 * What plays each `<part>` (in document order): its part list entry, if any (else 'Part 2'),
 * and whether it is percussion (channel 10, or it writes unpitched notes and some notes at all).
 */
export function partInfos(listed: readonly ListedPart[], ids: readonly string[], unpitched: (index: number) => boolean): PartInfo[] {
  const voices = listed.some((p) => programFromName(p.partName, false) === VOICES);
  return ids.map((id, index) => {
    const entry = listed.find((p) => p.id === id);
    const name = entry?.name || `Part ${index + 1}`;
    const percussion = entry?.channel === 10 || unpitched(index);
    const guessed = programFromName(name, voices);
    // Exporters write program 1 (a piano) for every part they know nothing of (Finale's
    // "Instrument 1", music21's "Grand Piano"): a part named for a voice is sung all the same.
    const sung = entry !== undefined && programFromName(entry.partName, voices) === VOICES;
    const explicit = entry?.program && entry.program >= 1 && entry.program <= 128 ? entry.program : null;
    const program = explicit !== null && !(explicit === 1 && sung) ? explicit : sung ? VOICES : guessed;
    return { id: entry?.id ?? `P${index + 1}`, name, program, percussion, volume: entry?.volume ?? 0.8 };
  });
}
