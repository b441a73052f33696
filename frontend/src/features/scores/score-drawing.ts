/**
 * Drawing a score a piece at a time (issue 34): OpenSheetMusicDisplay lays a score out and draws
 * it in one call, 3 to 4 seconds for a quartet movement of 300 measures, during which the page
 * answers nothing. So each piece of the score (score-source.ts) is drawn by an OSMD of its own,
 * into a box of its own below the one before, each step a task of its own: the first systems
 * show at once, and the rest follow while the page stays free.
 *
 * A piece is laid out with a measure or two past what it keeps: its last system (perhaps not
 * full, and OSMD does not stretch a last line) is cut off its box, and the next piece starts at
 * that system's first measure, so every system but the score's last is a full one, as in a
 * score drawn whole. How many measures a piece has follows from what the pieces before cost:
 * about `TARGET_MS` of layout and drawing each.
 */

import type { IOSMDOptions, ITransposeCalculator, OpenSheetMusicDisplay } from 'opensheetmusicdisplay';
import type { ScoreSource } from './score-source';

/** A piece as drawn: its OSMD, its box, and the written measures it shows. */
export interface DrawnPiece {
  osmd: OpenSheetMusicDisplay;
  /** Holds OSMD's SVG, cut to the systems the piece keeps. */
  box: HTMLElement;
  /** The written index of its first measure. */
  first: number;
  /** How many measures it shows (its MeasureList's first `count`). */
  count: number;
}

type OsmdConstructor = new (container: HTMLElement, options: IOSMDOptions) => OpenSheetMusicDisplay;

export interface DrawOptions {
  Osmd: OsmdConstructor;
  source: ScoreSource;
  /** What OSMD is told for every piece. */
  options: IOSMDOptions;
  zoom: number;
  /** Semitones the notation is moved (issue 35), with OSMD's calculator that moves it. */
  transpose?: { semitones: number; Calculator: new () => ITransposeCalculator };
  /** Where the pieces' boxes go, one under the other. */
  into: HTMLElement;
  /** The class of a piece's box. */
  boxClass: string;
  /** Told after each piece is drawn (the list so far, and whether that was the last). */
  onPiece: (pieces: readonly DrawnPiece[], done: boolean) => void;
  signal: AbortSignal;
}

/** About how long a piece's layout and drawing take, in ms (a task may take 200 at most). */
export const TARGET_MS = 70;
/** The first piece, drawn before anything is known of the score's cost: measures, and weight. */
export const FIRST_PIECE = { measures: 8, weight: 120 } as const;
const MOST_MEASURES = 64;

/** Where a piece from `from` ends: as far as `weight` allows, at least `least` measures, at most MOST_MEASURES. */
function pieceEnd(source: ScoreSource, from: number, weight: number, least: number): number {
  let to = from;
  let sum = 0;
  while (to < source.measures && to - from < MOST_MEASURES) {
    sum += source.weight(to);
    if (to - from >= least && sum > weight) break;
    to++;
  }
  return Math.max(to, Math.min(source.measures, from + 1));
}

/**
 * Lets the page answer (input, paint, React's renders) before the next step: a task posted
 * behind whatever is queued. Not `scheduler.yield()`: its continuation goes ahead of React's
 * render task, so the figure's state (its Play button, `data-drawn`) would wait for the whole
 * score while its pieces showed.
 */
export function yieldToPage(): Promise<void> {
  if (typeof MessageChannel !== 'function') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * What OSMD is given of a piece. After the first, each part is named as on a score's later
 * systems (its abbreviation, or nothing). A metronome mark said not to be printed is left out
 * (OSMD prints it anyway, over the tempo words beside it), and so is one that only restates the
 * part's last printed mark (Joplin's Maple Leaf Rag says ♩ = 100 on its pickup and again on bar 1,
 * where OSMD drew it over "Tempo di Marcia"). The player reads the score apart, so what is heard
 * keeps every `<sound tempo>`.
 */
export function forDrawing(doc: Document, later: boolean): Document {
  const shown = new Map<Element | null, string>();
  for (const metronome of Array.from(doc.getElementsByTagName('metronome'))) {
    const part = metronome.closest('part');
    const mark = Array.from(metronome.children, (c) => `${c.localName}=${c.textContent?.trim() ?? ''}`).join(';');
    if (metronome.getAttribute('print-object') === 'no' || shown.get(part) === mark) {
      // A direction must keep a direction-type: OSMD dropped the rest of the bar after one
      // without (the notes of Joplin's bar 1). Its sound only sets what OSMD would play.
      const direction = metronome.closest('direction');
      metronome.closest('direction-type')?.remove();
      if (direction && direction.getElementsByTagName('direction-type').length === 0) direction.remove();
    } else {
      shown.set(part, mark);
    }
  }
  if (!later) return doc;
  for (const part of Array.from(doc.getElementsByTagName('score-part'))) {
    const name = part.getElementsByTagName('part-name')[0];
    const short = part.getElementsByTagName('part-abbreviation')[0]?.textContent ?? '';
    if (name) name.textContent = short;
    for (const display of Array.from(part.getElementsByTagName('part-name-display'))) display.remove();
  }
  return doc;
}

