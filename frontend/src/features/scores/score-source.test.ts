import { describe, expect, it } from 'vitest';
import { ScoreFileError, toPartwise } from './score-file';
import { partsOf, scoreSource } from './score-source';

const measure = (n: number, body = '') => `<measure number="${n}">${body}<note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration></note></measure>`;

/** Two parts of 40 measures: the key changes at 20, the clef of the second part's staff 2 at 30. */
function quartet(): string {
  const attributes =
    '<attributes><divisions>4</divisions><key><fifths>2</fifths></key><time><beats>3</beats><beat-type>4</beat-type></time>' +
    '<staves>2</staves><clef number="1"><sign>G</sign><line>2</line></clef><clef number="2"><sign>F</sign><line>4</line></clef>' +
    '<transpose><diatonic>-1</diatonic><chromatic>-2</chromatic></transpose></attributes>';
  const part = (id: string, clefChange: boolean) =>
    `<part id="${id}">` +
    Array.from({ length: 40 }, (_, i) => {
      if (i === 0) return measure(1, attributes);
      if (i === 20) return measure(21, '<attributes><key><fifths>-3</fifths></key></attributes>');
      if (i === 30 && clefChange) return measure(31, '<attributes><clef number="2"><sign>G</sign><line>2</line></clef></attributes>');
      if (i === 5) return `<!-- a <measure> in a comment --><measure number="6" text="a > b"><direction><direction-type><words><![CDATA[<measure>]]></words></direction-type></direction>${measure(0).slice(20)}`;
      return measure(i + 1);
    }).join('') +
    '</part>';
  return (
    '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">' +
    '<score-partwise version="4.0"><work><work-title>Quartet</work-title></work><part-list>' +
    '<score-part id="P1"><part-name>Violin I</part-name><part-abbreviation>Vln. I</part-abbreviation></score-part>' +
    '<score-part id="P2"><part-name>Piano</part-name></score-part></part-list>' +
    part('P1', false) +
    part('P2', true) +
    '</score-partwise>'
  );
}

const texts = (doc: Document, name: string) => Array.from(doc.getElementsByTagName(name)).map((e) => e.textContent);

describe('a score read a piece at a time', () => {
  it('knows its measures and parts without parsing the whole', () => {
    const score = scoreSource(quartet(), toPartwise);
    expect(score.measures).toBe(40);
    expect(score.partNames).toEqual(['Violin I', 'Piano']);
  });

  it('gives measures from to to of every part, with the header, skipping comments, CDATA and quoted >', () => {
    const score = scoreSource(quartet(), toPartwise);
    const piece = score.piece(4, 8);
    const parts = partsOf(piece);
    expect(parts.map((p) => p.getAttribute('id'))).toEqual(['P1', 'P2']);
    for (const part of parts) {
      expect(Array.from(part.getElementsByTagName('measure')).map((m) => m.getAttribute('number'))).toEqual(['5', '6', '7', '8']);
    }
    expect(texts(piece, 'work-title')).toEqual(['Quartet']);
    expect(texts(piece, 'part-name')).toEqual(['Violin I', 'Piano']);
    expect(texts(piece, 'words')).toEqual(['<measure>', '<measure>']);
  });

  it('states again at a piece’s start what is in force, its time signature unprinted', () => {
    const score = scoreSource(quartet(), toPartwise);
    const first = partsOf(score.piece(32, 40)).map((p) => p.getElementsByTagName('measure')[0]!);
    const [violin, piano] = first;
    expect(violin!.getElementsByTagName('divisions')[0]?.textContent).toBe('4');
    expect(violin!.querySelector('key fifths')?.textContent).toBe('-3');
    expect(violin!.querySelector('time')?.getAttribute('print-object')).toBe('no');
    expect(violin!.querySelector('transpose chromatic')?.textContent).toBe('-2');
    const clefs = Array.from(piano!.getElementsByTagName('clef')).map((c) => `${c.getAttribute('number')}:${c.querySelector('sign')?.textContent}`);
    expect(clefs).toEqual(['1:G', '2:G']);
    // In MusicXML's order: divisions, key, time, staves, clef, transpose.
    expect(Array.from(piano!.getElementsByTagName('attributes')[0]!.children).map((c) => c.localName)).toEqual([
      'divisions',
      'key',
      'time',
      'staves',
      'clef',
      'clef',
      'transpose',
    ]);
    // A piece that starts with attributes of its own keeps them and gains the rest.
    const at20 = partsOf(score.piece(20, 24))[0]!.getElementsByTagName('measure')[0]!;
    expect(at20.getElementsByTagName('attributes')).toHaveLength(1);
    expect(at20.querySelector('key fifths')?.textContent).toBe('-3');
    expect(at20.querySelector('divisions')?.textContent).toBe('4');
    // Out of order, the same.
    const again = scoreSource(quartet(), toPartwise);
    expect(partsOf(again.piece(32, 40))[1]!.getElementsByTagName('measure')[0]!.outerHTML).toBe(piano!.outerHTML);
    // The first piece is as written.
    expect(partsOf(score.piece(0, 2))[0]!.querySelector('time')?.hasAttribute('print-object')).toBe(false);
  });

  it('turns a timewise score partwise, and refuses what is not MusicXML or not well-formed', () => {
    const timewise = scoreSource(
      '<score-timewise><part-list><score-part id="P1"><part-name>Flute</part-name></score-part></part-list>' +
        '<measure number="1"><part id="P1"><note/></part></measure><measure number="2"><part id="P1"><note/></part></measure></score-timewise>',
      toPartwise,
    );
    expect(timewise.measures).toBe(2);
    expect(timewise.partNames).toEqual(['Flute']);
    expect(() => scoreSource('<html><body/></html>', toPartwise)).toThrow(/Unsupported MusicXML root <html>/);
    expect(() => scoreSource('<score-partwise><part id="P1"><measure></part>', toPartwise)).toThrow(ScoreFileError);
    expect(() => scoreSource('<score-partwise><part id="P1"><measure number="1"></measure>', toPartwise)).toThrow(ScoreFileError);
  });
});
