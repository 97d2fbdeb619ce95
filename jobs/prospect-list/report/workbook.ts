/**
 * The prospect list as a workbook, streamed to its file: Summary first (key figures, briefs and
 * searches, what was left out, limits, the five charts), then Prospects (one row a company, up
 * to 100,000, written and freed as they are read from the store), Suppressed (the companies
 * left out and why) and Sources (one row per stored answer the list was read from; a Prospects
 * or Suppressed row's Source column names its rows there). Every text cell from the service is
 * formula-safe; amounts, scores and dates are numbers and dates with formats; websites link to
 * http(s) urls only (profiles are text); lists are joined by "; ".
 */
import type ExcelJS from 'exceljs';
import type { StreamColumn } from '../../../reports/excel/index.js';
import { StreamingReportWorkbook } from '../../../reports/excel/index.js';
import { printableArea } from '../../../reports/excel/print.js';
import type { ProspectRow, ProspectSummary, SuppressedRow } from '../types.js';
import { renderProspectCharts } from './charts.js';
import type { ProspectChart } from './charts.js';
import { writeSummarySheet } from './summary-sheet.js';
import { stageLabel } from '../../../reports/editorial.js';
import { readerUrl, type ServiceLinks } from '../../../reports/links.js';
import { webUrl } from '../../../reports/web-url.js';
import { addStreamedSourcesSheet, SOURCE_COLUMN, sourceSpan } from '../../../reports/sources.js';
import { closedFlag } from '../profiles.js';
import { briefTitle, reasonText, REASON_LABELS } from './text.js';

const list = (items: readonly string[]): string | null => (items.length > 0 ? items.join('; ') : null);

/** A row's stored answers as the Sources sheet's ids (`S1, S4–S5`); empty for a row from before they were kept. */
const sourceCell = (r: { sourceIds?: string[] }): string | null => sourceSpan(r.sourceIds ?? []) || null;

/** The header of the column naming which briefs and searches found a company (not its stored answers). */
export const FOUND_BY_COLUMN = 'Found by';

/**
 * The columns a person reads, first and printed: the print area of the Prospects sheet ends
 * after the last of them (the rest are for filters, lookups and imports). A list that keeps
 * closed and acquired companies (keepClosed) prints their flag too, the column after these.
 */
export const PRINTED_COLUMNS = 10;

/** The printed columns of a list: with the "Closed or acquired" flag when the job keeps them. */
export function printedColumns(keepClosed: boolean): number {
  return PRINTED_COLUMNS + (keepClosed ? 1 : 0);
}

/**
 * The Prospects sheet's columns, in order: the ones a person reads first (printed), then the
 * ones kept for filters and imports. Stages in words; reasons whole (they wrap, the row grows)
 * with their dates in the report's format; the service profile link only where a reader can
 * open it (`readerUrl`); the company's name and its website linked.
 */
export function prospectColumns(links?: ServiceLinks): StreamColumn<ProspectRow>[] {
  return [
    { header: 'Rank', width: 6, kind: 'int', value: (r) => r.rank },
    { header: 'Company', width: 24, value: (r) => r.name, link: (r) => webUrl(r.website), wrap: true },
    { header: 'Country', width: 11, value: (r) => r.country, wrap: true },
    { header: 'Stage', width: 9, value: (r) => (r.stage === null ? null : stageLabel(r.stage)) },
    { header: 'Fit', width: 7, kind: 'pct', value: (r) => r.fitPct },
    { header: 'Momentum', width: 11, kind: 'int', value: (r) => r.momentum },
    { header: 'Why', width: 48, value: (r) => list(r.why.map(reasonText)), wrap: true },
    { header: 'Last round', width: 11, kind: 'date', value: (r) => r.lastRoundDate },
    { header: 'Last round (USD)', width: 13, kind: 'usd', value: (r) => r.lastRoundAmountUsd },
    { header: 'Website', width: 22, kind: 'url', value: (r) => r.website, link: (r) => r.website },
    { header: 'Closed or acquired', width: 10, value: closedFlag },
    {
      header: 'Last round stage',
      width: 11,
      value: (r) => (r.lastRoundStage === null ? null : stageLabel(r.lastRoundStage)),
    },
    // Not links: exceljs's streaming writer keeps every link of a sheet in memory until the sheet
    // ends (about 0.4 MB per 1,000 links), so only the company's website links.
    { header: 'Service profile', width: 30, kind: 'url', value: (r) => readerUrl(r.profileUrl, links) },
    { header: 'Domain', width: 24, value: (r) => r.domain },
    { header: 'City', width: 14, value: (r) => r.city },
    { header: 'Sector', width: 30, value: (r) => r.sector },
    { header: 'Subsector', width: 20, value: (r) => r.subsector },
    { header: 'Status', width: 10, value: (r) => r.status },
    { header: 'Total raised (USD)', width: 17, kind: 'usd', value: (r) => r.totalRaisedUsd },
    { header: 'Founded', width: 9, kind: 'id', value: (r) => r.foundedYear },
    { header: 'Founders', width: 40, value: (r) => list(r.founders) },
    { header: 'Investors', width: 40, value: (r) => list(r.investors) },
    { header: 'Rounds', width: 8, kind: 'int', value: (r) => r.roundsCount },
    { header: FOUND_BY_COLUMN, width: 18, value: (r) => list(r.sources) },
    { header: SOURCE_COLUMN, width: 16, value: sourceCell },
    { header: 'Delivered on', width: 13, kind: 'date', value: (r) => r.deliveredOn },
    { header: 'Enriched', width: 9, value: (r) => (r.enriched ? 'Yes' : 'No') },
    { header: 'Description', width: 60, value: (r) => r.description },
    { header: 'Service key', width: 14, value: (r) => r.key },
  ];
}

