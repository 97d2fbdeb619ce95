/**
 * Provenance in a report: the "Sources" sheet of a workbook (one row per stored answer the
 * report was made from: operation, parameters, time, credits, HTTP status, store reference),
 * the Source column a data row names its answer in, the PDF's list of sources by operation, a
 * chart's source caption, and the mark of a figure the runner computed rather than read.
 */
import type { ReportPdf } from './pdf/index.js';
import type { DataColumn } from './excel/workbook.js';
import type { ReportWorkbook } from './excel/workbook.js';
import type { StreamColumn, StreamingReportWorkbook } from './excel/stream.js';
import { formatInt } from './format.js';
import type { SourceRow } from '../shared/types.js';

/** The name of a workbook's sheet of sources. */
export const SOURCES_SHEET = 'Sources';

/** The header of a data sheet's column naming the row's source (an id of the Sources sheet). */
export const SOURCE_COLUMN = 'Source';

/** What a figure the runner computed (a share, a change, YoY) says where a read figure names its source. */
export const COMPUTED_BY_RUNNER = 'Computed by the runner';

/** What a Source cell names for what only the job's earlier runs hold (no answer of this run). */
export const EARLIER_RUN = 'earlier run';

/**
 * "Computed by the runner from S1, S10 and `also`": a figure derived from the answers `ids` (and
 * from `also`, what else it used: the previous run's snapshot, earlier runs). Without known ids
 * (a model stored before sources were kept), "Computed by the runner" (from `also` if given).
 */
export function computedFrom(ids: Iterable<string | null | undefined>, also?: string): string {
  const from = [sourceSpan(ids), also].filter(Boolean).join(' and ');
  return from ? `${COMPUTED_BY_RUNNER} from ${from}` : COMPUTED_BY_RUNNER;
}

/** Parameter names that never go into a report, whatever the service's answer held. */
const SECRET_PARAM = /^(x[-_])?api[-_]?key$|token|secret|password|authorization|credential/i;

