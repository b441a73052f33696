/**
 * Scores the browser tests make: a string quartet as long as a real first movement (issue 34:
 * big scores drawn a piece at a time), with what makes engraving costly and pieces tricky:
 * sixteenth runs, chords, slurs and ties across barlines, dynamics and hairpins, a key change
 * and a clef change midway, and a repeat.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';

const STEPS = ['C', 'D', 'E', 'F', 'G', 'A', 'B'] as const;

function pitch(index: number, base: number): string {
  const n = base + index;
  const step = STEPS[((n % 7) + 7) % 7] ?? 'C';
  return `<pitch><step>${step}</step><octave>${Math.floor(n / 7)}</octave></pitch>`;
}

/** One measure of 3/4 (divisions 4) of part `p`, measure `m`: its rhythm changes with m. */
function music(p: number, m: number, base: number): string {
  const kind = (m + p) % 4;
  const notes: string[] = [];
  const note = (i: number, duration: number, type: string, extra = '') =>
    `<note>${pitch(i, base)}<duration>${duration}</duration><voice>1</voice><type>${type}</type>${extra}</note>`;
  if (kind === 0) {
    for (let i = 0; i < 12; i++) {
      const slur = i === 0 ? '<notations><slur type="start" number="1"/></notations>' : i === 11 ? '<notations><slur type="stop" number="1"/></notations>' : '';
      notes.push(note((m * 3 + i) % 9, 1, '16th', `<beam number="1">${i % 4 === 0 ? 'begin' : i % 4 === 3 ? 'end' : 'continue'}</beam>${slur}`));
    }
  } else if (kind === 1) {
    notes.push(note(m % 5, 4, 'quarter'), note((m + 2) % 5, 4, 'quarter'));
    notes.push(`<note><chord/>${pitch((m + 4) % 5, base)}<duration>4</duration><voice>1</voice><type>quarter</type></note>`);
    notes.push(note((m + 1) % 5, 4, 'quarter', '<tie type="start"/><notations><tied type="start"/></notations>'));
  } else if (kind === 2) {
    notes.push(note((m + 1) % 5, 8, 'half', '<tie type="stop"/><notations><tied type="stop"/></notations>'));
    notes.push(note(m % 6, 2, 'eighth', '<beam number="1">begin</beam>'), note((m + 3) % 6, 2, 'eighth', '<beam number="1">end</beam>'));
  } else {
    notes.push(note(m % 4, 6, 'quarter', '<dot/>'), note((m + 1) % 4, 2, 'eighth'), `<note><rest/><duration>4</duration><voice>1</voice><type>quarter</type></note>`);
  }
  const dynamics =
    m % 8 === 0
      ? `<direction placement="below"><direction-type><dynamics><${m % 16 === 0 ? 'p' : 'f'}/></dynamics></direction-type></direction>`
      : m % 8 === 4
        ? '<direction placement="below"><direction-type><wedge type="crescendo"/></direction-type></direction>'
        : m % 8 === 6
          ? '<direction placement="below"><direction-type><wedge type="stop"/></direction-type></direction>'
          : '';
  return dynamics + notes.join('');
}

const PARTS = [
  { id: 'P1', name: 'Violin I', short: 'Vln. I', clef: '<sign>G</sign><line>2</line>', base: 30, program: 41 },
  { id: 'P2', name: 'Violin II', short: 'Vln. II', clef: '<sign>G</sign><line>2</line>', base: 28, program: 41 },
  { id: 'P3', name: 'Viola', short: 'Vla.', clef: '<sign>C</sign><line>3</line>', base: 25, program: 42 },
  { id: 'P4', name: 'Violoncello', short: 'Vc.', clef: '<sign>F</sign><line>4</line>', base: 18, program: 43 },
];

/** A quartet of `measures` measures of 3/4 (about 1.4 MB at 320), titled `title`. */
export function quartetXml(measures: number, title: string): string {
  const list = PARTS.map(
    (p, i) =>
      `<score-part id="${p.id}"><part-name>${p.name}</part-name><part-abbreviation>${p.short}</part-abbreviation>` +
      `<midi-instrument id="${p.id}-I1"><midi-channel>${i + 1}</midi-channel><midi-program>${p.program}</midi-program></midi-instrument></score-part>`,
  ).join('');
  const half = Math.floor(measures / 2);
  const parts = PARTS.map((p, pi) => {
    const body = Array.from({ length: measures }, (_, m) => {
      let head = '';
      if (m === 0) {
        head = `<attributes><divisions>4</divisions><key><fifths>-1</fifths></key><time><beats>3</beats><beat-type>4</beat-type></time><clef>${p.clef}</clef></attributes><sound tempo="132"/>`;
      } else if (m === half) {
        head = '<attributes><key><fifths>2</fifths></key></attributes>';
      } else if (m === half + 8 && pi === 3) {
        head = '<attributes><clef><sign>C</sign><line>4</line></clef></attributes>';
      }
      const repeatStart = m === 16 ? '<barline location="left"><bar-style>heavy-light</bar-style><repeat direction="forward"/></barline>' : '';
      const repeatEnd = m === 23 ? '<barline location="right"><bar-style>light-heavy</bar-style><repeat direction="backward"/></barline>' : '';
      const last = m === measures - 1 ? '<barline location="right"><bar-style>light-heavy</bar-style></barline>' : '';
      return `<measure number="${m + 1}">${repeatStart}${head}${music(pi, m, p.base)}${repeatEnd}${last}</measure>`;
    }).join('\n');
    return `<part id="${p.id}">\n${body}\n</part>`;
  }).join('\n');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">\n' +
    `<score-partwise version="4.0"><work><work-title>${title}</work-title></work>` +
    `<identification><creator type="composer">E2E Composer</creator></identification><part-list>${list}</part-list>\n${parts}\n</score-partwise>\n`
  );
}

/** Posts one score file; answers the post's id. */
export async function postScore(
  request: APIRequestContext,
  url: string,
  token: string,
  file: { name: string; mimeType: string; buffer: Buffer },
  title: string,
): Promise<string> {
  const res = await request.post(`${url}/posts/musicxml`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { musicxml_files: file, titles: title, composers: 'E2E Composer' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return String(((await res.json()) as { id: string }).id);
}

/**
 * The middle of the last measure drawn (rightmost, then topmost) on its top staff, scrolled to
 * the middle of the window first (clear of the now-playing bar); null when none is drawn.
 */
export async function lastMeasureCentre(page: Page): Promise<{ x: number; y: number } | null> {
  await page.locator('[data-score-drawing] svg').first().evaluate((svg) => svg.scrollIntoView({ block: 'center' }));
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll('[data-score-drawing] svg .vf-measure')].map((m) => m.getBoundingClientRect());
    const box = boxes.filter((b) => b.width > 0).sort((a, b) => b.right - a.right || a.top - b.top)[0];
    return box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
  });
}
