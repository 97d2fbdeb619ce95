/**
 * The fund-match digest as a workbook: Summary (key figures, portfolio conflicts, the charts as
 * images), Batch (this run's startups), Match history (every startup ever matched, fit and rank
 * per run; Excel reserves the name "History"), Watchlist (the events) and Dropped. Every data
 * sheet is an Excel table: frozen header, filter buttons, number formats (fit as a percentage,
 * 0.0%, as in the PDF; changes in points with their sign; amounts in $M named in the header).
 * Stages in words, also inside the service's sentences, and their dates as 26 Nov 2026. Every text cell from the service is formula-safe; names link to the startup's
 * website, the service's profile is a link only when a reader can open it (readerUrl); lists
 * are joined by "; ". The charts are native Excel charts (pictures too with `chartImages`).
 * Provenance: every data row's last column, Source, names the answers of the Sources sheet it
 * came from ("earlier run" for the job's history), and what the runner computed (new or still,
 * changes, dropped, events) says so in a Basis column.
 */
import { ReportWorkbook } from '../../../reports/excel/index.js';
import type { DataColumn } from '../../../reports/excel/index.js';
import { readerSentence, stageLabel } from '../../../reports/editorial.js';
import { formatDate } from '../../../reports/format.js';
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { addSourcesSheet, COMPUTED_BY_RUNNER, SOURCE_COLUMN } from '../../../reports/sources.js';
import type { FundDigest } from '../digest.js';
import type { FundChart } from './charts.js';
import { changeBasis, sourceCell } from './sources.js';
import { writeSummarySheet } from './summary-sheet.js';
import {
  digestTitle,
  DROP_REASONS,
  EVENT_KINDS,
  notableEvents,
  previousRun,
  runLabels,
  tellingFirst,
} from './text.js';

/** A round event's from/to date in the report's format. */
const dateText = (iso: string | null): string | null => (iso ? formatDate(iso) : null);

/** A change with its sign. */
const FIT_CHANGE = '+0.0;-0.0;0.0';
const RANK_CHANGE = '+0;-0;0';

const yesNo = (b: boolean): string => (b ? 'Yes' : 'No');

/** The service's own sentence in the report's words (stages, dates), or null. */
const words = (text: string | null): string | null => (text ? readerSentence(text) : null);

/** The Batch sheet's columns, in order. */
export const BATCH_COLUMNS: readonly DataColumn[] = [
  { header: 'Rank', key: 'rank', kind: 'int', width: 7 },
  { header: 'Startup', key: 'name', linkKey: 'website', width: 26 },
  { header: 'Fit', key: 'fit', kind: 'pct', width: 8 },
  { header: 'New or still', key: 'status', width: 11 },
  { header: 'Stage', key: 'stage', width: 10 },
  { header: 'Country', key: 'country', width: 14 },
  { header: 'Portfolio conflict', key: 'conflict', width: 24, wrap: true },
  { header: 'Why', key: 'why', width: 50, wrap: true },
  { header: 'Analyst note', key: 'note', width: 44, wrap: true },
  { header: 'Sector', key: 'sector', width: 30 },
  { header: 'Fit change (points)', key: 'fitChange', kind: 'number', numFmt: FIT_CHANGE, width: 11 },
  { header: 'Rank change', key: 'rankChange', kind: 'int', numFmt: RANK_CHANGE, width: 13 },
  { header: 'Change basis', key: 'basis' },
  { header: 'Website', key: 'website', kind: 'url', width: 28 },
  { header: 'Service profile', key: 'profile', kind: 'url', width: 28 },
  { header: 'Service key', key: 'key', width: 14 },
  { header: SOURCE_COLUMN, key: 'source', width: 14 },
];

/** The Batch sheet prints its first columns, the ones a partner reads (to the analyst note). */
export const BATCH_PRINTED_COLUMNS = 9;

