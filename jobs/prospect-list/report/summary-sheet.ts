/**
 * The workbook's Summary sheet, the first a sales lead sees: on the left (columns A to C) the
 * key figures (with a line on which the runner computed and from which stored answers), the
 * briefs and searches (what each gave, credits, caps, its answers on the Sources sheet), what
 * was left out, the suppression list with its malformed rows quoted, and the limits; on the
 * right (from column E) the five charts one under the other, or why a chart is not drawn.
 */
import type ExcelJS from 'exceljs';
import { safeText } from '../../../reports/excel/index.js';
import type { KeyFigureCell, StreamingReportWorkbook } from '../../../reports/excel/index.js';
import { formatDate, formatInt } from '../../../reports/format.js';
import { COMPUTED_BY_RUNNER, SOURCE_COLUMN, SOURCES_SHEET, sourceSpan } from '../../../reports/sources.js';
import type { ProspectSummary } from '../types.js';
import type { ProspectChart } from './charts.js';
import { briefTitle, leftOutCounts, leftOutLines, sourceLines } from './text.js';

/** Column of the charts; columns A to C hold the figures and D is a gap. */
const CHART_COL = 5;
/** Charts are shown 1.3 times their rendered width (their PNG has twice the pixels). */
const CHART_ZOOM = 1.3;
const WIDTHS = [46, 14, 60, 3];

function keyFigures(summary: ProspectSummary): KeyFigureCell[] {
  const c = summary.counts;
  const s = summary.stats;
  return [
    { label: 'Run date', value: summary.date, kind: 'date' },
    {
      label: 'Companies listed',
      value: c.listed,
      kind: 'int',
      note: `${formatInt(c.merged)} companies after merging ${formatInt(c.sourceRecords)} records from the sources`,
    },
    { label: 'Net new', value: c.netNew, kind: 'int', note: 'not delivered by an earlier run' },
    { label: 'Marked as delivered before', value: c.markedDelivered, kind: 'int' },
    ...leftOutCounts(summary).map((l): KeyFigureCell => ({
      label: `Left out: ${l.reason}`,
      value: l.count,
      kind: 'int',
    })),
    ...(summary.job.keepClosed
      ? [
          {
            label: 'Closed or acquired, kept and flagged',
            value: c.flaggedClosed ?? 0,
            kind: 'int',
            note: 'keepClosed: the "Closed or acquired" column',
          } satisfies KeyFigureCell,
        ]
      : []),
    { label: 'Scored by fit (find_customers)', value: c.scored, kind: 'int' },
    {
      label: 'Enriched (get_startup)',
      value: c.enriched,
      kind: 'int',
      note: `of the top ${formatInt(c.enrichAsked)} rows`,
    },
    {
      label: 'Status',
      value: s.partial ? 'Partial' : 'Complete',
      note: s.reasons.join('; '),
    },
  ];
}

/**
 * What the key figures and the Prospects sheet are made of: the counts, the charts and the
 * runner's own columns computed by the runner (from which stored answers), the rest read from
 * the answers each row's Source names; fit and momentum are the service's scores.
 */
export function provenanceNote(summary: ProspectSummary): string {
  const span = sourceSpan((summary.sources ?? []).map((s) => s.id));
  const from = summary.sources
    ? `from the stored answers ${span || '(none)'} on the ${SOURCES_SHEET} sheet`
    : `from the run's stored answers (this run was made before its report listed them: see the ${SOURCES_SHEET} sheet)`;
  return (
    `Counts above and the charts: ${COMPUTED_BY_RUNNER} ${from}, as are a row's Rank, Found by, ` +
    `Delivered on and Closed or acquired. Every other figure of a Prospects or Suppressed row is ` +
    `read from the answers its "${SOURCE_COLUMN}" column names; fit and momentum are the service's ` +
    `scores (find_customers), the best fit kept where several briefs scored a company.`
  );
}

/** The run's own figures (credits, calls, balance): an appendix under the sales lead's figures. */
function runFigures(summary: ProspectSummary): [string, number | null, string][] {
  const s = summary.stats;
  return [
    [
      'Credits spent',
      s.creditsSpent,
      s.creditsBudget > 0 ? `budget ${formatInt(s.creditsBudget)}` : 'no budget set',
    ],
    ['Account balance after the run', s.accountBalance, 'credits'],
    ['Calls made', s.callsMade, 'to the service'],
  ];
}

