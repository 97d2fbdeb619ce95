/**
 * The prospect list as a workbook, streamed to its file: Summary first (key figures, sources,
 * what was left out, limits, the five charts), then Prospects (one row a company, up to
 * 100,000, written and freed as they are read from the store) and Suppressed (the companies
 * left out and why). Every text cell from the service is formula-safe; amounts, scores and
 * dates are numbers and dates with formats; websites link to http(s) urls only (profiles are text);
 * lists are joined by "; ".
 */
import type { StreamColumn } from '../../../reports/excel/index.js';
import { StreamingReportWorkbook } from '../../../reports/excel/index.js';
import type { ProspectRow, ProspectSummary, SuppressedRow } from '../types.js';
import { renderProspectCharts } from './charts.js';
import type { ProspectChart } from './charts.js';
import { writeSummarySheet } from './summary-sheet.js';
import { briefTitle, REASON_LABELS } from './text.js';

const list = (items: readonly string[]): string | null => (items.length > 0 ? items.join('; ') : null);

/** The Prospects sheet's columns, in order. */
export const PROSPECT_COLUMNS: readonly StreamColumn<ProspectRow>[] = [
  { header: 'Rank', width: 7, kind: 'int', value: (r) => r.rank },
  { header: 'Company', width: 34, value: (r) => r.name },
  { header: 'Domain', width: 24, value: (r) => r.domain },
  { header: 'Website', width: 30, kind: 'url', value: (r) => r.website, link: (r) => r.website },
  // Not a link: exceljs's streaming writer keeps every link of a sheet in memory until the sheet
  // ends (about 0.4 MB per 1,000 links), so only the website, the one a seller opens, links.
  { header: 'Profile', width: 30, kind: 'url', value: (r) => r.profileUrl },
  { header: 'Country', width: 16, value: (r) => r.country },
  { header: 'City', width: 14, value: (r) => r.city },
  { header: 'Sector', width: 30, value: (r) => r.sector },
  { header: 'Subsector', width: 20, value: (r) => r.subsector },
  { header: 'Stage', width: 13, value: (r) => r.stage },
  { header: 'Status', width: 10, value: (r) => r.status },
  { header: 'Fit', width: 8, kind: 'pct', value: (r) => r.fitPct },
  { header: 'Momentum', width: 11, kind: 'int', value: (r) => r.momentum },
  { header: 'Why', width: 60, value: (r) => list(r.why) },
  { header: 'Total raised (USD)', width: 17, kind: 'usd', value: (r) => r.totalRaisedUsd },
  { header: 'Last round', width: 12, kind: 'date', value: (r) => r.lastRoundDate },
  { header: 'Last round stage', width: 16, value: (r) => r.lastRoundStage },
  { header: 'Last round (USD)', width: 16, kind: 'usd', value: (r) => r.lastRoundAmountUsd },
  { header: 'Founded', width: 9, kind: 'id', value: (r) => r.foundedYear },
  { header: 'Founders', width: 40, value: (r) => list(r.founders) },
  { header: 'Investors', width: 40, value: (r) => list(r.investors) },
  { header: 'Rounds', width: 8, kind: 'int', value: (r) => r.roundsCount },
  { header: 'Sources', width: 18, value: (r) => list(r.sources) },
  { header: 'Delivered on', width: 13, kind: 'date', value: (r) => r.deliveredOn },
  { header: 'Enriched', width: 9, value: (r) => (r.enriched ? 'Yes' : 'No') },
  { header: 'Description', width: 60, value: (r) => r.description },
  { header: 'Service key', width: 14, value: (r) => r.key },
];

/** The Suppressed sheet's columns. */
export const SUPPRESSED_COLUMNS: readonly StreamColumn<SuppressedRow>[] = [
  { header: 'Company', width: 34, value: (r) => r.name },
  { header: 'Domain', width: 24, value: (r) => r.domain },
  { header: 'Reason', width: 30, value: (r) => REASON_LABELS[r.reason] },
  { header: 'Detail', width: 50, value: (r) => r.detail },
  { header: 'Service key', width: 14, value: (r) => r.key },
];

/** What `writeProspectWorkbook` wrote. */
export interface ProspectWorkbookResult {
  path: string;
  /** Rows on the Prospects sheet and on the Suppressed sheet. */
  rows: number;
  suppressed: number;
  /** Charts placed on the Summary sheet as images. */
  images: number;
  /** URL cells left empty: their value was not an http(s) URL. */
  urlsLeftOut: number;
}

/**
 * Writes the list's workbook to `path`, reading `rows` and `suppressed` once, chunk by chunk:
 * a row is written and freed as it comes, so a 100,000-row list never sits in memory. The
 * charts are rendered here unless given (render them once when the brief is written too). On
 * a failure the partial file is removed.
 *
 * @example
 * const { rows } = await writeProspectWorkbook(summary, readRows(refs.rowChunks), readSuppressed(refs.suppressedChunks), 'out/list.xlsx');
 */
export async function writeProspectWorkbook(
  summary: ProspectSummary,
  rows: AsyncIterable<ProspectRow>,
  suppressed: AsyncIterable<SuppressedRow>,
  path: string,
  charts?: readonly ProspectChart[],
  options: { created?: Date } = {},
): Promise<ProspectWorkbookResult> {
  const rendered = charts ?? (await renderProspectCharts(summary));
  const runDay = new Date(`${summary.date}T00:00:00Z`);
  const book = new StreamingReportWorkbook(path, {
    title: briefTitle(summary),
    created: options.created ?? (Number.isNaN(runDay.getTime()) ? new Date() : runDay),
  });
  try {
    const images = writeSummarySheet(book, summary, rendered);
    const prospects = book.addRowSheet('Prospects', PROSPECT_COLUMNS, { tabColor: 'FF2E8B57' });
    for await (const row of rows) await prospects.add(row);
    prospects.commit();
    const left = book.addRowSheet('Suppressed', SUPPRESSED_COLUMNS, { tabColor: 'FF7F8C8D' });
    for await (const row of suppressed) await left.add(row);
    left.commit();
    await book.commit();
    return { path, rows: prospects.rows, suppressed: left.rows, images, urlsLeftOut: book.urls.leftOut };
  } catch (err) {
    await book.abort();
    throw err;
  }
}
