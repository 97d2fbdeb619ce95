/**
 * The words of the prospect list's brief and Summary sheet, written once for both: the title,
 * one line per source (brief or search: what was asked, what it gave, credits, why it stopped)
 * and what was left out, in sentences.
 */
import { plural } from '../../../reports/editorial.js';
import { formatDate, formatInt } from '../../../reports/format.js';
import type { ProspectSummary, SearchSource, SuppressionReason } from '../types.js';

/** The title as printed: the job's title, or a default. */
export function briefTitle(summary: ProspectSummary): string {
  return summary.job.title.trim() || 'Prospect list';
}

/** One source of the list as the brief and the Summary sheet show it. */
export interface SourceLine {
  /** `brief 1`, `search 2`. */
  label: string;
  /** The brief's text or the search's filters. */
  asked: string;
  /** Companies the source gave (returned or fetched). */
  rows: number;
  /** Matching startups the service reported (searches; null when it did not say or for briefs). */
  total: number | null;
  /** The search's cap (null for briefs). */
  cap: number | null;
  /** Credits charged (briefs; null for searches, which the summary does not charge per search). */
  credits: number | null;
  /** Why it gave nothing, stopped early or cost nothing; empty when there is nothing to say. */
  note: string;
  /** Its stored answers' ids on the Sources sheet (empty: none, or a run from before they were kept). */
  sourceIds: string[];
}

/** The briefs, then the searches. */
export function sourceLines(summary: ProspectSummary): SourceLine[] {
  const briefs: SourceLine[] = summary.briefs.map((b) => ({
    label: b.label,
    asked: b.text,
    rows: b.returned,
    total: null,
    cap: null,
    credits: b.charged,
    note: b.problem ?? (b.charged === 0 && b.returned > 0 ? 'free: a repeat within 24 hours' : ''),
    sourceIds: b.sourceIds ?? [],
  }));
  const searches: SourceLine[] = summary.searches.map((s) => ({
    label: s.label,
    asked: s.filters,
    rows: s.fetched,
    total: s.total,
    cap: s.cap,
    credits: null,
    note: s.problem ?? (s.capped ? capNote(s) : ''),
    sourceIds: s.sourceIds ?? [],
  }));
  return [...briefs, ...searches];
}

/** Whether the search's rows came largest total raised first (stated by the service or seen). */
function largestFirst(s: Pick<SearchSource, 'order'>): boolean {
  const o = (s.order ?? '').toLowerCase();
  return o === 'total-raised-desc' || /total[ _-]?raised\s*(desc|descending|,|$)/.test(o);
}

/** How the cap chose the rows, short (a source's note): `cap 300: the 300 that raised most`. */
export function capNote(s: SearchSource): string {
  return largestFirst(s)
    ? `cap ${formatInt(s.cap)}: the ${formatInt(s.cap)} that raised most`
    : `stopped at its cap of ${formatInt(s.cap)}`;
}

/**
 * How a capped search chose its rows, in a sentence: the service's order, and what the cap
 * therefore kept. `search 1 stopped at its cap of 300 of 1,234 matching startups: the service
 * returns the largest total raised first, so the cap kept the 300 that raised most.`
 */
export function capSentence(s: SearchSource): string {
  const of = s.total === null ? '' : ` of ${formatInt(s.total)} matching startups`;
  const head = `${s.label} stopped at its cap of ${formatInt(s.cap)} rows${of}`;
  if (largestFirst(s))
    return `${head}: the service returns the largest total raised first, so the cap kept the ${formatInt(s.cap)} that raised most.`;
  if (s.order)
    return `${head}: the service returns them in its own order (${s.order}), so the cap kept the first ${formatInt(s.cap)} of that order.`;
  return `${head}: the service does not say how it orders them, so the cap kept the first ${formatInt(s.cap)} it returned.`;
}

/** What a source gave, in words: `30 companies`, `1,000 of 12,345`. */
export function gaveText(s: SourceLine): string {
  if (s.total !== null && s.total !== s.rows) return `${formatInt(s.rows)} of ${formatInt(s.total)}`;
  return `${formatInt(s.rows)} ${s.rows === 1 ? 'company' : 'companies'}`;
}

/** A reason a company was left out, as a reader says it. */
export const REASON_LABELS: Record<SuppressionReason, string> = {
  'crm-domain': 'In the CRM export (domain)',
  'crm-name': 'In the CRM export (name)',
  delivered: 'Delivered by an earlier run',
  closed: "Closed (the service's status)",
  acquired: "Acquired (the service's status)",
  'raised-before': 'Last round too long ago',
  'no-round-date': 'No last round date',
};

/**
 * Companies left out for each reason, with the reason in words (zero counts included; the
 * raisedWithin reasons only for a job with that rule).
 */