function batchRows(digest: FundDigest, links: ServiceLinks | null): Record<string, unknown>[] {
  const still = new Map(digest.still.map((s) => [s.key, s]));
  return digest.batch.map((b) => {
    const s = still.get(b.key);
    return {
      rank: b.rank,
      name: b.name,
      website: readerUrl(b.website ?? null, links),
      profile: readerUrl(b.url, links),
      fit: b.fitPct,
      status: digest.baseline ? 'baseline' : s ? 'still' : 'new',
      fitChange: s?.fitChange ?? null,
      rankChange: s?.rankChange ?? null,
      basis: changeBasis(digest, b.key, s !== undefined),
      sector: b.sector,
      stage: b.stage ? stageLabel(b.stage) : null,
      country: b.country,
      conflict: words(b.conflict),
      why: b.why.length > 0 ? tellingFirst(b.why).map(readerSentence).join('; ') : null,
      note: words(b.note),
      key: b.key,
      source: sourceCell(digest, [b.source]),
    };
  });
}

/** A run's column header: its date (26 Nov 2026), and its number when two runs share a date. */
function runHeaders(digest: FundDigest): string[] {
  return runLabels(digest.runs);
}

/** The Match history sheet's columns: fit per run, then rank per run, headed by the run dates. */
export function historyColumns(digest: FundDigest): DataColumn[] {
  const heads = runHeaders(digest);
  return [
    { header: 'Startup', key: 'name', width: 30 },
    { header: 'First seen', key: 'firstSeen', kind: 'date', width: 12 },
    { header: 'Last seen', key: 'lastSeen', kind: 'date', width: 12 },
    ...heads.map((h, j): DataColumn => ({ header: `Fit ${h}`, key: `fit${j}`, kind: 'pct' })),
    ...heads.map((h, j): DataColumn => ({ header: `Rank ${h}`, key: `rank${j}`, kind: 'int' })),
    { header: 'In the batch', key: 'inBatch', width: 13 },
    { header: 'Stage', key: 'stage', width: 12 },
    { header: 'Status', key: 'status', width: 12 },
    { header: 'Service key', key: 'key', width: 14 },
    { header: SOURCE_COLUMN, key: 'source', width: 22 },
  ];
}

function historyRows(digest: FundDigest): Record<string, unknown>[] {
  return digest.history.map((h) => ({
    name: h.name,
    firstSeen: h.firstSeen,
    lastSeen: h.lastSeen,
    ...Object.fromEntries(h.fits.map((f, j) => [`fit${j}`, f])),
    ...Object.fromEntries(h.ranks.map((r, j) => [`rank${j}`, r])),
    inBatch: yesNo(h.inBatch),
    stage: h.stage ? stageLabel(h.stage) : null,
    status: h.status,
    key: h.key,
    // Fits and ranks of the runs before this one (and a profile read then) are the job's history.
    source: sourceCell(
      digest,
      h.sources,
      h.ranks.slice(0, -1).some((r) => r !== null),
    ),
  }));
}

/** The Watchlist sheet's columns. */
export const WATCHLIST_COLUMNS: readonly DataColumn[] = [
  { header: 'Startup', key: 'name', width: 30 },
  { header: 'Event', key: 'kind', width: 14 },
  { header: 'From', key: 'from', width: 14 },
  { header: 'To', key: 'to', width: 14 },
  { header: 'Round stage', key: 'roundStage', width: 12 },
  { header: 'Round date', key: 'roundDate', kind: 'date', width: 12 },
  { header: 'Amount ($M)', key: 'amount', kind: 'number', numFmt: '#,##0.0', width: 12 },
  { header: 'Lead investors', key: 'leads', width: 28, wrap: true },
  { header: 'Detail', key: 'detail', width: 44, wrap: true },
  { header: 'In the batch', key: 'inBatch', width: 13 },
  { header: 'Service key', key: 'key', width: 14 },
  { header: 'Basis', key: 'basis' },
  { header: SOURCE_COLUMN, key: 'source', width: 18 },
];

/** The Dropped sheet's columns. */
export const DROPPED_COLUMNS: readonly DataColumn[] = [
  { header: 'Startup', key: 'name', width: 30 },
  { header: 'Reason', key: 'reason', width: 28 },
  { header: 'Detail', key: 'detail', width: 70, wrap: true },
  { header: 'Service key', key: 'key', width: 14 },
  { header: 'Basis', key: 'basis' },
  { header: SOURCE_COLUMN, key: 'source', width: 18 },
];

/** A watchlist event's basis: the runner compared the profile read now with the one read before. */
const EVENT_BASIS = `${COMPUTED_BY_RUNNER}: the profile read now against the one an earlier run read`;

