import { describe, expect, it } from 'vitest';
import { partInfos, readPartList } from './instruments';

/** The programs a part list gives its parts. */
function programs(parts: ReadonlyArray<{ name: string; instrument?: string; program?: number }>): number[] {
  const xml = `<score-partwise><part-list>${parts
    .map(
      (p, i) =>
        `<score-part id="P${i}"><part-name>${p.name}</part-name>` +
        (p.instrument ? `<score-instrument id="P${i}-I"><instrument-name>${p.instrument}</instrument-name></score-instrument>` : '') +
        (p.program ? `<midi-instrument id="P${i}-I"><midi-program>${p.program}</midi-program></midi-instrument>` : '') +
        '</score-part>',
    )
    .join('')}</part-list></score-partwise>`;
  const root = new DOMParser().parseFromString(xml, 'application/xml').documentElement;
  const listed = readPartList(root);
  return partInfos(listed, listed.map((p) => p.id), () => false).map((p) => p.program);
}

describe('what plays a part', () => {
  it('is the score’s own program', () => {
    expect(programs([{ name: 'Melody', program: 41 }, { name: 'Soprano', program: 74 }])).toEqual([41, 74]);
  });

  it('sings voices that an exporter gave its default piano (Finale, music21)', () => {
    // Bach's BWV 66.6 as Finale wrote it; a Monteverdi madrigal as music21 writes it.
    const chorale = ['Soprano', 'Alto', 'Tenor', 'Bass'].map((name, i) => ({ name, instrument: `Instrument ${i + 1}`, program: 1 }));
    expect(programs(chorale)).toEqual([53, 53, 53, 53]);
    const madrigal = ['Canto', 'Quinto', 'Alto', 'Tenore', 'Basso'].map((name) => ({ name, instrument: 'Grand Piano', program: 1 }));
    expect(programs(madrigal)).toEqual([53, 53, 53, 53, 53]);
    expect(programs([{ name: 'Piano', program: 1 }, { name: 'Bass', program: 1 }])).toEqual([1, 1]);
  });

  it('is guessed from the name, an instrument before the voice that qualifies it', () => {
    const named = ['Alto Saxophone', 'Soprano Recorder', 'Tenor Trombone', 'English Horn', 'Pan Flute', 'Alto', 'Lead Vocal', 'Bass'];
    expect(programs(named.map((name) => ({ name })))).toEqual([66, 75, 58, 69, 76, 53, 53, 53]);
    expect(programs([{ name: 'Bass' }, { name: 'Drums' }])).toEqual([33, 1]);
  });
});
