/**
 * Charts of a report in the PDF: a chart, or where it would be its title and why it is not
 * drawn; charts side by side under one heading, a lone chart at half the width like the charts
 * above it.
 */
import type { ChartImage } from './chart-figure.js';
import type { ReportPdf } from './document.js';
import type { RowCell } from './rows.js';
import { COLORS } from './theme.js';

/** A chart as a report shows it: drawn, or the reason it is not. */
export interface NotedChart {
  title: string;
  rendered: ChartImage | null;
  note: string | null;
  /** What it was drawn from (`sourceCaption`), printed under it. */
  source?: string | null;
}

/** A row cell with the chart, or its title and why it is not drawn. */
export function chartCell(pdf: ReportPdf, chart: NotedChart): RowCell {
  const rendered = chart.rendered;
  const caption = chart.source ?? undefined;
  if (rendered)
    return {
      measure: () => pdf.chartHeight(rendered, caption ? { caption } : {}),
      draw: () => pdf.chart(rendered, { alt: rendered.alt ?? chart.title, ...(caption ? { caption } : {}) }),
    };
  const note = chart.note ?? 'Nothing to draw.';
  return {
    measure: () => pdf.paragraphHeight(chart.title, { size: 10 }) + pdf.paragraphHeight(note, { size: 8.5 }),
    draw: () => {
      pdf.paragraph(chart.title, { size: 10, color: COLORS.accent });
      pdf.paragraph(note, { size: 8.5, color: COLORS.muted });
    },
  };
}

/**
 * A level-2 heading kept with the first row of charts, then the rows side by side; a row of one
 * chart keeps half the width. Rows without a chart are left out; nothing is drawn when none is left.
 */
export function chartRows(pdf: ReportPdf, heading: string, rows: readonly (readonly NotedChart[])[]): void {
  const cells = rows
    .filter((cs) => cs.length > 0)
    .map((cs) => {
      const row = cs.map((c) => chartCell(pdf, c));
      return row.length === 1 ? [...row, { measure: () => 0, draw: () => undefined }] : row;
    });
  const first = cells[0];
  if (!first) return;
  pdf.heading(heading, 2, { keepWith: pdf.measureRow(first) });
  for (const row of cells) pdf.row(row);
}
