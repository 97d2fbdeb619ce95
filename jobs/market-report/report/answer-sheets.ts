/**
 * The workbook's sheets of the data agent's answers: Agent answers (every question, its answer
 * and why one was not asked) and a sheet per answer with rows ("Answer 2"), its rows as an
 * Excel table with the answer's charts beside it. Every row names its stored answer (Source).
 */
import { readerSentence, stageLabel } from '../../../reports/editorial.js';
import { isIdentifierKey, unitFromKey } from '../../../reports/charts/index.js';
import type { ColumnKind, DataColumn } from '../../../reports/excel/index.js';
import { SOURCE_COLUMN } from '../../../reports/sources.js';
import { answerColumnsForSheet, answerHeader, isDateColumn, isNumericColumn } from './answers.js';
import { answerChartId } from './charts.js';
import type { AgentAnswer } from './model.js';
import { placeCharts, SOURCE, sourceCell } from './sheet-helpers.js';
import type { SheetCtx } from './sheet-helpers.js';

export function writeAnswerSheets(ctx: SheetCtx): void {
  agentAnswersSheet(ctx);
  ctx.model.answers.forEach((a, i) => answerRowsSheet(ctx, a, i));
}

/** How an answer column is written: ids and years as plain numbers, amounts in dollars, dates as dates. */
function answerKind(a: AgentAnswer, column: string): ColumnKind {
  const rows = a.rows ?? [];
  if (isNumericColumn(rows, column)) {
    if (isIdentifierKey(column)) return 'id';
    const unit = unitFromKey(column);
    if (unit === 'usd') return 'usd';
    if (unit === 'pct') return 'pct';
    return rows.every((r) => typeof r[column] !== 'number' || Number.isInteger(r[column])) ? 'int' : 'number';
  }
  return isDateColumn(rows, column) ? 'date' : 'text';
}

/** Agent answers: one row per question, naming the sheet of its rows. */
function agentAnswersSheet(ctx: SheetCtx): void {
  const { book, url } = ctx;
  book.addDataTable(book.addSheet('Agent answers'), {
    name: 'AgentAnswers',
    columns: [
      { header: '#', key: 'n', kind: 'int', width: 6 },
      { header: 'Question', key: 'question', width: 50, wrap: true },
      { header: 'Country', key: 'country' },
      { header: 'Answer', key: 'answer', width: 80, linkKey: 'url', wrap: true },
      { header: 'Rows', key: 'rowCount', kind: 'int', width: 8 },
      { header: 'Skipped because', key: 'skipped', width: 40, wrap: true },
      { header: 'Rows sheet', key: 'sheet', width: 16 },
      SOURCE,
    ],
    rows: ctx.model.answers.map((a, i) => ({
      ...a,
      answer: a.answer ? readerSentence(a.answer) : a.answer,
      url: url(a.url),
      n: i + 1,
      rowCount: a.rows?.length ?? 0,
      sheet: (a.rows?.length ?? 0) > 0 ? `Answer ${i + 1}` : null,
      source: sourceCell(a.source),
    })),
  });
}

/** One answer's rows (none: no sheet), stages in words and links a reader can open, then its charts. */
function answerRowsSheet(ctx: SheetCtx, a: AgentAnswer, i: number): void {
  const { book, url } = ctx;
  const rows = a.rows ?? [];
  if (rows.length === 0) return;
  const cols = answerColumnsForSheet(a);
  const ws = book.addSheet(`Answer ${i + 1}`);
  const columns: DataColumn[] = cols.map((c) => ({
    header: answerHeader(c),
    key: c,
    kind: answerKind(a, c),
  }));
  // The stored answer every row came from, in a column of its own (named apart from an answer's own "source").
  const sourceKey = uniqueKey('_source', cols);
  const sourceHeader = columns.some((c) => c.header.toLowerCase() === SOURCE_COLUMN.toLowerCase())
    ? `${SOURCE_COLUMN} (Sources sheet)`
    : SOURCE_COLUMN;
  const source = sourceCell(a.source);
  const table = book.addDataTable(ws, {
    name: `Answer${i + 1}`,
    columns: [...columns, { ...SOURCE, key: sourceKey, header: sourceHeader }],
    rows: rows.map((r) => ({
      ...Object.fromEntries(
        Object.entries(r).map(([k, v]) => [
          k,
          typeof v === 'string' && /(^|_)stage$/i.test(k)
            ? stageLabel(v)
            : /(^|_)url$/i.test(k)
              ? url(typeof v === 'string' ? v : null)
              : v,
        ]),
      ),
      [sourceKey]: source,
    })),
  });
  const own = ctx.planned.filter((p) => p.place.kind === 'answer' && p.place.answer === i);
  // The chart the report draws from the rows (when the service sent none) plots the table.
  const fromRows = own.find((p) => p.id === answerChartId(i, 0) && !p.fromService);
  placeCharts(ctx, ws, own, 1, cols.length + 3, {
    byId: new Map(fromRows ? [[fromRows.id, { table: table.cells }]] : []),
    any: [table.cells],
  });
}

/** `base`, or `base` with underscores before it, so that it is none of `taken`. */
function uniqueKey(base: string, taken: readonly string[]): string {
  let key = base;
  while (taken.includes(key)) key = `_${key}`;
  return key;
}
