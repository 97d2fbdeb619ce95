/**
 * The PDF's section of the data agent's answers: each question as asked, the agent's answer,
 * the rows it returned as a table (columns sized to their values, at most 25 rows) with the
 * answer's charts, and what the workbook holds beyond the table.
 */
import { readerSentence } from '../../../reports/editorial.js';
import { measureText } from '../../../reports/fonts.js';
import type { TableColumn } from '../../../reports/pdf/index.js';
import {
  answerCellText,
  answerColumnsForPdf,
  answerHeader,
  answerTitle,
  answerUnits,
  isDateColumn,
  isNumericColumn,
} from './answers.js';
import type { AgentAnswer } from './model.js';
import { link, MAX_TABLE_ROWS, MUTED, tableAndCharts } from './pdf-layout.js';
import type { Ctx, TableBlock } from './pdf-layout.js';

export function answersSection(ctx: Ctx): void {
  const { model, pdf } = ctx;
  if (model.answers.length === 0) return;
  pdf.heading('Data agent answers', 1);
  pdf.paragraph(
    'Questions put to the service’s data agent (ask) for this report, with the rows it returned. Answers are the agent’s own words.',
    { color: MUTED },
  );
  model.answers.forEach((a, i) => answerPart(ctx, a, i));
}

/** One answer: its question, the answer, its rows and charts, and what is left to the workbook. */
function answerPart(ctx: Ctx, a: AgentAnswer, i: number): void {
  const { pdf } = ctx;
  pdf.heading(`${i + 1}. ${answerTitle(a.question, a.country)}`, 2, { keepWith: 80 });
  pdf.paragraph(`Question as asked: “${a.question}”`, { size: 8, color: MUTED, gap: 2 });
  if (a.skipped) {
    pdf.paragraph(`Not asked: ${a.skipped}`, { color: '#c0392b' });
    return;
  }
  if (a.answer) pdf.paragraph(readerSentence(a.answer));
  const rows = a.rows ?? [];
  const { shown, left } = answerColumnsForPdf(a);
  const table = rows.length > 0 && shown.length > 0 ? answerTable(ctx, rows, shown) : null;
  const charts = ctx.planned.filter((p) => p.place.kind === 'answer' && p.place.answer === i);
  for (const b of tableAndCharts(ctx, table, charts, true)) b.draw();
  const notes: string[] = [];
  if (rows.length > MAX_TABLE_ROWS) notes.push(`${rows.length - MAX_TABLE_ROWS} more rows in the workbook`);
  if (left.length > 0)
    notes.push(
      `${left.length} more column${left.length > 1 ? 's' : ''} in the workbook (${left.map(answerHeader).join(', ')})`,
    );
  if (notes.length > 0) pdf.paragraph(`${notes.join('; ')}.`, { size: 8, color: MUTED });
  const url = link(ctx, a.url);
  if (url) pdf.paragraph(`Full answer: ${url}`, { size: 8, link: url });
}

/** The first rows of an answer in its shown columns, each column as wide as its values need. */
function answerTable(ctx: Ctx, rows: Record<string, unknown>[], shown: string[]): TableBlock {
  const list = rows.slice(0, MAX_TABLE_ROWS);
  const dates = new Set(shown.filter((c) => isDateColumn(rows, c)));
  const units = answerUnits(list, shown);
  const widths = fitWidths(
    shown.map((c) => columnWeight(c, list, dates.has(c))),
    ctx.pdf.pageContentWidth,
  );
  return {
    columns: shown.map(
      (c, k) =>
        ({
          header: answerHeader(c),
          width: widths[k] ?? 1,
          align: isNumericColumn(list, c) ? 'right' : 'left',
        }) satisfies TableColumn,
    ),
    rows: list.map((r) => shown.map((c) => answerCellText(r[c], c, dates.has(c), units.get(c)))),
  };
}

/**
 * Width of an answer column in points (the table scales the widths to the page): room for
 * the widest value up to 160 pt and for the longest word of the header, so that neither a
 * date nor a header word is split.
 */
function columnWeight(column: string, rows: Record<string, unknown>[], dates: boolean): number {
  const values = rows.slice(0, 30).map((r) => measureText(answerCellText(r[column], column, dates), 8));
  const words = answerHeader(column)
    .split(/\s+/)
    .map((w) => measureText(w, 8, true));
  return Math.max(Math.min(160, Math.max(0, ...values)), ...words, 24) + 8;
}

/**
 * Widths that fill `total`: when the natural widths are too wide, only the part of each
 * column beyond `floor` shrinks (long names and sectors wrap; dates, stages and amounts keep
 * their width); when they are narrower, every column grows in proportion.
 */
export function fitWidths(natural: number[], total: number, floor = 72): number[] {
  const sum = natural.reduce((a, b) => a + b, 0);
  if (sum <= total || sum === 0) return natural;
  const excess = sum - total;
  const shrinkable = natural.reduce((a, w) => a + Math.max(0, w - floor), 0);
  if (shrinkable < excess) return natural.map((w) => (w / sum) * total);
  return natural.map((w) => w - (Math.max(0, w - floor) / shrinkable) * excess);
}
