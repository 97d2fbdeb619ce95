/**
 * The workbook's Summary sheet, the first a reader sees: the title, the baseline line, the
 * plan's note and the credits spent, the companies at a glance as an Excel table (investors
 * listed, new since the last run, top fit, top investor, why a company has no list, its sheet)
 * and what each sheet holds.
 */
import type { DataColumn, ReportWorkbook } from '../../../reports/excel/index.js';
import { formatInt, oneLine } from '../../../reports/format.js';
import type { ShortlistReport } from '../types.js';
import {
  BASELINE_LINE,
  creditsLine,
  problemSentence,
  shortlistSubtitle,
  shortlistTitle,
  topFit,
} from './text.js';

/** The overview's columns on the Summary sheet. */
export const OVERVIEW_COLUMNS: readonly DataColumn[] = [
  { header: 'Company', key: 'name', width: 30 },
  { header: 'Investors listed', key: 'listed', kind: 'int', width: 16 },
  { header: 'New since last run', key: 'fresh', kind: 'int', width: 19 },
  { header: 'Top fit', key: 'topFit', kind: 'number', numFmt: '0.0', width: 10 },
  { header: 'Top investor', key: 'top', width: 32 },
  { header: 'Credits charged', key: 'charged', kind: 'int', width: 16 },
  { header: 'Why no list', key: 'problem', width: 44, wrap: true },
  { header: 'Sheet', key: 'sheet', width: 24 },
];

/** Builds the Summary sheet; `sheets` are the company sheets' names, in the companies' order. */
export function writeSummarySheet(
  book: ReportWorkbook,
  report: ShortlistReport,
  sheets: readonly string[],
): void {
  const ws = book.addSummarySheet([]);
  let row = book.addTitle(ws, shortlistTitle(report), shortlistSubtitle(report));
  const investors = report.companies.reduce((n, c) => n + c.investors.length, 0);
  const fresh = report.companies.reduce((n, c) => n + c.newCount, 0);
  const lead = [
    ...(report.baseline ? [BASELINE_LINE] : []),
    ...(report.planNote ? [`Your plan limits this run: ${oneLine(report.planNote)}`] : []),
    creditsLine(report),
    `${formatInt(investors)} investors listed over ${formatInt(report.companies.length)} companies` +
      (report.baseline ? '.' : `, ${formatInt(fresh)} new since the last run.`) +
      ` ${formatInt(report.shared.length)} fit several of the companies (sheet Shared investors).`,
  ];
  row = book.addParagraphs(ws, lead, row, { span: 6, charsPerLine: 130 });
  row = book.addHeading(ws, 'Your companies at a glance', row);
  const { lastRow } = book.addDataTable(ws, {
    name: 'Overview',
    origin: { row, col: 1 },
    columns: [...OVERVIEW_COLUMNS],
    rows: report.companies.map((c, i) => ({
      name: c.name,
      listed: c.problem === null ? c.investors.length : null,
      fresh: c.problem !== null || report.baseline ? null : c.newCount,
      topFit: topFit(c),
      top: c.investors[0]?.name ?? null,
      charged: c.charged,
      problem: c.problem === null ? null : problemSentence(c.problem),
      sheet: sheets[i] ?? null,
    })),
  });
  book.addParagraphs(
    ws,
    [
      "A sheet per company: its investors in the service's ranking, new since the last run marked, fit, type, HQ, check size, thesis, reasons and recent portfolio; the service's charts under the list.",
      'Shared investors: the investors on two or more companies’ lists, with which companies and the best fit.',
      'Chart data (when a chart is drawn): the numbers of each chart, which the editable chart beside its image plots.',
    ],
    lastRow + 2,
    { heading: 'The sheets', span: 6, charsPerLine: 130 },
  );
}