/** The Prospects sheet's columns when no service links are known (loopback profiles left out). */
export const PROSPECT_COLUMNS: readonly StreamColumn<ProspectRow>[] = prospectColumns();

/** The Suppressed sheet's columns. */
export const SUPPRESSED_COLUMNS: readonly StreamColumn<SuppressedRow>[] = [
  { header: 'Company', width: 34, value: (r) => r.name },
  { header: 'Domain', width: 24, value: (r) => r.domain },
  { header: 'Reason', width: 30, value: (r) => REASON_LABELS[r.reason] },
  { header: 'Detail', width: 50, value: (r) => r.detail },
  { header: 'Service key', width: 14, value: (r) => r.key },
  { header: SOURCE_COLUMN, width: 16, value: sourceCell },
];

/** The smallest print scale of the Prospects sheet: 11 pt text stays at least 7 pt on paper. */
export const MIN_PRINT_SCALE = 64;

/**
 * Points a unit of column width takes on paper in the widest reader: LibreOffice, drawing
 * Calibri's cells in Noto Sans, prints a unit at about 6.4 pt (Excel at 5.25 pt).
 */
const PRINTED_PT_PER_UNIT = 6.5;

/**
 * How the Prospects sheet prints: landscape, the header row on every page (a header wider than
 * its column wraps), the columns a person reads as the print area (`printColumns`: down to the
 * last row, the keys and imports' columns left out), and one page wide only as far as the text
 * stays at least 7 pt (a fixed scale of at least 64% otherwise, the rest of the width on further
 * pages). The Why column wraps and its rows grow (the column's `wrap`), so no reason is cut.
 */
export function printReadable(
  book: StreamingReportWorkbook,
  ws: ExcelJS.Worksheet,
  columns: readonly StreamColumn<ProspectRow>[],
  printed: number,
): void {
  const widthPt = columns.slice(0, printed).reduce((a, c) => a + c.width * PRINTED_PT_PER_UNIT, 0);
  const fit = Math.floor((100 * printableArea('landscape').width) / widthPt);
  ws.pageSetup.orientation = 'landscape';
  if (fit >= MIN_PRINT_SCALE) {
    ws.pageSetup.fitToPage = true;
    ws.pageSetup.fitToWidth = 1;
    ws.pageSetup.fitToHeight = 0;
  } else {
    ws.pageSetup.fitToPage = false;
    ws.pageSetup.scale = MIN_PRINT_SCALE;
  }
  book.printColumns(ws, printed);
}

/** What `writeProspectWorkbook` wrote. */
export interface ProspectWorkbookResult {
  path: string;
  /** Rows on the Prospects sheet and on the Suppressed sheet. */
  rows: number;
  suppressed: number;
  /** Rows on the Sources sheet (stored answers; 0 for a list from before they were kept). */
  sources: number;
  /** Charts placed on the Summary sheet as images. */
  images: number;
  /** URL cells left empty: their value was not an http(s) URL. */
  urlsLeftOut: number;
}

/**
 * Writes the list's workbook to `path`, reading `rows` and `suppressed` once, chunk by chunk:
 * a row is written and freed as it comes, so a 100,000-row list never sits in memory (the
 * Sources sheet has a row per stored answer, a page of a search holding 100 rows). `runKey`
 * names the run's store folder where a list from before sources were kept says why it has none. The
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
  options: { created?: Date; links?: ServiceLinks; runKey?: string } = {},
): Promise<ProspectWorkbookResult> {
  const rendered = charts ?? (await renderProspectCharts(summary));
  const runDay = new Date(`${summary.date}T00:00:00Z`);
  const book = new StreamingReportWorkbook(path, {
    title: briefTitle(summary),
    created: options.created ?? (Number.isNaN(runDay.getTime()) ? new Date() : runDay),
  });
  try {
    const images = writeSummarySheet(book, summary, rendered);
    const columns = prospectColumns(options.links);
    const prospects = book.addRowSheet('Prospects', columns, { tabColor: 'FF2E8B57', wrapHeader: true });
    printReadable(book, prospects.ws, columns, printedColumns(summary.job.keepClosed === true));
    for await (const row of rows) await prospects.add(row);
    prospects.commit();
    const left = book.addRowSheet('Suppressed', SUPPRESSED_COLUMNS, { tabColor: 'FF7F8C8D' });
    for await (const row of suppressed) await left.add(row);
    left.commit();
    const sources = await addStreamedSourcesSheet(book, summary.sources, options.runKey);
    await book.commit();
    return {
      path,
      rows: prospects.rows,
      suppressed: left.rows,
      sources,
      images,
      urlsLeftOut: book.urls.leftOut,
    };
  } catch (err) {
    await book.abort();
    throw err;
  }
}
