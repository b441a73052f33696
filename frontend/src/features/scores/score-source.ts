/**
 * A score's text cut where its measures are, so that it is parsed, drawn and read a piece at a
 * time (issue 34): parsing a 2 MB MusicXML file whole is one task of about 200 ms, drawing it
 * whole several seconds, and a page must never stop answering that long.
 *
 * The text is scanned once for where each `<part>` and each of its `<measure>`s begin and end
 * (tags only: comments, CDATA, processing instructions and quoted attribute values are stepped
 * over, since text content cannot hold a raw `<`). A piece is then a small document of its own:
 * the file's prolog and root, everything before the first part (work, identification, the part
 * list), and measures `from` to `to` of every part, its first measure stating again what is in
 * force from the measures before it (divisions, key, time, clefs, transposition), as a system
 * that begins a page would. A time signature stated again that way is not printed.
 */

import { ScoreFileError } from './score-file-error';

/** A `score-partwise` score, cut where its measures are. */
export interface ScoreSource {
  /** The longest part's count of measures. */
  readonly measures: number;
  /** The parts' names, in order ('Part 2' for one without a name). */
  readonly partNames: readonly string[];
  /** Measures `from` to `to` (exclusive) of every part, as a document of its own. */
  piece(from: number, to: number): Document;
  /** How much there is to draw in measure `index`: its notes in every part, and one a part. */
  weight(index: number): number;
}

interface PartSpan {
  /** The part's start tag, as written. */
  open: string;
  /** Where each measure's text starts and ends. */
  measures: Array<[number, number]>;
}

interface Scanned {
  prolog: string;
  rootName: string;
  rootOpen: string;
  header: string;
  parts: PartSpan[];
  /** By measure: how much there is to draw (its notes in every part, and one a part). */
  weights: number[];
}

/** The children of `<attributes>` in the order MusicXML writes them. */
const ATTRIBUTE_ORDER = [
  'footnote',
  'level',
  'divisions',
  'key',
  'time',
  'staves',
  'part-symbol',
  'instruments',
  'clef',
  'staff-details',
  'transpose',
  'for-part',
  'directive',
  'measure-style',
];

/** What in `<attributes>` holds on into later measures (a measure style, e.g. a multi-measure rest, does not). */
const CARRIED = new Set(['divisions', 'key', 'time', 'staves', 'part-symbol', 'instruments', 'clef', 'staff-details', 'transpose']);

const malformed = () => new ScoreFileError('The file is not well-formed XML');

/**
 * The tags the scan looks at (a part, a measure, a note, the root), and what it steps over:
 * comments and CDATA sections. Attribute values are matched whole, so a quoted `>` is no end.
 */