/** A 3-column block: a heading, a header row and rows of label, number, details. Returns the next free row. */
function block(
  book: StreamingReportWorkbook,
  ws: ExcelJS.Worksheet,
  row: number,
  heading: string,
  headers: [string, string, string],
  rows: [string, number | null, string][],
): number {
  let r = book.addHeading(ws, heading, row);
  book.addHeaderRow(ws, r++, headers);
  for (const [label, n, details] of rows) {
    const a = ws.getCell(r, 1);
    a.value = safeText(label);
    a.alignment = { wrapText: true, vertical: 'top' };
    const b = ws.getCell(r, 2);
    b.value = n;
    b.numFmt = '#,##0';
    b.alignment = { vertical: 'top' };
    const c = ws.getCell(r, 3);
    c.value = safeText(details);
    c.alignment = { horizontal: 'left', wrapText: true, vertical: 'top', indent: 1 };
    book.fitRowHeight(ws, r, [
      [label, WIDTHS[0] ?? 10],
      [details, (WIDTHS[2] ?? 10) - 2],
    ]);
    r++;
  }
  return r + 1;
}

function sourcesBlock(
  book: StreamingReportWorkbook,
  ws: ExcelJS.Worksheet,
  summary: ProspectSummary,
  row: number,
): number {
  const rows = sourceLines(summary).map((s): [string, number | null, string] => {
    const details =
      s.credits !== null
        ? [`${formatInt(s.credits)} credits charged`, s.note]
        : [
            s.total !== null ? `${formatInt(s.total)} matching` : 'matching count not given',
            // A capped search's note says its cap already.
            /\bcap\b/.test(s.note) ? null : `cap ${formatInt(s.cap)}`,
            s.note,
          ];
    const answers = sourceSpan(s.sourceIds);
    if (answers !== '') details.push(`${SOURCES_SHEET} sheet: ${answers}`);
    return [`${s.label}: ${s.asked}`, s.rows, details.filter(Boolean).join(' · ')];
  });
  if (rows.length === 0) rows.push(['No brief and no search.', null, '']);
  return block(
    book,
    ws,
    row,
    'Briefs and searches',
    ['Brief or search: what was asked', 'Companies', 'Credits, matching, cap, note, answers'],
    rows,
  );
}

function suppressionBlock(
  book: StreamingReportWorkbook,
  ws: ExcelJS.Worksheet,
  summary: ProspectSummary,
  row: number,
): number {
  let r = book.addParagraphs(ws, leftOutLines(summary), row, {
    heading: 'Left out',
    span: 3,
    charsPerLine: 110,
  });
  const s = summary.suppression;
  if (!s) return book.addParagraphs(ws, ['The job has no suppression list.'], r, { span: 3 });
  r = block(
    book,
    ws,
    r,
    'Suppression list',
    ['File', 'Rows', 'Note'],
    [
      [s.file, s.rows, 'rows read from the file'],
      [
        'Malformed rows',
        s.malformed,
        s.malformed > 0 ? 'left out of the matching; the first are quoted below' : '',
      ],
    ],
  );
  if (s.examples.length > 0) r = book.addParagraphs(ws, s.examples, r - 1, { span: 3, charsPerLine: 110 });
  return r;
}

/** Builds the Summary sheet whole and commits it (streamed sheets go into the file in order). */
export function writeSummarySheet(
  book: StreamingReportWorkbook,
  summary: ProspectSummary,
  charts: readonly ProspectChart[],
): number {
  const ws = book.addSummarySheet(WIDTHS);
  const title = briefTitle(summary);
  let row = book.addTitle(
    ws,
    title,
    `Prospect list of ${formatDate(summary.date)} · job ${summary.job.id} · the Prospects sheet has every company, Suppressed those left out`,
  );
  const top = row;
  row = book.addKeyFigures(ws, keyFigures(summary), row);
  row = book.addParagraphs(ws, [provenanceNote(summary)], row - 1, { span: 3, charsPerLine: 110 });
  row = sourcesBlock(book, ws, summary, row);
  row = suppressionBlock(book, ws, summary, row);
  if (summary.limits.length > 0)
    row = book.addParagraphs(ws, summary.limits, row, { heading: 'Limits', span: 3, charsPerLine: 110 });
  if (summary.notProvided.length > 0)
    row = book.addParagraphs(
      ws,
      [`Not provided by the service for any company: ${summary.notProvided.join(', ')}.`],
      row,
      {
        span: 3,
        charsPerLine: 110,
      },
    );
  block(book, ws, row, 'Appendix: the run', ['Figure', 'Value', 'Note'], runFigures(summary));
  // Native charts only unless the job asks for pictures too (chartImages): a printout shows each
  // chart once.
  const pictures = summary.job.chartImages === true;
  const images = pictures ? charts.filter((c) => c.rendered).length : 0;
  book.addChartColumn(ws, charts, { row: top, col: CHART_COL }, CHART_ZOOM, { images: pictures });
  ws.commit();
  return images;
}
