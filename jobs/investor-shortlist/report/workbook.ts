/**
 * The investor shortlist as a workbook: Summary (the companies at a glance, each linked to its
 * website), a sheet per company (its ranked investors as an Excel table: frozen header, filter
 * buttons, fit as a percentage as in the PDF, a partner from the team, check sizes in the PDF's
 * unit named in the header, every reason whole and the most telling first; the service's charts
 * under the list as native Excel charts, pictures too with `chartImages`; or why the company has
 * no list), Shared investors, and Run (what the run spent: credits per company). Every text cell
 * from the service is formula-safe; an investor's name links to its website, else to its page at
 * the service when a reader can open it (readerUrl); lists are joined by "; ". A company sheet
 * prints the columns a person reads (printColumns). Provenance: every data row's last column,
 * Source, names the answers of the Sources sheet (the last sheet) it came from, and what the
 * runner computed (new since the last run, shared investors, credits) says so in a Basis column.
 */
import { ReportWorkbook, sanitizeSheetName } from '../../../reports/excel/index.js';
import type { DataColumn } from '../../../reports/excel/index.js';
import { moneyHeader, stagesInWords } from '../../../reports/editorial.js';
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { addSourcesSheet, SOURCE_COLUMN, sourceCell } from '../../../reports/sources.js';
import type { CompanySection, ShortlistReport } from '../types.js';
import { runLines } from './appendix.js';
import { companyCharts } from './charts.js';
import type { ShortlistChart } from './charts.js';
import { investorLink } from './company.js';
import { CREDITS_BASIS, NEW_BASIS, SHARED_BASIS } from './sources.js';
import { writeSummarySheet } from './summary-sheet.js';
import { checkFormat, problemSentence, reasonText, shortlistTitle, tellingFirst } from './text.js';
import type { CheckFormat } from './text.js';

/** Charts are shown at their rendered size (their PNG has twice the pixels). */
const CHART_ZOOM = 1;

/** The check columns' number format: the table's decimals (`#,##0.00`). */
const checkNumFmt = (f: CheckFormat): string => (f.digits > 0 ? `#,##0.${'0'.repeat(f.digits)}` : '#,##0');

/**
 * A company sheet's columns, in order: the ones a person reads first (printed), then type, HQ,
 * recent portfolio, links and the service key. The check columns are in `format`'s unit.
 */
export function investorColumns(format: CheckFormat): DataColumn[] {
  return [
    { header: 'Rank', key: 'rank', kind: 'int', width: 6 },
    { header: 'Investor', key: 'name', linkKey: 'link', width: 26 },
    { header: 'Partner', key: 'partner', width: 22, wrap: true },
    { header: 'New since last run', key: 'isNew', width: 10 },
    { header: 'Fit', key: 'fit', kind: 'pct', width: 8 },
    {
      header: moneyHeader('Check min', format.unit),
      key: 'checkMin',
      kind: 'number',
      numFmt: checkNumFmt(format),
      width: 11,
    },
    {
      header: moneyHeader('Check max', format.unit),
      key: 'checkMax',
      kind: 'number',
      numFmt: checkNumFmt(format),
      width: 11,
    },
    { header: 'Why', key: 'why', width: 48, wrap: true },
    { header: 'Thesis', key: 'thesis', width: 36, wrap: true },
    { header: 'Type', key: 'type', width: 14 },
    { header: 'HQ city', key: 'city', width: 14 },
    { header: 'HQ country', key: 'country', width: 14 },
    { header: 'Recent portfolio', key: 'portfolio', width: 30, wrap: true },
    { header: 'Website', key: 'website', kind: 'url', width: 26 },
    { header: 'Service profile', key: 'profile', kind: 'url', width: 26 },
    { header: 'Service key', key: 'key', width: 16 },
    { header: 'Basis', key: 'basis' },
    { header: SOURCE_COLUMN, key: 'source', width: 12 },
  ];
}

/** A company sheet prints its first columns, the ones a person reads (to the thesis). */
export const INVESTOR_PRINTED_COLUMNS = 9;

/** The Shared investors sheet's columns. */
export const SHARED_COLUMNS: readonly DataColumn[] = [
  { header: 'Investor', key: 'name', linkKey: 'link', width: 30 },
  { header: 'Companies', key: 'count', kind: 'int', width: 12 },
  { header: 'Which companies', key: 'companies', width: 60, wrap: true },
  { header: 'Best fit', key: 'bestFit', kind: 'pct', width: 10 },
  { header: 'Service key', key: 'key', width: 16 },
  { header: 'Basis', key: 'basis' },
  { header: SOURCE_COLUMN, key: 'source', width: 14 },
];

/** The Run sheet's columns: what each company's list cost. */
export const RUN_COLUMNS: readonly DataColumn[] = [
  { header: 'Company', key: 'name', width: 36 },
  { header: 'Credits charged', key: 'charged', kind: 'int', width: 16 },
  { header: 'Basis', key: 'basis' },
  { header: SOURCE_COLUMN, key: 'source', width: 10 },
];

