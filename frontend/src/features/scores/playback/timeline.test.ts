import { describe, expect, it } from 'vitest';
import { parseMusicXml } from '../score-file';
import { quarterAt, secondsAt } from './tempo-map';
import { measureAt, readTimeline } from './timeline';

/** A partwise score: `parts` is [id, name, program | null, measures XML][]. */
function score(parts: Array<[string, string, number | null, string]>): Document {
  const list = parts
    .map(
      ([id, name, program]) =>
        `<score-part id="${id}"><part-name>${name}</part-name>${
          program === null ? '' : `<midi-instrument id="${id}-I1"><midi-channel>1</midi-channel><midi-program>${program}</midi-program></midi-instrument>`
        }</score-part>`,
    )
    .join('');
  const body = parts.map(([id, , , measures]) => `<part id="${id}">${measures}</part>`).join('');
  return parseMusicXml(`<?xml version="1.0"?><score-partwise version="4.0"><part-list>${list}</part-list>${body}</score-partwise>`);
}

const note = (step: string, octave: number, duration: number, extra = '') =>
  `<note><pitch><step>${step}</step><octave>${octave}</octave></pitch><duration>${duration}</duration>${extra}</note>`;
const attrs = (divisions = 1, beats = 4, beatType = 4, extra = '') =>
  `<attributes><divisions>${divisions}</divisions><time><beats>${beats}</beats><beat-type>${beatType}</beat-type></time>${extra}</attributes>`;

describe('the performance of a score', () => {
  it('plays each part at its pitch and time, voices and chords included, ties joined', () => {
    const doc = score([
      [
        'P1',
        'Piano',
        null,
        `<measure number="1">${attrs(2)}${note('C', 4, 4)}${note('E', 4, 4, '<chord/>')}${note('G', 4, 4)}` +
          `<backup><duration>8</duration></backup>${note('C', 3, 8, '<voice>2</voice>')}</measure>` +
          `<measure number="2">${note('D', 4, 6, '<tie type="start"/>')}${note('D', 4, 2, '<tie type="stop"/>')}</measure>`,
      ],
      [
        'P2',
        'Clarinet in B♭',
        null,
        // Written D sounds C (a major second down).
        `<measure number="1">${attrs(1, 4, 4, '<transpose><diatonic>-1</diatonic><chromatic>-2</chromatic></transpose>')}${note('D', 5, 4)}</measure>` +
          `<measure number="2"><note><rest/><duration>4</duration></note></measure>`,
      ],
    ]);
    const t = readTimeline(doc);
    expect(t.parts.map((p) => [p.name, p.program])).toEqual([
      ['Piano', 1],
      ['Clarinet in B♭', 72],
    ]);
    const notes = t.notes.map((n) => [n.part, n.midi, n.start, n.duration]);
    expect(notes).toEqual([
      [0, 48, 0, 4],
      [0, 60, 0, 2],
      [0, 64, 0, 2],
      [1, 72, 0, 4],
      [0, 67, 2, 2],
      [0, 62, 4, 4],
    ]);
    expect(t.measures.map((m) => [m.written, m.start, m.length])).toEqual([
      [0, 0, 4],
      [1, 4, 4],
    ]);
    expect(t.length).toBe(8);
  });

  it('reads the repeats, the tempo changes and the dynamics from the score', () => {
    const doc = score([
      [
        'P1',
        'Violin',
        41,
        `<measure number="1">${attrs(1, 3, 4)}<direction><direction-type><dynamics><p/></dynamics></direction-type><sound tempo="90"/></direction>` +
          `${note('A', 4, 3)}</measure>` +
          `<measure number="2">${note('B', 4, 3)}<barline location="right"><repeat direction="backward"/></barline></measure>` +
          `<measure number="3"><direction><direction-type><metronome><beat-unit>half</beat-unit><per-minute>30</per-minute></metronome></direction-type></direction>` +
          `<direction><direction-type><dynamics><ff/></dynamics></direction-type></direction>${note('C', 5, 3)}</measure>`,
      ],
    ]);
    const t = readTimeline(doc);
    expect(t.measures.map((m) => m.written)).toEqual([0, 1, 0, 1, 2]);
    expect(t.notes.map((n) => [n.midi, n.start, n.measure])).toEqual([
      [69, 0, 0],
      [71, 3, 1],
      [69, 6, 2],
      [71, 9, 3],
      [72, 12, 4],
    ]);
    expect(t.tempos).toEqual([
      { at: 0, bpm: 90 },
      { at: 12, bpm: 60 },
    ]);
    expect(t.notes[0]?.velocity).toBeCloseTo(50 / 127);
    expect(t.notes[4]?.velocity).toBeCloseTo(110 / 127);
    expect(t.measures[0]).toMatchObject({ beats: 3, beatLength: 1 });
    // 12 quarters at 90, then 3 at 60.
    expect(secondsAt(t.tempos, 15)).toBeCloseTo(8 + 3);
    expect(quarterAt(t.tempos, 11)).toBeCloseTo(15);
    expect(secondsAt(t.tempos, 12, 0.5)).toBeCloseTo(16);
    expect(measureAt(t, 7)).toBe(2);
  });

  it('plays a pickup measure short, and a timewise score as its parts', () => {
    const pickup = score([
      ['P1', 'Flute', null, `<measure number="0" implicit="yes">${attrs(1)}${note('G', 4, 1)}</measure><measure number="1">${note('C', 5, 4)}</measure>`],
    ]);
    const t = readTimeline(pickup);
    expect(t.measures.map((m) => [m.start, m.length])).toEqual([
      [0, 1],
      [1, 4],
    ]);
    expect(t.parts[0]?.program).toBe(74);

    const timewise = parseMusicXml(
      `<score-timewise version="4.0"><part-list><score-part id="A"><part-name>Soprano</part-name></score-part>` +
        `<score-part id="B"><part-name>Bass</part-name></score-part></part-list>` +
        `<measure number="1"><part id="A">${attrs(1)}${note('E', 5, 4)}</part><part id="B">${attrs(1)}${note('C', 3, 4)}</part></measure>` +
        `<measure number="2"><part id="A">${note('D', 5, 4)}</part><part id="B">${note('G', 2, 4)}</part></measure></score-timewise>`,
    );
    expect(timewise.documentElement.nodeName).toBe('score-partwise');
    const tw = readTimeline(timewise);
    expect(tw.parts.map((p) => [p.name, p.program])).toEqual([
      ['Soprano', 53],
      ['Bass', 53],
    ]);
    expect(tw.notes.map((n) => [n.part, n.midi, n.start])).toEqual([
      [0, 76, 0],
      [1, 48, 0],
      [0, 74, 4],
      [1, 43, 4],
    ]);
  });

  it('keeps going on scores that are odd: no divisions, empty parts', () => {
    const odd = score([
      ['P1', '', null, `<measure number="1"><note><pitch><step>X</step><octave>4</octave></pitch><duration>1</duration></note></measure><measure number="2"/>`],
    ]);
    const t = readTimeline(odd);
    expect(t.parts[0]?.name).toBe('Part 1');
    expect(t.notes).toEqual([]);
    expect(t.measures).toHaveLength(2);
    expect(t.measures[1]?.length).toBe(4);
  });
});