const TAGS =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<(\/?)(part|measure|note|score-partwise|score-timewise)(?=[\s/>])(?:[^>"']|"[^"]*"|'[^']*')*>/g;

/** Where the root, its parts and their measures are in `text`, and each measure's weight. */
function scan(text: string): Scanned {
  let rootName = '';
  let rootOpenAt = -1;
  let rootOpenEnd = -1;
  let rootClosed = false;
  let firstPart = -1;
  let part: PartSpan | null = null;
  let measureAt = -1;
  let notes = 0;
  const parts: PartSpan[] = [];
  const weights: number[] = [];
  TAGS.lastIndex = 0;
  for (let m = TAGS.exec(text); m; m = TAGS.exec(text)) {
    const name = m[2];
    if (!name) continue;
    const tag = m[0];
    const at = m.index;
    const end = at + tag.length;
    const closing = m[1] === '/';
    const selfClosing = !closing && tag.endsWith('/>');
    if (name === 'note') {
      if (!closing && measureAt >= 0) notes++;
    } else if (name === 'measure') {
      if (!part || closing === (measureAt < 0)) throw malformed();
      if (closing || selfClosing) {
        const start = closing ? measureAt : at;
        weights[part.measures.length] = (weights[part.measures.length] ?? 0) + notes + 1;
        part.measures.push([start, end]);
        measureAt = -1;
        notes = 0;
      } else measureAt = at;
    } else if (name === 'part') {
      if (rootOpenAt < 0 || measureAt >= 0 || closing === !part) throw malformed();
      if (closing) part = null;
      else {
        if (firstPart < 0) firstPart = at;
        part = { open: selfClosing ? `${tag.slice(0, -2).trimEnd()}>` : tag, measures: [] };
        parts.push(part);
        if (selfClosing) part = null;
      }
    } else if (rootOpenAt < 0 && !closing) {
      rootName = name;
      rootOpenAt = at;
      rootOpenEnd = end;
    } else if (closing && name === rootName) {
      if (part) throw malformed();
      rootClosed = true;
    }
  }
  if (rootOpenAt < 0 || !rootClosed) throw malformed();
  const headerEnd = firstPart >= 0 ? firstPart : text.lastIndexOf(`</${rootName}`);
  return {
    prolog: text.slice(0, rootOpenAt),
    rootName,
    rootOpen: text.slice(rootOpenAt, rootOpenEnd),
    header: text.slice(rootOpenEnd, Math.max(rootOpenEnd, headerEnd)),
    parts,
    weights,
  };
}

function parse(text: string): Document {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) throw malformed();
  return doc;
}

function keyOf(el: Element): string {
  const n = el.getAttribute('number');
  return n ? `${el.localName}#${n}` : el.localName;
}

/** What each part has in force: its last `<attributes>` child of each kind (per staff where numbered). */
type InForce = Map<string, Element>;

function note(state: InForce, measure: Element) {
  for (const el of Array.from(measure.children)) {
    if (el.localName !== 'attributes') continue;
    for (const c of Array.from(el.children)) if (CARRIED.has(c.localName)) state.set(keyOf(c), c);
  }
}

/** States `state` again at the start of `measure`, but what the measure states itself. */
function restate(doc: Document, measure: Element, state: InForce) {
  if (state.size === 0) return;
  let attributes = Array.from(measure.children).find((c) => c.localName === 'attributes') ?? null;
  const own = new Set(attributes ? Array.from(attributes.children).map(keyOf) : []);
  if (!attributes) {
    attributes = doc.createElement('attributes');
    measure.insertBefore(attributes, measure.firstChild);
  }
  const carried = [...state.entries()].filter(([key]) => !own.has(key)).map(([, el]) => doc.importNode<Element>(el, true));
  for (const el of carried) if (el.localName === 'time') el.setAttribute('print-object', 'no');
  const all = [...Array.from(attributes.children), ...carried];
  const rank = (el: Element) => {
    const r = ATTRIBUTE_ORDER.indexOf(el.localName);
    return r < 0 ? ATTRIBUTE_ORDER.length : r;
  };
  all.sort((a, b) => rank(a) - rank(b));
  for (const el of all) attributes.appendChild(el);
}

function namesOf(header: Document, partIds: readonly string[]): string[] {
  const listed = new Map(
    Array.from(header.getElementsByTagName('score-part')).map((p) => [
      p.getAttribute('id') ?? '',
      p.getElementsByTagName('part-name')[0]?.textContent?.trim() ?? '',
    ]),
  );
  return partIds.map((id, index) => listed.get(id) || `Part ${index + 1}`);
}

class TextScore implements ScoreSource {
  readonly measures: number;
  readonly partNames: readonly string[];
  private readonly scanned: Scanned;
  private readonly text: string;
  /** What each part has in force before a measure, by the measures a piece began or ended at. */
  private readonly states = new Map<number, InForce[]>([[0, []]]);

  constructor(text: string) {
    this.text = text;
    this.scanned = scan(text);
    this.measures = Math.max(0, ...this.scanned.parts.map((p) => p.measures.length));
    const header = parse(`${this.scanned.rootOpen}${this.scanned.header}</${this.scanned.rootName}>`);
    const ids = this.scanned.parts.map((p) => /\bid\s*=\s*["']([^"']*)["']/.exec(p.open)?.[1] ?? '');
    this.partNames = namesOf(header, ids);
  }

  private documentOf(from: number, to: number): Document {
    const { prolog, rootOpen, rootName, header, parts } = this.scanned;
    const body = parts.map((p) => {
      const first = p.measures[from];
      const last = p.measures[Math.min(to, p.measures.length) - 1];
      const music = first && last && from < to ? this.text.slice(first[0], last[1]) : '';
      return `${p.open}${music}</part>`;
    });
    return parse(`${prolog}${rootOpen}${header}${body.join('')}</${rootName}>`);
  }

  /** `state` after the measures of `doc`. */
  private after(state: readonly InForce[], doc: Document): InForce[] {
    return partsOf(doc).map((part, i) => {
      const s = new Map(state[i] ?? []);
      for (const m of Array.from(part.children)) if (m.localName === 'measure') note(s, m);
      return s;
    });
  }

  /** What each part has in force before measure `at`: from the nearest point known before it. */
  private inForce(at: number): InForce[] {
    let known = 0;
    for (const k of this.states.keys()) if (k <= at && k > known) known = k;
    let state = this.states.get(known) ?? [];
    if (known < at) {
      state = this.after(state, this.documentOf(known, at));
      this.states.set(at, state);
    }
    return state;
  }

  weight(index: number): number {
    return this.scanned.weights[index] ?? 0;
  }

  piece(from: number, to: number): Document {
    const start = Math.max(0, Math.min(from, this.measures));
    const end = Math.max(start, Math.min(to, this.measures));
    const doc = this.documentOf(start, end);
    const before = this.inForce(start);
    // Pieces are mostly asked for in order: the next one starts from where this one ends.
    if (!this.states.has(end)) this.states.set(end, this.after(before, doc));
    if (start > 0) {
      partsOf(doc).forEach((part, i) => {
        const first = Array.from(part.children).find((m) => m.localName === 'measure');
        const s = before[i];
        if (first && s) restate(doc, first, s);
      });
    }
    return doc;
  }
}

/** The `<part>`s of a score, in order. */
export function partsOf(doc: Document): Element[] {
  return Array.from(doc.documentElement.children).filter((el) => el.localName === 'part');
}

/** The name of the root element of an XML text, its prolog stepped over. */
const ROOT = /^\uFEFF?(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>)*<([A-Za-z_][\w:.-]*)/;

/** The score in `text` (a `score-timewise` one is turned partwise by `toPartwise` first). */
export function scoreSource(text: string, toPartwise: (timewise: Document) => Document): ScoreSource {
  const root = ROOT.exec(text)?.[1];
  if (root === 'score-timewise') {
    return new TextScore(new XMLSerializer().serializeToString(toPartwise(parse(text))));
  }
  if (root !== 'score-partwise') throw new ScoreFileError(`Unsupported MusicXML root <${root ?? 'none'}>`);
  return new TextScore(text);
}
