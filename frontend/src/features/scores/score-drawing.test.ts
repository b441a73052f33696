import { describe, expect, it } from 'vitest';
import { forDrawing } from './score-drawing';

const mark = (bpm: number, hidden = false) =>
  `<direction placement="above"><direction-type><metronome${hidden ? ' print-object="no"' : ''} parentheses="no">` +
  `<beat-unit>quarter</beat-unit><per-minute>${bpm}</per-minute></metronome></direction-type><sound tempo="${bpm}"/></direction>`;
const words = (text: string) =>
  `<direction placement="above"><direction-type><words>${text}</words></direction-type><sound tempo="120"/></direction>`;

function score(...parts: string[][]): Document {
  const body = parts
    .map((measures, p) => `<part id="P${p + 1}">${measures.map((m, i) => `<measure number="${i}">${m}</measure>`).join('')}</part>`)
    .join('');
  return new DOMParser().parseFromString(
    `<score-partwise><part-list><score-part id="P1"><part-name>Piano</part-name><part-abbreviation>Pno.</part-abbreviation></score-part></part-list>${body}</score-partwise>`,
    'application/xml',
  );
}

const marks = (doc: Document) => Array.from(doc.getElementsByTagName('per-minute'), (m) => Number(m.textContent));
const tempos = (doc: Document) => Array.from(doc.getElementsByTagName('sound'), (s) => Number(s.getAttribute('tempo')));

describe('forDrawing (what OSMD is given of a piece)', () => {
  it("leaves out a metronome mark that only restates the part's last one, as Joplin's bar 1 does", () => {
    // The Maple Leaf Rag: ♩ = 100 on the pickup, then "Tempo Di Marcia" and ♩ = 100 again.
    const doc = forDrawing(score([mark(100), words('Tempo Di Marcia') + mark(100), mark(80), mark(80) + mark(100)]), false);
    expect(marks(doc)).toEqual([100, 80, 100]);
    expect(doc.getElementsByTagName('words')[0]?.textContent).toBe('Tempo Di Marcia');
    // No direction is left without a direction-type (OSMD drops the rest of the bar after one).
    for (const direction of Array.from(doc.getElementsByTagName('direction'))) {
      expect(direction.getElementsByTagName('direction-type')).toHaveLength(1);
    }
    expect(tempos(doc)).toEqual([100, 120, 80, 100]);
  });

  it('leaves out a mark said not to be printed, and tells each part apart', () => {
    const doc = forDrawing(score([mark(90, true), mark(60)], [mark(60)]), false);
    expect(marks(doc)).toEqual([60, 60]);
  });

  it('names the parts as later systems do after the first piece', () => {
    expect(forDrawing(score([mark(60)]), true).getElementsByTagName('part-name')[0]?.textContent).toBe('Pno.');
    expect(forDrawing(score([mark(60)]), false).getElementsByTagName('part-name')[0]?.textContent).toBe('Piano');
  });
});
