/**
 * The workbook's Summary sheet, the first a reader sees: the title, the baseline line, the
 * plan's note, the companies at a glance as an Excel table (each linked to its website; investors
 * listed, new since the last run, top fit as a percentage, top investor, why a company has no
 * list, its sheet, the answer its list came from) and what each sheet holds, and where the
 * figures come from. What the run spent is on the Run sheet.
 */
import type { DataColumn, ReportWorkbook } from '../../../reports/excel/index.js';
import { plural } from '../../../reports/editorial.js';
import { formatInt, oneLine } from '../../../reports/format.js';
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { SOURCE_COLUMN, sourceCell } from '../../../reports/sources.js';
import type { ShortlistReport } from '../types.js';
import { figureSourceLines } from './sources.js';
import { BASELINE_LINE, problemSentence, shortlistSubtitle, shortlistTitle, topFit } from './text.js';

/** The overview's columns on the Summary sheet. */
export const OVERVIEW_COLUMNS: readonly DataColumn[] = [
  { header: 'Company', key: 'name', linkKey: 'website', width: 30 },
  { header: 'Investors listed', key: 'listed', kind: 'int', width: 16 },
  { header: 'New since last run', key: 'fresh', kind: 'int', width: 19 },
  { header: 'Top fit', key: 'topFit', kind: 'pct', width: 10 },
  { header: 'Top investor', key: 'top', width: 32 },
  { header: 'Why no list', key: 'problem', width: 44, wrap: true },
  { header: 'Sheet', key: 'sheet', width: 24 },
  { header: SOURCE_COLUMN, key: 'source', width: 10 },
];

/** Builds the Summary sheet; `sheets` are the company sheets' names, in the companies' order. */
export function writeSummarySheet(
  book: ReportWorkbook,
  report: ShortlistReport,
  sheets: readonly string[],
  links: ServiceLinks | null = null,
): void {
  const ws = book.addSummarySheet([]);
  let row = book.addTitle(ws, shortlistTitle(report), shortlistSubtitle(report));
  const investors = report.companies.reduce((n, c) => n + c.investors.length, 0);
  const fresh = report.companies.reduce((n, c) => n + c.newCount, 0);
  const lead = [
    ...(report.baseline ? [BASELINE_LINE] : []),
    ...(report.planNote ? [`Your plan limits this run: ${oneLine(report.planNote)}`] : []),
    `${plural(investors, 'investor')} listed over ${plural(report.companies.length, 'company', 'companies')}` +
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
      website: readerUrl(c.website ?? null, links),
      listed: c.problem === null ? c.investors.length : null,
      fresh: c.problem !== null || report.baseline ? null : c.newCount,
      topFit: topFit(c),
      top: c.investors[0]?.name ?? null,
      problem: c.problem === null ? null : problemSentence(c.problem),
      sheet: sheets[i] ?? null,
      source: sourceCell(report.sources, [c.source]),
    })),
  });
  const next = book.addParagraphs(
    ws,
    [
      "A sheet per company: its investors in the service's ranking, a partner from the team, new since the last run marked, fit, check size, every reason (the most telling first), thesis, type, HQ and recent portfolio; the service's charts under the list.",
      'Shared investors: the investors on two or more companies’ lists, with which companies and the best fit.',
      'Run: what the run spent, credits per company.',
      'Chart data (when a chart is drawn): the numbers each chart plots.',
      'Sources: every answer of the service the report was made from, numbered S1, S2 and so on, with its parameters, time, credits and store reference.',
    ],
    lastRow + 2,
    { heading: 'The sheets', span: 6, charsPerLine: 130 },
  );
  book.addParagraphs(ws, figureSourceLines(report), next, {
    heading: 'Where the figures come from',
    span: 6,
    charsPerLine: 130,
  });
}
