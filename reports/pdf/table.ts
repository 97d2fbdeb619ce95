/**
 * Drawing a table in a report PDF: rows that do not fit move to the next page under a repeated
 * header, cells wrap and are cut with an ellipsis, linked cells link their text; tagged Table,
 * TR, TH and TD.
 */
import { FONT_FAMILY, FONT_FAMILY_BOLD } from '../fonts.js';
import type { ReportPdf } from './document.js';
import { tableLayout } from './table-layout.js';
import type { TableColumn, TableLayout, TableOptions } from './table-layout.js';
import type { StructElement } from './tags.js';
import { linkedLine, putLine } from './text-line.js';
import { COLORS, PAGE_MARGINS } from './theme.js';

/** A table being drawn: its document, columns, rows and layout, and the Table element its rows go in. */
interface TableRun {
  pdf: ReportPdf;
  columns: TableColumn[];
  rows: string[][];
  options: TableOptions;
  layout: TableLayout;
  table: StructElement;
}

/**
 * A table. Rows that do not fit move to the next page under a repeated header; cell text
 * wraps to `maxLines` and is cut with an ellipsis beyond, so nothing overflows its cell.
 * A short table (up to a third of a page) is kept whole; a long one never leaves a single
 * row alone at the top or bottom of a page.
 */
export function drawTable(
  pdf: ReportPdf,
  columns: TableColumn[],
  rows: string[][],
  options: TableOptions = {},
): void {
  const { doc } = pdf;
  const layout = tableLayout(pdf.contentWidth, columns, rows, options);
  const { lh, headerHeight, heights } = layout;
  const total = headerHeight + heights.reduce((a, b) => a + b, 0);
  const pageBody = pdf.bottom - PAGE_MARGINS.top;
  // Table > TR > TH (scope Column) / TD; a header repeated on a later page is an artifact.
  const run: TableRun = { pdf, columns, rows, options, layout, table: pdf.tags.element('Table') };
  const keepWhole = total <= pageBody / 3;
  const firstTwo = headerHeight + (heights[0] ?? 0) + (heights[1] ?? 0);
  pdf.ensureSpace(keepWhole ? total : firstTwo);
  drawHeader(run, false);
  if (rows.length === 0) drawEmpty(run);
  rows.forEach((_, r) => {
    const h = heights[r] ?? lh;
    // Break before this row when it does not fit, or when it would leave the last row alone.
    const lastTwo = r === rows.length - 2 && r > 1 ? h + (heights[r + 1] ?? 0) : h;
    if (doc.y + lastTwo > pdf.bottom) {
      pdf.newPage();
      drawHeader(run, true);
    }
    drawRow(run, r, h);
  });
  doc.x = pdf.left;
  doc.y += 10;
}

/** The header row at the current y: tagged TH cells, or an artifact when `repeated` on a later page. */
function drawHeader(run: TableRun, repeated: boolean): void {
  const { pdf, table, layout } = run;
  const { doc, tags } = pdf;
  const y = doc.y;
  const background = (): void => {
    doc.save();
    doc.rect(pdf.left, y, pdf.contentWidth, layout.headerHeight).fill(COLORS.header);
    doc.restore();
  };
  if (repeated)
    tags.artifact(() => {
      background();
      headerCells(run, y, (_, d) => d());
    }, 'Pagination');
  else {
    tags.artifact(background);
    const tr = tags.element('TR', {}, table);
    headerCells(run, y, (_, d) => tags.mark(tags.element('TH', { scope: 'Column' }, tr), d));
  }
  doc.y = y + layout.headerHeight;
}

/** Draws the header's cells at `y`, each through `cell` (which tags it or not). */
function headerCells(run: TableRun, y: number, cell: (i: number, draw: () => void) => void): void {
  const { pdf, columns } = run;
  const { size, pad, lh, widths, headerLines } = run.layout;
  pdf.doc.font(FONT_FAMILY_BOLD).fontSize(size).fillColor('white');
  let x = pdf.left;
  columns.forEach((c, i) => {
    const cw = widths[i] ?? 0;
    const cx = x;
    cell(i, () =>
      (headerLines[i] ?? []).forEach((line, k) => {
        putLine(pdf.doc, line, cx + pad, y + pad + k * lh, { width: cw - 2 * pad, align: c.align ?? 'left' });
      }),
    );
    x += cw;
  });
}

/** The one row of a table without rows: its empty text across every column. */
function drawEmpty(run: TableRun): void {
  const { pdf, columns, options } = run;
  const { size, pad, lh } = run.layout;
  const { doc, tags } = pdf;
  const td = tags.element('TD', { colSpan: columns.length }, tags.element('TR', {}, run.table));
  tags.mark(td, () =>
    doc
      .font(FONT_FAMILY)
      .fontSize(size)
      .fillColor(COLORS.muted)
      .text(options.emptyText ?? 'No data.', pdf.left + pad, doc.y + pad, { lineBreak: false }),
  );
  doc.y += lh + 2 * pad;
}

/** Row `r`, `h` points high, at the current y: zebra stripe, cells and the rule under it. */
function drawRow(run: TableRun, r: number, h: number): void {
  const { pdf, columns, options, layout } = run;
  const { doc, tags } = pdf;
  const lines = layout.cells[r] ?? [];
  const y = doc.y;
  if ((options.zebra ?? true) && r % 2 === 1) {
    tags.artifact(() => {
      doc.save();
      doc.rect(pdf.left, y, pdf.contentWidth, h).fill(COLORS.zebra);
      doc.restore();
    });
  }
  doc.font(FONT_FAMILY).fontSize(layout.size).fillColor(COLORS.ink);
  const tr = tags.element('TR', {}, run.table);
  let x = pdf.left;
  columns.forEach((c, i) => {
    drawCell(run, tr, { r, i, align: c.align ?? 'left' }, lines[i] ?? [], { x, y });
    x += layout.widths[i] ?? 0;
  });
  tags.artifact(() =>
    doc
      .moveTo(pdf.left, y + h)
      .lineTo(pdf.left + pdf.contentWidth, y + h)
      .lineWidth(0.4)
      .strokeColor(COLORS.rule)
      .stroke(),
  );
  doc.y = y + h;
}

/** Cell `i` of row `r` at (x, y): a TD of `tr`, its lines linked when the cell has a link. */
function drawCell(
  run: TableRun,
  tr: StructElement,
  cell: { r: number; i: number; align: 'left' | 'right' | 'center' },
  cellLines: string[],
  at: { x: number; y: number },
): void {
  const { pdf, rows, options } = run;
  const { pad, lh, widths } = run.layout;
  const { doc, tags } = pdf;
  const { r, i, align } = cell;
  const { x, y } = at;
  const cw = widths[i] ?? 0;
  const link = options.links?.[r]?.[i] ?? undefined;
  const td = tags.element('TD', {}, tr);
  if (link) {
    doc.fillColor(COLORS.accent);
    const description = rows[r]?.[i] || link;
    cellLines.forEach((line, k) => {
      linkedLine(pdf, td, { url: link }, description, line, x + pad, y + pad + k * lh, {
        width: cw - 2 * pad,
        align,
      });
    });
    doc.fillColor(COLORS.ink);
  } else {
    tags.mark(td, () =>
      cellLines.forEach((line, k) => {
        putLine(doc, line, x + pad, y + pad + k * lh, { width: cw - 2 * pad, align });
      }),
    );
  }
}