export function leftOutCounts(summary: ProspectSummary): { reason: string; count: number }[] {
  const c = summary.counts;
  const since = summary.raisedSince ? formatDate(summary.raisedSince) : null;
  return [
    { reason: "closed (the service's status)", count: c.leftOutClosed ?? 0 },
    { reason: "acquired (the service's status)", count: c.leftOutAcquired ?? 0 },
    // The raisedWithin reasons only when the job has that rule.
    ...(summary.job.raisedWithin
      ? [
          {
            reason: `last round before ${since ?? 'the raisedWithin period'} (raised within ${summary.job.raisedWithin})`,
            count: c.leftOutRaisedBefore ?? 0,
          },
          { reason: 'no last round date given (raisedWithin)', count: c.leftOutNoRoundDate ?? 0 },
        ]
      : []),
    { reason: 'in the CRM export, matched by domain', count: c.suppressedByDomain },
    { reason: 'in the CRM export, matched by name', count: c.suppressedByName },
    { reason: 'delivered by an earlier run (net new only)', count: c.suppressedDelivered },
  ];
}

/** Companies left out or marked, one sentence a reason; one sentence when nothing was. */
export function leftOutLines(summary: ProspectSummary): string[] {
  const c = summary.counts;
  const lines: string[] = [];
  const count = (n: number) => plural(n, 'company', 'companies');
  for (const l of leftOutCounts(summary))
    if (l.count > 0) lines.push(`${count(l.count)} left out: ${l.reason}.`);
  if ((c.flaggedClosed ?? 0) > 0)
    lines.push(
      `${count(c.flaggedClosed ?? 0)} closed or acquired kept, as the job asks (keepClosed), and flagged in the "Closed or acquired" column.`,
    );
  if (c.markedDelivered > 0)
    lines.push(`${count(c.markedDelivered)} kept but marked as delivered by an earlier run.`);
  if (lines.length === 0)
    lines.push(
      'Nothing was left out: no company was closed, acquired, in the CRM export or delivered before.',
    );
  if (c.listed > 0 && c.enrichAsked > 0 && c.enriched < Math.min(c.enrichAsked, c.listed))
    lines.push(
      `${formatInt(c.enriched)} of the top ${formatInt(c.enrichAsked)} rows enriched with founders, investors and rounds (get_startup).`,
    );
  return lines;
}

/** Companies left out in all. */
export function leftOutTotal(summary: ProspectSummary): number {
  return leftOutCounts(summary).reduce((a, l) => a + l.count, 0);
}

/** The left-out counts by reason in short words, the reasons with none left out. */
function leftOutParts(summary: ProspectSummary): [number, string][] {
  const c = summary.counts;
  const parts: [number, string][] = [
    [c.leftOutClosed ?? 0, 'closed'],
    [c.leftOutAcquired ?? 0, 'acquired'],
    [(c.leftOutRaisedBefore ?? 0) + (c.leftOutNoRoundDate ?? 0), 'no round in the period'],
    [c.suppressedByDomain + c.suppressedByName, 'in the CRM'],
    [c.suppressedDelivered, 'delivered before'],
  ];
  return parts.filter(([n]) => n > 0);
}

/** The left-out counts in a short note: `71 closed, 36 acquired, 136 no round in the period`. */
export function leftOutNote(summary: ProspectSummary): string {
  const shown = leftOutParts(summary).map(([n, w]) => `${formatInt(n)} ${w}`);
  return shown.length > 0 ? shown.join(', ') : 'none left out';
}

/**
 * The left-out note as it fits `fits` whole (a key figure's tile has one short line): the
 * counts by reason when they fit; else, for one reason, the reason alone (the tile's value is
 * its count); else how many reasons (the brief's "Left out" section and the Summary sheet give
 * each count). Never a note cut short.
 *
 * @example leftOutTileNote(summary, (t) => t.length <= 20) // 'for 3 reasons'
 */
export function leftOutTileNote(summary: ProspectSummary, fits: (text: string) => boolean): string {
  const full = leftOutNote(summary);
  if (fits(full)) return full;
  const parts = leftOutParts(summary);
  if (parts.length === 1) return parts[0]![1];
  return `for ${parts.length} reasons`;
}

const ISO_DAY = /\b(\d{4}-\d{2}-\d{2})(?:T[\d:.]+Z?)?\b/g;

/**
 * A reason of the service as the report prints it: its ISO dates in the report's date format
 * (`closed a $30M Series A round on 12 Nov 2026`), the rest as the service wrote it.
 *
 * @example reasonText('raised on 2026-11-12: docs follow') // 'raised on 12 Nov 2026: docs follow'
 */
export function reasonText(reason: string): string {
  return reason.replace(ISO_DAY, (_, day: string) => formatDate(day));
}
