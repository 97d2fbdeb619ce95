/**
 * Where the digest's figures come from, as its reports say it: a record's Source cell (the ids
 * of this run's answers on the Sources sheet, and "earlier run" for what the job's history of
 * earlier runs holds: a dropped match has no answer this run), the mark of what the runner
 * computed (new, changed, still, dropped, watchlist events), the charts' captions, and the PDF's
 * appendix listing the sources by operation. A digest stored before sources were kept has
 * none: its cells are empty and its appendix says why.
 */
import { formatDate } from '../../../reports/format.js';
import { COLORS } from '../../../reports/pdf/index.js';
import type { ReportPdf } from '../../../reports/pdf/index.js';
import {
  COMPUTED_BY_RUNNER,
  computedFrom,
  EARLIER_RUN,
  drawSourcesSection,
  idsOfOperations,
  sourceCaption,
  sourceCell as reportSourceCell,
  sourceSpan,
} from '../../../reports/sources.js';
import type { FundDigest } from '../digest.js';
import type { FundChartId } from './charts.js';
import { previousRun } from './text.js';

export { EARLIER_RUN };

/** The operations a digest reads. */
const BATCH_OP = 'find_startups_for_fund';
const PROFILE_OP = 'get_startup';

/** What a comparison with the job's history was computed from besides this run's answers. */
const EARLIER_RUNS = 'earlier runs';

/** Whether the digest kept its sources (a digest stored before they were has none). */
const hasSources = (digest: FundDigest): boolean => Array.isArray(digest.sources);

/**
 * A record's Source cell: `S1`, `earlier run; S7`, or null for a digest stored before sources
 * were kept (its cells stay empty).
 */
export function sourceCell(
  digest: FundDigest,
  ids: readonly (string | null | undefined)[] | undefined,
  earlier = false,
): string | null {
  return reportSourceCell(digest.sources, ids ?? [], earlier ? [EARLIER_RUN] : []);
}

/** The date of the run a still-matched startup is compared with: its last match before this run. */
export function comparedRunDate(digest: FundDigest, key: string): string | null {
  const row = digest.history.find((h) => h.key === key);
  if (!row) return previousRun(digest)?.date ?? null;
  for (let j = digest.runs.length - 2; j >= 0; j--) if (row.ranks[j] != null) return digest.runs[j]!.date;
  return null;
}

/** The Batch sheet's basis of "New or still" and the changes: what the runner compared. */
export function changeBasis(digest: FundDigest, key: string, still: boolean): string | null {
  if (digest.baseline) return null;
  if (!still) return `${COMPUTED_BY_RUNNER}: not matched by any earlier run`;
  const date = comparedRunDate(digest, key);
  return `${COMPUTED_BY_RUNNER}: against the run of ${date ? formatDate(date) : 'an earlier date'}`;
}

/** The Summary's lines on where its figures come from. */
export function figureSourceLines(digest: FundDigest): string[] {
  const batch = idsOfOperations(digest.sources, [BATCH_OP]);
  const read = batch.length > 0 ? ` (${sourceSpan(batch)})` : '';
  const lines = [`Startups in the batch, their fit and portfolio conflicts: read from ${BATCH_OP}${read}.`];
  if (digest.baseline) {
    lines.push(
      'New, changed, still matched, dropped and watchlist events: none on a baseline, nothing compared.',
    );
  } else {
    const dropped = digest.dropped.map((d) => d.source);
    const events = digest.events.map((e) => e.source);
    lines.push(
      `New matches, changed and still matched: ${computedFrom(batch, EARLIER_RUNS)} (the job's history).`,
      `Dropped: ${computedFrom([...batch, ...dropped], EARLIER_RUNS)}: matched by the last run, not by this batch; the reason from its profile read now.`,
      `Watchlist events: ${computedFrom(events, EARLIER_RUNS)}: the startup's profile read now (${PROFILE_OP}) against the one read before.`,
    );
  }
  lines.push(
    hasSources(digest)
      ? 'The Sources sheet lists every answer the digest was made from; each data row names its own in its Source column ("earlier run": the job\'s history of earlier runs).'
      : 'This digest was made before its sources were recorded: the Sources sheet says so and the Source cells are empty.',
  );
  return lines;
}

/** Each chart's caption: the answers it was drawn from (null for a digest without sources). */
export function chartSources(digest: FundDigest): Record<FundChartId, string | null> {
  const batch = sourceCaption(digest.sources, idsOfOperations(digest.sources, [BATCH_OP]));
  return {
    fit: batch,
    sectors: batch,
    stages: batch,
    trend: batch ? `${batch} and the job's earlier runs (fits kept by the runner)` : null,
  };
}

/** The appendix after the details: how the figures were counted, then the sources by operation. */
export function sourcesAppendix(pdf: ReportPdf, digest: FundDigest, runKey?: string): void {
  const batch = idsOfOperations(digest.sources, [BATCH_OP]);
  const profiles = idsOfOperations(digest.sources, [PROFILE_OP]);
  const ids = (list: string[]) => (list.length > 0 ? ` (${sourceSpan(list)})` : '');
  const intro =
    `The batch, its fits, reasons, analyst notes and portfolio conflicts are read from ${BATCH_OP}${ids(batch)}; ` +
    `founders, investors, stages, statuses and rounds from ${PROFILE_OP}${ids(profiles)}. ` +
    (digest.baseline
      ? 'This first run is the baseline: nothing is compared. From the next run on, new, changed, dropped and ' +
        'the watchlist events are computed by the runner against the history this run starts.'
      : "New, changed, still matched, dropped and the watchlist events are computed by the runner: this run's " +
        "answers compared with the job's history of its earlier runs, which the store keeps (no answer of this " +
        'run: a dropped match has none, the workbook names its source "earlier run").');
  pdf.heading('Appendix: where the figures come from', 1, { newPage: false, keepWith: 80 });
  pdf.paragraph(intro, { size: 9, color: COLORS.ink });
  drawSourcesSection(pdf, digest.sources, { heading: 'Sources', level: 2, ...(runKey ? { runKey } : {}) });
}
