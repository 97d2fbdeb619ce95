/**
 * The workbook's Summary sheet, the first a partner sees: on the left (columns A to C) the title,
 * the baseline or quiet line, the key figures, the portfolio conflicts and what each sheet
 * holds, and where the figures come from (read from an answer, or computed by the runner); on the right (from column E) the four charts one under the other, or why a chart is
 * not drawn.
 */
import type { KeyFigureCell, ReportWorkbook } from '../../../reports/excel/index.js';
import { readerSentence } from '../../../reports/editorial.js';
import { formatDate, formatInt, oneLine } from '../../../reports/format.js';
import type { FundDigest } from '../digest.js';
import type { FundChart } from './charts.js';
import { figureSourceLines } from './sources.js';
import { BASELINE_LINE, digestSubtitle, digestTitle, previousRun, quietLine } from './text.js';

/** Column of the charts; columns A to C hold the figures and D is a gap. */
const CHART_COL = 5;
/** Charts are shown 1.3 times their rendered width (their PNG has twice the pixels). */
const CHART_ZOOM = 1.3;
const WIDTHS = [34, 14, 46, 3];
const ALERT = 'FFC0392B';

function keyFigures(digest: FundDigest): KeyFigureCell[] {
  const c = digest.counts;
  const before = previousRun(digest);
  // The run compared with is named once, on the run date's row (and in the line under the title).
  const compared = (label: string, value: number, note: string): KeyFigureCell =>
    digest.baseline
      ? { label, value: 'Baseline', note: 'the first run: nothing to compare' }
      : { label, value, kind: 'int', note };
  return [
    {
      label: 'Run date',
      value: formatDate(digest.date),
      note: before ? `run ${digest.run}, compared with ${formatDate(before.date)}` : `run ${digest.run}`,
    },
    { label: 'Startups in the batch', value: c.batch, kind: 'int' },
    compared('New matches', c.new, 'never matched before'),
    compared('Changed', c.changed, 'fit ±2 points, or moved among the still matched'),
    compared('Still matched', c.still, 'matched before and in this batch'),
    compared('Dropped', c.dropped, 'in the last run, not in this batch'),
    compared('Watchlist events', c.events, 'new rounds, stage and status changes'),
    {
      label: 'Portfolio conflicts',
      value: digest.conflicts.length,
      kind: 'int',
      note: 'marked by the service',
    },
  ];
}

/** What each sheet holds. */
const SHEETS = [
  'Batch: this run’s startups with fit, change since the last run, sector, stage, country, conflict, reasons and the analyst note.',
  'Match history: every startup the job ever matched, its fit and rank per run (one column a run date).',
  'Watchlist: new rounds, stage and status changes of the startups followed, since the last run.',
  'Dropped: the startups matched last time and not now, with the likely reason.',
  'Chart data (when a chart is drawn): the numbers of each chart, which its editable chart plots.',
  'Sources: every answer of the service the digest was made from, numbered S1, S2 and so on, with its parameters, time, credits and store reference.',
];

/** Builds the Summary sheet. Returns how many charts it placed (native, and as images when asked). */
export function writeSummarySheet(
  book: ReportWorkbook,
  digest: FundDigest,
  charts: readonly FundChart[],
  options: { chartImages?: boolean } = {},
): number {
  const ws = book.addSummarySheet(WIDTHS);
  let row = book.addTitle(ws, digestTitle(digest), digestSubtitle(digest));
  const lead = digest.baseline ? [BASELINE_LINE] : digest.quiet ? [quietLine(digest)] : [];
  if (lead.length > 0) row = book.addParagraphs(ws, lead, row, { span: 3, charsPerLine: 90 }) - 1;
  const top = row;
  row = book.addKeyFigures(ws, keyFigures(digest), row);
  const conflicts =
    digest.conflicts.length > 0
      ? digest.conflicts.map((c) => `${c.name}: ${readerSentence(oneLine(c.conflict))}`)
      : ['None marked by the service in this batch.'];
  const first = row + 1;
  row = book.addParagraphs(ws, conflicts, row, {
    heading: `Portfolio conflicts (${formatInt(digest.conflicts.length)})`,
    span: 3,
    charsPerLine: 90,
  });
  // Conflicts in red: shown, never hidden.
  if (digest.conflicts.length > 0)
    for (let r = first; r < first + conflicts.length; r++) ws.getCell(r, 1).font = { color: { argb: ALERT } };
  row = book.addParagraphs(ws, SHEETS, row, { heading: 'The sheets', span: 3, charsPerLine: 90 });
  book.addParagraphs(ws, figureSourceLines(digest), row, {
    heading: 'Where the figures come from',
    span: 3,
    charsPerLine: 90,
  });
  book.addChartColumn(ws, charts, { row: top, col: CHART_COL }, CHART_ZOOM, {
    images: options.chartImages === true,
  });
  return charts.filter((c) => c.rendered).length;
}