/** A stored answer's parameters as one line: `country=DE; limit=50; offset=0` (secrets left out). */
export function paramsText(params: Record<string, unknown>): string {
  const parts = Object.entries(params)
    .filter(([k, v]) => v !== undefined && v !== null && !SECRET_PARAM.test(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length > 0 ? parts.join('; ') : '(none)';
}

/**
 * Source ids as a short list: runs of consecutive ids joined (`S1–S3, S7`); empty when none.
 * Ids are kept in their numeric order, each once.
 */
export function sourceSpan(ids: Iterable<string | null | undefined>): string {
  const nums = [
    ...new Set([...ids].flatMap((id) => (id && /^S\d+$/.test(id) ? [Number(id.slice(1))] : []))),
  ].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < nums.length;) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === (nums[j] ?? 0) + 1) j++;
    runs.push(j > i ? `S${nums[i]}–S${nums[j]}` : `S${nums[i]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

/**
 * A data row's Source cell: its ids as a span (`S1, S12`), after any `words` naming what is no
 * answer of the run (`earlier run; S7`). Null when the report kept no sources (a run from before
 * they were: its cells stay empty) or the row names nothing.
 */
export function sourceCell(
  sources: readonly SourceRow[] | undefined,
  ids: Iterable<string | null | undefined>,
  words: readonly string[] = [],
): string | null {
  if (!sources) return null;
  const parts = [...words, sourceSpan(ids)].filter((p) => p !== '');
  return parts.length > 0 ? parts.join('; ') : null;
}

/** The sources of one operation: how many answers, their records and credits, and their ids. */
export interface OperationSources {
  operation: string;
  answers: number;
  records: number;
  credits: number;
  ids: string[];
}

/** Sources grouped by operation, in the order each operation was first read. */
export function sourcesByOperation(sources: readonly SourceRow[]): OperationSources[] {
  const by = new Map<string, OperationSources>();
  for (const s of sources) {
    const o = by.get(s.operation) ?? { operation: s.operation, answers: 0, records: 0, credits: 0, ids: [] };
    o.answers++;
    o.records += s.records;
    o.credits += s.credits;
    o.ids.push(s.id);
    by.set(s.operation, o);
  }
  return [...by.values()];
}

/**
 * A chart's caption naming what it was drawn from: `Source: search_startups (S2–S4)`; the
 * sources are those of `ids`, grouped by operation. Null when none is known (a run from
 * before sources were kept).
 */
export function sourceCaption(
  sources: readonly SourceRow[] | undefined,
  ids: Iterable<string>,
): string | null {
  if (!sources) return null;
  const wanted = new Set(ids);
  const picked = sourcesByOperation(sources.filter((s) => wanted.has(s.id)));
  if (picked.length === 0) return null;
  return `Source: ${picked.map((o) => `${o.operation} (${sourceSpan(o.ids)})`).join('; ')}`;
}

/** The ids of the sources of the given operations. */
export function idsOfOperations(
  sources: readonly SourceRow[] | undefined,
  operations: readonly string[],
): string[] {
  return (sources ?? []).filter((s) => operations.includes(s.operation)).map((s) => s.id);
}

/** Why a report has no sources listed: its run was made before they were recorded. */
export function noSourcesNote(runKey?: string): string {
  const where = runKey ? ` (runs/${runKey}/ in the store)` : '';
  return (
    'This run was made before its report recorded its sources: the stored answers are kept' +
    `${where}, but which row came from which answer was not noted.`
  );
}

/**
 * The run folder a stored model's reference is in (`runs/<run>/…` gives `<run>`), for
 * {@link noSourcesNote}; undefined for a reference outside a run's folder.
 */
export function runOfRef(ref: string): string | undefined {
  return /^runs\/([^/]+)\//.exec(ref)?.[1];
}

/** What the Sources sheet says above its rows. */
const SOURCES_INTRO =
  "Every answer of the service this report was made from, as the run stored it. A data row's " +
  `"${SOURCE_COLUMN}" names the row here it came from; the store reference is where the whole answer is kept. ` +
  `Figures marked "${COMPUTED_BY_RUNNER}" were derived from these answers, not read from one.`;

/** The Sources sheet's columns, streamed. */
const SOURCE_STREAM_COLUMNS: readonly StreamColumn<SourceRow>[] = [
  { header: SOURCE_COLUMN, width: 7, value: (s) => s.id },
  { header: 'Operation', width: 17, value: (s) => s.operation },
  { header: 'Parameters', width: 44, value: (s) => paramsText(s.params), wrap: true },
  { header: 'Fetched at (UTC)', width: 25, value: (s) => s.fetchedAt },
  { header: 'Credits', width: 7, kind: 'int', value: (s) => s.credits },
  { header: 'HTTP status', width: 7, kind: 'int', value: (s) => s.status },
  { header: 'Records', width: 8, kind: 'int', value: (s) => s.records },
  { header: 'Store reference', width: 38, value: (s) => s.ref, wrap: true },
];

/** The Sources table's columns and a row's cells (in memory). */
const SOURCE_TABLE_COLUMNS: DataColumn[] = [
  { header: SOURCE_COLUMN, key: 'id' },
  { header: 'Operation', key: 'operation' },
  { header: 'Parameters', key: 'params', width: 48 },
  { header: 'Fetched at (UTC)', key: 'fetchedAt' },
  { header: 'Credits', key: 'credits', kind: 'int' },
  { header: 'HTTP status', key: 'status', kind: 'int' },
  { header: 'Records', key: 'records', kind: 'int' },
  { header: 'Store reference', key: 'ref', width: 60 },
];

/**
 * Adds the Sources sheet to an in-memory workbook: the note, then a table of the sources
 * (or why there are none). Returns the number of sources listed.
 */
export function addSourcesSheet(
  book: ReportWorkbook,
  sources: readonly SourceRow[] | undefined,
  runKey?: string,
): number {
  const ws = book.addSheet(SOURCES_SHEET, { tabColor: 'FF7F8C8D' });
  const next = book.addParagraphs(ws, [sources ? SOURCES_INTRO : noSourcesNote(runKey)], 1, { span: 8 });
  if (!sources) return 0;
  book.addDataTable(ws, {
    name: 'Sources',
    columns: SOURCE_TABLE_COLUMNS,
    rows: sources.map((s) => ({ ...s, params: paramsText(s.params) })),
    origin: { row: next, col: 1 },
  });
  return sources.length;
}

/**
 * Adds the Sources sheet to a streamed workbook, one row a source (a run from before sources
 * were kept: one row saying so). Returns the number of sources listed.
 */
export async function addStreamedSourcesSheet(
  book: StreamingReportWorkbook,
  sources: readonly SourceRow[] | undefined,
  runKey?: string,
): Promise<number> {
  const sheet = book.addRowSheet(SOURCES_SHEET, SOURCE_STREAM_COLUMNS, {
    tabColor: 'FF7F8C8D',
    wrapHeader: true,
  });
  if (sources) for (const s of sources) await sheet.add(s);
  else sheet.ws.getCell(2, 1).value = noSourcesNote(runKey);
  sheet.commit();
  return sources?.length ?? 0;
}

/**
 * The PDF's "Sources" part of a methodology appendix: a line on where the answers are, and a
 * table of the sources by operation (answers, records, credits, the ids the workbook lists).
 */
export function drawSourcesSection(
  pdf: ReportPdf,
  sources: readonly SourceRow[] | undefined,
  options: { heading?: string; level?: 2 | 3; runKey?: string } = {},
): void {
  const heading = options.heading ?? 'Sources';
  if (!sources) {
    pdf.heading(heading, options.level ?? 2);
    pdf.paragraph(noSourcesNote(options.runKey), { size: 9 });
    return;
  }
  const rows = sourcesByOperation(sources).map((o) => [
    o.operation,
    formatInt(o.answers),
    formatInt(o.records),
    formatInt(o.credits),
    sourceSpan(o.ids),
  ]);
  const columns = [
    { header: 'Operation', width: 1.4 },
    { header: 'Answers', width: 0.7, align: 'right' as const },
    { header: 'Records', width: 0.7, align: 'right' as const },
    { header: 'Credits', width: 0.7, align: 'right' as const },
    { header: 'Sources sheet rows', width: 1.6 },
  ];
  const intro =
    `${formatInt(sources.length)} stored answers of the service, by operation. The workbook's ` +
    `${SOURCES_SHEET} sheet lists each with its parameters, time, credits and store reference; ` +
    `every data row names the one it came from.`;
  pdf.heading(heading, options.level ?? 2, {
    keepWith: pdf.paragraphHeight(intro, { size: 9 }) + pdf.tableKeepHeight(columns, rows),
  });
  pdf.paragraph(intro, { size: 9 });
  pdf.table(columns, rows, { fontSize: 8.5 });
}