const aborted = () => new DOMException('The drawing was given up', 'AbortError');

/** The page's systems, top to bottom. */
function systemsOf(osmd: OpenSheetMusicDisplay) {
  return osmd.GraphicSheet.MusicPages.flatMap((page) => page.MusicSystems);
}

/** OSMD's units in CSS pixels, as drawn. */
function pixelsPerUnit(osmd: OpenSheetMusicDisplay, box: HTMLElement): number {
  const svg = box.querySelector('svg');
  const pageWidth = osmd.GraphicSheet.MusicPages[0]?.PositionAndShape.Size.width ?? 0;
  const drawn = svg?.getBoundingClientRect().width ?? 0;
  return pageWidth > 0 && drawn > 0 ? drawn / pageWidth : 10 * osmd.Zoom;
}

/**
 * Draws `source` into `into`, a piece at a time, until it is drawn or `signal` aborts (then it
 * rejects with an AbortError and leaves what it drew to its caller). A piece that cannot be read
 * rejects with OSMD's error.
 */
export async function drawScore(o: DrawOptions): Promise<DrawnPiece[]> {
  const pieces: DrawnPiece[] = [];
  let from = 0;
  /** Ms of layout and drawing per unit of weight, as the pieces so far cost (unknown at first). */
  let cost = 0;
  /** At least this many measures a piece: two systems and a measure. */
  let least = 1;
  while (from < o.source.measures || pieces.length === 0) {
    // Each piece in tasks of its own (this one perhaps follows OSMD's own first evaluation).
    await yieldToPage();
    if (o.signal.aborted) throw aborted();
    const to =
      cost > 0
        ? pieceEnd(o.source, from, TARGET_MS / cost, least)
        : Math.min(pieceEnd(o.source, from, FIRST_PIECE.weight, least), from + Math.max(FIRST_PIECE.measures, least));
    const last = to >= o.source.measures;
    const box = document.createElement('div');
    box.className = o.boxClass;
    box.dataset.scorePiece = String(pieces.length + 1);
    o.into.appendChild(box);
    const osmd = new o.Osmd(box, o.options);
    osmd.setLogLevel('silent');
    // A later piece goes on below the one before: the gap above it is that piece's cut.
    if (pieces.length > 0) osmd.EngravingRules.PageTopMargin = 0;
    await osmd.load(forDrawing(o.source.piece(from, to), pieces.length > 0));
    if (o.transpose && o.transpose.semitones !== 0) {
      // Notes and key signatures move; percussion stays where it is.
      osmd.TransposeCalculator = new o.transpose.Calculator();
      osmd.Sheet.Transpose = o.transpose.semitones;
      osmd.updateGraphic();
    }
    await yieldToPage();
    if (o.signal.aborted) {
      box.remove();
      throw aborted();
    }
    osmd.Zoom = o.zoom;
    const started = performance.now();
    osmd.render();
    const spent = performance.now() - started;
    const systems = systemsOf(osmd);
    let count = to - from;
    if (!last && systems.length > 1) {
      // Keep the full systems; the last one is drawn again, full, by the next piece.
      const held = systems[systems.length - 1];
      const before = systems[systems.length - 2];
      const heldFirst = held?.StaffLines[0]?.Measures[0]?.parentSourceMeasure;
      const index = heldFirst ? osmd.Sheet.SourceMeasures.indexOf(heldFirst) : -1;
      if (held && before && index > 0) {
        count = index;
        const scale = pixelsPerUnit(osmd, box);
        const heldTop = held.PositionAndShape.AbsolutePosition.y + held.PositionAndShape.BorderMarginTop;
        const beforeBottom = before.PositionAndShape.AbsolutePosition.y + before.PositionAndShape.BorderMarginBottom;
        box.style.height = `${Math.ceil(Math.max(heldTop, beforeBottom) * scale)}px`;
      }
    } else if (!last) {
      // Not even one full system: draw more at once.
      osmd.clear();
      box.remove();
      least = Math.min(MOST_MEASURES, (to - from) * 2);
      continue;
    }
    pieces.push({ osmd, box, first: from, count });
    o.onPiece([...pieces], last);
    // The next piece: about TARGET_MS of what this one cost (a dearer piece counts at once, a
    // cheaper one by a part), and at least one system more than it kept.
    let weight = 0;
    for (let m = from; m < to; m++) weight += o.source.weight(m);
    const per = spent / Math.max(1, weight);
    cost = cost === 0 || per > cost ? per : 0.7 * cost + 0.3 * per;
    least = Math.ceil((count / Math.max(1, systems.length - 1)) * 2) + 1;
    from += count;
  }
  return pieces;
}