function investorRows(
  report: ShortlistReport,
  c: CompanySection,
  format: CheckFormat,
  links: ServiceLinks | null,
): Record<string, unknown>[] {
  const base = { K: 1e3, M: 1e6, B: 1e9 }[format.unit];
  const inUnit = (v: number | null) => (v === null ? null : v / base);
  return c.investors.map((r) => ({
    rank: r.rank,
    name: r.name,
    link: investorLink(r, links),
    partner: r.partner ? (r.partner.role ? `${r.partner.name} (${r.partner.role})` : r.partner.name) : null,
    isNew: report.baseline ? 'baseline' : r.isNew ? 'NEW' : 'No',
    fit: r.fitPct,
    type: r.investorType,
    city: r.hqCity,
    country: r.hqCountry,
    checkMin: inUnit(r.checkMinUsd),
    checkMax: inUnit(r.checkMaxUsd),
    thesis: r.thesis ? stagesInWords(r.thesis) : null,
    why: r.why.length > 0 ? tellingFirst(r.why).map(reasonText).join('; ') : null,
    portfolio: r.recentPortfolio.length > 0 ? r.recentPortfolio.join('; ') : null,
    website: readerUrl(r.website ?? null, links),
    profile: readerUrl(r.url, links),
    key: r.key,
    basis: report.baseline ? null : NEW_BASIS,
    source: sourceCell(report.sources, r.sources ?? []),
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
  options: {
    created?: Date;
    links?: ServiceLinks | null;
    chartImages?: boolean;
    /** The run the report was made by (named when the report kept no sources). */
    runKey?: string;
  } = {},
): Promise<ShortlistWorkbookResult> {
  const links = options.links ?? null;
  const runDay = new Date(`${report.date}T00:00:00Z`);
  const book = new ReportWorkbook({
    title: shortlistTitle(report),
    created: options.created ?? (Number.isNaN(runDay.getTime()) ? new Date() : runDay),
  });
  // The company sheets' names, known before the Summary links to them; Summary, Shared
  // investors and Chart data (added with the first chart) are taken first so that no company
  // takes them.
  const used = new Set(['summary', 'shared investors', 'run', 'chart data', 'sources']);
  const names = report.companies.map((c) => sanitizeSheetName(c.name, used));
  writeSummarySheet(book, report, names, links);
  let images = 0;
  report.companies.forEach((c, i) => {
    const ws = book.addSheet(names[i] ?? c.name, { tabColor: c.problem === null ? 'FF2E8B57' : 'FFC0392B' });
    let row: number;
    if (c.problem !== null) {
      row = book.addTitle(ws, c.name, 'No investors listed');
      row = book.addParagraphs(ws, [problemSentence(c.problem)], row, { span: 6, charsPerLine: 90 });
    } else {
      const format = checkFormat(c.investors.filter((r) => r.enriched));
      row =
        book.addDataTable(ws, {
          name: `Investors ${c.name}`,
          columns: investorColumns(format),
          rows: investorRows(report, c, format, links),
        }).lastRow + 2;
      book.printColumns(ws, INVESTOR_PRINTED_COLUMNS);
    }
    const { drawn, notes } = companyCharts(charts, i);
    if (drawn.length + notes.length === 0) return;
    row = book.addHeading(ws, "The service's match overview", row);
    for (const n of notes) row = book.addParagraphs(ws, [n], row, { span: 6, charsPerLine: 90 }) - 1;
    const chartImages = options.chartImages === true;
    book.addChartColumn(ws, drawn, { row, col: 2 }, CHART_ZOOM, { images: chartImages });
    if (chartImages) images += drawn.length;
  });
  const linkOf = new Map<string, string | null>();
  for (const c of report.companies)
    for (const r of c.investors) if (!linkOf.get(r.key)) linkOf.set(r.key, investorLink(r, links));
  book.addDataTable(book.addSheet('Shared investors', { tabColor: 'FF8E44AD' }), {
    name: 'SharedInvestors',
    columns: [...SHARED_COLUMNS],
    rows: report.shared.map((s) => ({
      name: s.name,
      link: linkOf.get(s.key) ?? null,
      count: s.companies.length,
      companies: s.companies.join('; '),
      bestFit: s.bestFit,
      key: s.key,
      basis: SHARED_BASIS,
      source: sourceCell(report.sources, s.sources ?? []),
    })),
  });
  const run = book.addSheet('Run', { tabColor: 'FF7F8C8D' });
  let at = book.addTitle(
    run,
    'About this run',
    'What the run spent and asked; the shortlist is on the sheets before.',
  );
  at = book.addParagraphs(run, runLines(report), at, { span: 4, charsPerLine: 110 });
  book.addDataTable(run, {
    name: 'CreditsPerCompany',
    origin: { row: at, col: 1 },
    columns: [...RUN_COLUMNS],
    rows: report.companies.map((c) => ({
      name: c.name,
      charged: c.charged,
      basis: CREDITS_BASIS,
      source: sourceCell(report.sources, [c.source]),
    })),
  });
  addSourcesSheet(book, report.sources, options.runKey);
  await book.writeTo(path);
  return { path, sheets: book.wb.worksheets.map((w) => w.name), images, urlsLeftOut: book.urls.leftOut };
}
