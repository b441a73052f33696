/**
 * Where things are in a score OpenSheetMusicDisplay has drawn, a piece at a time
 * (score-drawing.ts): each written measure's box on its system (all its staves, top to bottom),
 * and the x of each moment a note starts in it. The cursor is placed from these (a moment
 * between two notes is between their x), and a click is turned into the measure under it.
 * Positions are CSS pixels in the scrolling box the pieces are drawn in (its content, scroll
 * aside), so pieces drawn one under another make one layout.
 */

import type { OpenSheetMusicDisplay } from 'opensheetmusicdisplay';

export interface MeasureBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Quarters from the measure's start, and the x where notes start then, in time order. */
  moments: Array<{ q: number; x: number }>;
  /** How far above and below the staves a click still counts. */
  reach: number;
}

export interface ScoreLayout {
  /** By written measure; null for one not drawn (yet). */
  measures: Array<MeasureBox | null>;
}

/** A piece as drawn: what layout needs of score-drawing's `DrawnPiece`. */
export interface LaidOutPiece {
  osmd: OpenSheetMusicDisplay;
  box: HTMLElement;
  first: number;
  count: number;
}

/** The height of a five-line staff, in units. */
const STAFF_HEIGHT = 4;

/** Reads the layout of the pieces drawn into `host`, each measure where it shows in `host`. */
export function readLayout(pieces: readonly LaidOutPiece[], host: HTMLElement): ScoreLayout {
  const measures: Array<MeasureBox | null> = [];
  const hostBox = host.getBoundingClientRect();
  for (const piece of pieces) {
    const svg = piece.box.querySelector('svg');
    const sheet = piece.osmd.GraphicSheet;
    if (!svg || !sheet) continue;
    const svgBox = svg.getBoundingClientRect();
    const pageWidth = sheet.MusicPages[0]?.PositionAndShape.Size.width ?? 0;
    const scale = pageWidth > 0 && svgBox.width > 0 ? svgBox.width / pageWidth : 10 * piece.osmd.Zoom;
    const dx = svgBox.left - hostBox.left + host.scrollLeft;
    const dy = svgBox.top - hostBox.top + host.scrollTop;
    const px = (x: number) => dx + x * scale;
    const py = (y: number) => dy + y * scale;
    sheet.MeasureList.slice(0, piece.count).forEach((staves, i) => {
      let box: MeasureBox | null = null;
      const moments = new Map<number, number>();
      for (const measure of staves) {
        if (!measure || !measure.PositionAndShape) continue;
        const at = measure.PositionAndShape.AbsolutePosition;
        const size = measure.PositionAndShape.Size;
        const left = px(at.x);
        const right = px(at.x + size.width);
        const top = py(at.y);
        const bottom = py(at.y + STAFF_HEIGHT);
        if (box === null) box = { left, right, top, bottom, moments: [], reach: 3 * scale };
        else {
          box.left = Math.min(box.left, left);
          box.right = Math.max(box.right, right);
          box.top = Math.min(box.top, top);
          box.bottom = Math.max(box.bottom, bottom);
        }
        for (const entry of measure.staffEntries ?? []) {
          const q = Math.round(entry.relInMeasureTimestamp.RealValue * 4 * 1e6) / 1e6;
          const x = px(entry.PositionAndShape.AbsolutePosition.x);
          const known = moments.get(q);
          moments.set(q, known === undefined ? x : Math.min(known, x));
        }
      }
      if (box) box.moments = [...moments.entries()].map(([q, x]) => ({ q, x })).sort((a, b) => a.q - b.q);
      measures[piece.first + i] = box;
    });
  }
  return { measures: Array.from(measures, (m) => m ?? null) };
}

/** The cursor for written measure `written`, `offset` quarters in of `length`: x, top, bottom. */
export function cursorAt(
  layout: ScoreLayout,
  written: number,
  offset: number,
  length: number,
): { x: number; top: number; bottom: number } | null {
  const box = layout.measures[written];
  if (!box) return null;
  const moments = box.moments;
  const first = moments[0];
  let x: number;
  if (!first || offset <= first.q) {
    x = first ? first.x : box.left + box.reach / 3;
  } else {
    let i = 0;
    while (i + 1 < moments.length && (moments[i + 1]?.q ?? Infinity) <= offset) i++;
    const here = moments[i] ?? first;
    const next = moments[i + 1];
    const endQ = next ? next.q : Math.max(length, here.q + 1e-6);
    const endX = next ? next.x : box.right - box.reach / 3;
    const share = endQ > here.q ? (offset - here.q) / (endQ - here.q) : 0;
    x = here.x + Math.max(0, Math.min(1, share)) * (endX - here.x);
  }
  const margin = box.reach / 2;
  return { x, top: box.top - margin, bottom: box.bottom + margin };
}

/** The written measure drawn at (`x`, `y`) of the host's content, or -1. */
export function measureAtPoint(layout: ScoreLayout, x: number, y: number): number {
  return layout.measures.findIndex(
    (box) => box !== null && x >= box.left && x <= box.right && y >= box.top - box.reach && y <= box.bottom + box.reach,
  );
}
