/**
 * Rows of cells side by side in a report PDF (a table next to its chart, two charts): each
 * cell measured and drawn in its own column, the row kept whole on one page.
 */
import type { ReportPdf } from './document.js';
import type { Flow, Frame } from './flow.js';
import { PAGE_MARGINS } from './theme.js';

/** One cell of a `row`: measured and drawn inside its own column frame. */
export interface RowCell {
  /** Relative width (weights are normalised to the content width). Default 1. */
  weight?: number;
  /** Height the cell's content takes at the cell's width (`contentWidth` is the cell's width). */
  measure: () => number;
  /** Draws the cell's content from the current y (`left` and `contentWidth` are the cell's). */
  draw: () => void;
}

/**
 * Cells side by side, e.g. a table next to its chart or two charts. The row moves to the next
 * page whole when it does not fit; when a cell is taller than a page, the cells are drawn one
 * under the other at the full width instead. Returns the row's height.
 */
export function drawRow(
  pdf: ReportPdf,
  flow: Flow,
  cells: RowCell[],
  options: { gap?: number } = {},
): number {
  const { doc } = pdf;
  const frames = rowFrames(pdf, cells, options.gap ?? 16);
  const height = measureRow(pdf, flow, cells, options);
  if (height > pdf.pageBody) {
    for (const c of cells) c.draw();
    return height;
  }
  pdf.ensureSpace(height);
  const y0 = doc.y;
  const charts0 = flow.chartsDrawn;
  let maxY = y0;
  cells.forEach((c, i) => {
    doc.y = y0;
    flow.inFrame(frames[i] ?? null, () => c.draw());
    maxY = Math.max(maxY, doc.y);
  });
  doc.y = maxY;
  doc.x = pdf.left;
  // A row of charts only (an empty cell aside) at the top of a page counts as a lone chart.
  const drawn = cells.filter((c, i) => flow.inFrame(frames[i] ?? null, () => c.measure()) > 0).length;
  flow.loneChart =
    flow.frame === null && y0 <= PAGE_MARGINS.top + 1 && flow.chartsDrawn - charts0 === drawn
      ? { page: pdf.pageCount, endY: maxY }
      : null;
  return height;
}

/** Height `drawRow` would take with these cells. */
export function measureRow(
  pdf: ReportPdf,
  flow: Flow,
  cells: RowCell[],
  options: { gap?: number } = {},
): number {
  const frames = rowFrames(pdf, cells, options.gap ?? 16);
  return Math.max(0, ...cells.map((c, i) => flow.inFrame(frames[i] ?? null, () => c.measure())));
}

/** The columns of a row's cells across the page's content width, `gap` points apart. */
function rowFrames(pdf: ReportPdf, cells: RowCell[], gap: number): Frame[] {
  const total = cells.reduce((s, c) => s + (c.weight ?? 1), 0) || 1;
  const usable = pdf.pageContentWidth - gap * (cells.length - 1);
  let x = PAGE_MARGINS.left;
  return cells.map((c) => {
    const f = { x, w: (usable * (c.weight ?? 1)) / total };
    x += f.w + gap;
    return f;
  });
}