/** What `writeFundWorkbook` wrote. */
export interface FundWorkbookResult {
  path: string;
  /** The sheets, in order. */
  sheets: string[];
  /** Charts drawn on the Summary sheet, each a native Excel chart. */
  charts: number;
  /** Charts also placed as pictures (only with `chartImages`; 0 by default). */
  images: number;
  /** URL cells left empty: their value was not an http(s) URL. */
  urlsLeftOut: number;
}

/**
 * Writes the digest's workbook to `path` (a batch is at most 30 startups: the workbook is built
 * in memory). The charts are the ones rendered for the PDF.
 *
 * @example
 * const charts = await renderFundCharts(digest);
 * await writeFundWorkbook(digest, 'out/matches.xlsx', charts);
 */
export async function writeFundWorkbook(
  digest: FundDigest,
  path: string,
  charts: readonly FundChart[],
  options: {
    created?: Date;
    links?: ServiceLinks | null;
    chartImages?: boolean;
    /** The run the digest was made by (named when the digest kept no sources). */
    runKey?: string;
  } = {},
): Promise<FundWorkbookResult> {
  const runDay = new Date(`${digest.date}T00:00:00Z`);
  const book = new ReportWorkbook({
    title: digestTitle(digest),
    created: options.created ?? (Number.isNaN(runDay.getTime()) ? new Date() : runDay),
  });
  const chartImages = options.chartImages === true;
  const drawn = writeSummarySheet(book, digest, charts, { chartImages });
  const table = (
    sheet: string,
    name: string,
    tab: string,
    columns: readonly DataColumn[],
    rows: Record<string, unknown>[],
  ) => book.addDataTable(book.addSheet(sheet, { tabColor: tab }), { name, columns: [...columns], rows });
  table('Batch', 'Batch', 'FF2E8B57', BATCH_COLUMNS, batchRows(digest, options.links ?? null));
  const batchSheet = book.wb.getWorksheet('Batch');
  if (batchSheet) book.printColumns(batchSheet, BATCH_PRINTED_COLUMNS);
  const before = previousRun(digest);
  const droppedBasis = `${COMPUTED_BY_RUNNER}: matched by the run of ${before ? formatDate(before.date) : 'an earlier date'}, not by this batch`;
  table('Match history', 'MatchHistory', 'FF8E44AD', historyColumns(digest), historyRows(digest));
  table(
    'Watchlist',
    'Watchlist',
    'FFE08A1E',
    WATCHLIST_COLUMNS,
    notableEvents(digest.events).flatMap((s) =>
      s.events.map((e) => ({
        name: e.name,
        kind: EVENT_KINDS[e.kind],
        from:
          e.kind === 'stage' && e.from ? stageLabel(e.from) : e.kind === 'round' ? dateText(e.from) : e.from,
        to: e.kind === 'stage' && e.to ? stageLabel(e.to) : e.kind === 'round' ? dateText(e.to) : e.to,
        roundStage: e.round?.stage ? stageLabel(e.round.stage) : null,
        roundDate: e.round?.date ?? null,
        amount: typeof e.round?.amountUsd === 'number' ? e.round.amountUsd / 1e6 : null,
        leads: e.round && e.round.leads.length > 0 ? e.round.leads.join('; ') : null,
        detail: words(e.detail),
        inBatch: yesNo(e.inBatch),
        key: e.key,
        basis: EVENT_BASIS,
        source: sourceCell(digest, [e.source], true),
      })),
    ),
  );
  table(
    'Dropped',
    'Dropped',
    'FF7F8C8D',
    DROPPED_COLUMNS,
    digest.dropped.map((d) => ({
      name: d.name,
      reason: DROP_REASONS[d.reason],
      detail: words(d.detail),
      key: d.key,
      basis: droppedBasis,
      source: sourceCell(digest, [d.source], true),
    })),
  );
  addSourcesSheet(book, digest.sources, options.runKey);
  await book.writeTo(path);
  return {
    path,
    sheets: book.wb.worksheets.map((w) => w.name),
    charts: drawn,
    images: chartImages ? drawn : 0,
    urlsLeftOut: book.urls.leftOut,
  };
}
