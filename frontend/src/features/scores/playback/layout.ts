/**
 * Where things are in a score OpenSheetMusicDisplay has drawn: each written measure's box on its
 * system (all its staves, top to bottom), and the x of each moment a note starts in it. The
 * cursor is placed from these (a moment between two notes is between their x), and a click is
 * turned into the measure under it. Positions are in OSMD's units (10 px at zoom 1) from the
 * page's top left; `scale` turns them into pixels of the SVG as drawn.
 */

import type { OpenSheetMusicDisplay } from 'opensheetmusicdisplay';

export interface MeasureBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Quarters from the measure's start, and the x where notes start then, in time order. */
  moments: Array<{ q: number; x: number }>;
}

export interface ScoreLayout {
  /** By written measure; null for one not drawn. */
  measures: Array<MeasureBox | null>;
  /** Pixels per unit. */
  scale: number;
}

/** The height of a five-line staff, in units. */
const STAFF_HEIGHT = 4;

/** Reads the layout of what `osmd` has drawn into `svg`. */
export function readLayout(osmd: OpenSheetMusicDisplay, svg: SVGSVGElement): ScoreLayout {
  const sheet = osmd.GraphicSheet;
  const page = sheet.MusicPages[0];
  const pageWidth = page?.PositionAndShape.Size.width ?? 0;
  const drawnWidth = svg.getBoundingClientRect().width;
  const scale = pageWidth > 0 && drawnWidth > 0 ? drawnWidth / pageWidth : 10 * osmd.Zoom;
  const measures = sheet.MeasureList.map((staves): MeasureBox | null => {
    let box: MeasureBox | null = null;
    const moments = new Map<number, number>();
    for (const measure of staves) {
      if (!measure || !measure.PositionAndShape) continue;
      const at = measure.PositionAndShape.AbsolutePosition;
      const size = measure.PositionAndShape.Size;
      const left = at.x;
      const right = at.x + size.width;
      const top = at.y;
      const bottom = at.y + STAFF_HEIGHT;
      if (box === null) box = { left, right, top, bottom, moments: [] };
      else {
        box.left = Math.min(box.left, left);
        box.right = Math.max(box.right, right);
        box.top = Math.min(box.top, top);
        box.bottom = Math.max(box.bottom, bottom);
      }
      for (const entry of measure.staffEntries ?? []) {
        const q = Math.round(entry.relInMeasureTimestamp.RealValue * 4 * 1e6) / 1e6;
        const x = entry.PositionAndShape.AbsolutePosition.x;
        const known = moments.get(q);
        moments.set(q, known === undefined ? x : Math.min(known, x));
      }
    }
    if (box) box.moments = [...moments.entries()].map(([q, x]) => ({ q, x })).sort((a, b) => a.q - b.q);
    return box;
  });
  return { measures, scale };
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
    x = first ? first.x : box.left + 1;
  } else {
    let i = 0;
    while (i + 1 < moments.length && (moments[i + 1]?.q ?? Infinity) <= offset) i++;
    const here = moments[i] ?? first;
    const next = moments[i + 1];
    const endQ = next ? next.q : Math.max(length, here.q + 1e-6);
    const endX = next ? next.x : box.right - 1;
    const share = endQ > here.q ? (offset - here.q) / (endQ - here.q) : 0;
    x = here.x + Math.max(0, Math.min(1, share)) * (endX - here.x);
  }
  return { x, top: box.top - 1.5, bottom: box.bottom + 1.5 };
}

/** The written measure drawn at (`x`, `y`) in units, or -1. */
export function measureAtPoint(layout: ScoreLayout, x: number, y: number): number {
  return layout.measures.findIndex(
    (box) => box !== null && x >= box.left && x <= box.right && y >= box.top - 3 && y <= box.bottom + 3,
  );
}
