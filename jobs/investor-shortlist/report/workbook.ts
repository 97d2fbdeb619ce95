/**
 * The investor shortlist as a workbook: Summary (the companies at a glance), a sheet per
 * company (its ranked investors as an Excel table: frozen header, filter buttons, fit as 0.0,
 * checks in USD; the service's charts as images under the list; or why the company has no list)
 * and Shared investors. Every text cell from the service is formula-safe; names link to the
 * investor's http(s) page only; lists are joined by "; ".
 */
import { ReportWorkbook, sanitizeSheetName } from '../../../reports/excel/index.js';
import type { DataColumn } from '../../../reports/excel/index.js';
import type { CompanySection, ShortlistReport } from '../types.js';
import { companyCharts } from './charts.js';
import type { ShortlistChart } from './charts.js';
import { writeSummarySheet } from './summary-sheet.js';
import { problemSentence, shortlistTitle } from './text.js';

/** Fit in percent points with one decimal. */
const FIT = '0.0';
/** Charts are shown at their rendered size (their PNG has twice the pixels). */
const CHART_ZOOM = 1;

/** A company sheet's columns, in order. */
export const INVESTOR_COLUMNS: readonly DataColumn[] = [
  { header: 'Rank', key: 'rank', kind: 'int', width: 7 },
  { header: 'Investor', key: 'name', linkKey: 'url', width: 30 },
  { header: 'New since last run', key: 'isNew', width: 12 },
  { header: 'Fit', key: 'fit', kind: 'number', numFmt: FIT, width: 8 },
  { header: 'Type', key: 'type', width: 16 },
  { header: 'HQ city', key: 'city', width: 16 },
  { header: 'HQ country', key: 'country', width: 16 },
  { header: 'Check min (USD)', key: 'checkMin', kind: 'usd', width: 16 },
  { header: 'Check max (USD)', key: 'checkMax', kind: 'usd', width: 16 },
  { header: 'Thesis', key: 'thesis', width: 50, wrap: true },
  { header: 'Why', key: 'why', width: 60, wrap: true },
  { header: 'Recent portfolio', key: 'portfolio', width: 36, wrap: true },
  { header: 'Service key', key: 'key', width: 16 },
];

/** The Shared investors sheet's columns. */
export const SHARED_COLUMNS: readonly DataColumn[] = [
  { header: 'Investor', key: 'name', width: 30 },
  { header: 'Companies', key: 'count', kind: 'int', width: 12 },
  { header: 'Which companies', key: 'companies', width: 60, wrap: true },
  { header: 'Best fit', key: 'bestFit', kind: 'number', numFmt: FIT, width: 10 },
  { header: 'Service key', key: 'key', width: 16 },
];

function investorRows(report: ShortlistReport, c: CompanySection): Record<string, unknown>[] {
  return c.investors.map((r) => ({
    rank: r.rank,
    name: r.name,
    url: r.url,
    isNew: report.baseline ? 'baseline' : r.isNew ? 'NEW' : 'No',
    fit: r.fitPct,
    type: r.investorType,
    city: r.hqCity,
    country: r.hqCountry,
    checkMin: r.checkMinUsd,
    checkMax: r.checkMaxUsd,
    thesis: r.thesis,
    why: r.why.length > 0 ? r.why.join('; ') : null,
    portfolio: r.recentPortfolio.length > 0 ? r.recentPortfolio.join('; ') : null,
    key: r.key,
  }));
}

/** What `writeShortlistWorkbook` wrote. */
export interface ShortlistWorkbookResult {
  path: string;
  /** The sheets, in order. */
  sheets: string[];
  /** Charts placed as images. */
  images: number;
  /** URL cells left empty: their value was not an http(s) URL. */
  urlsLeftOut: number;
}

/**
 * Writes the shortlist's workbook to `path` (in memory: at most 50 companies of at most a few
 * dozen investors). The charts are the ones rendered for the PDF.
 *
 * @example
 * const charts = await renderShortlistCharts(report);
 * await writeShortlistWorkbook(report, 'out/shortlist.xlsx', charts);
 */
export async function writeShortlistWorkbook(
  report: ShortlistReport,
  path: string,
  charts: readonly ShortlistChart[],
  options: { created?: Date } = {},
): Promise<ShortlistWorkbookResult> {
  const runDay = new Date(`${report.date}T00:00:00Z`);
  const book = new ReportWorkbook({
    title: shortlistTitle(report),
    created: options.created ?? (Number.isNaN(runDay.getTime()) ? new Date() : runDay),
  });
  // The company sheets' names, known before the Summary links to them; Summary, Shared
  // investors and Chart data (added with the first chart) are taken first so that no company
  // takes them.
  const used = new Set(['summary', 'shared investors', 'chart data']);
  const names = report.companies.map((c) => sanitizeSheetName(c.name, used));
  writeSummarySheet(book, report, names);
  let images = 0;
  report.companies.forEach((c, i) => {
    const ws = book.addSheet(names[i] ?? c.name, { tabColor: c.problem === null ? 'FF2E8B57' : 'FFC0392B' });
    let row: number;
    if (c.problem !== null) {
      row = book.addTitle(ws, c.name, 'No investors listed');
      row = book.addParagraphs(ws, [problemSentence(c.problem)], row, { span: 6, charsPerLine: 90 });
    } else {
      row =
        book.addDataTable(ws, {
          name: `Investors ${c.name}`,
          columns: [...INVESTOR_COLUMNS],
          rows: investorRows(report, c),
        }).lastRow + 2;
    }
    const { drawn, notes } = companyCharts(charts, i);
    if (drawn.length + notes.length === 0) return;
    row = book.addHeading(ws, "The service's match overview", row);
    for (const n of notes) row = book.addParagraphs(ws, [n], row, { span: 6, charsPerLine: 90 }) - 1;
    book.addChartColumn(ws, drawn, { row, col: 2 }, CHART_ZOOM);
    images += drawn.length;
  });
  book.addDataTable(book.addSheet('Shared investors', { tabColor: 'FF8E44AD' }), {
    name: 'SharedInvestors',
    columns: [...SHARED_COLUMNS],
    rows: report.shared.map((s) => ({
      name: s.name,
      count: s.companies.length,
      companies: s.companies.join('; '),
      bestFit: s.bestFit,
      key: s.key,
    })),
  });
  await book.writeTo(path);
  return { path, sheets: book.wb.worksheets.map((w) => w.name), images, urlsLeftOut: book.urls.leftOut };
}
