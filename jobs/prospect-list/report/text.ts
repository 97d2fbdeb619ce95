/**
 * The words of the prospect list's brief and Summary sheet, written once for both: the title,
 * one line per source (brief or search: what was asked, what it gave, credits, why it stopped)
 * and what was left out, in sentences.
 */
import { formatInt } from '../../../reports/format.js';
import type { ProspectSummary, SuppressionReason } from '../types.js';

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
  }));
  const searches: SourceLine[] = summary.searches.map((s) => ({
    label: s.label,
    asked: s.filters,
    rows: s.fetched,
    total: s.total,
    cap: s.cap,
    credits: null,
    note: s.problem ?? (s.capped ? `stopped at its cap of ${formatInt(s.cap)}` : ''),
  }));
  return [...briefs, ...searches];
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
};

/** Companies left out or marked, one sentence a reason; one sentence when nothing was. */
export function leftOutLines(summary: ProspectSummary): string[] {
  const c = summary.counts;
  const lines: string[] = [];
  const count = (n: number) => `${formatInt(n)} ${n === 1 ? 'company' : 'companies'}`;
  if (c.suppressedByDomain > 0)
    lines.push(`${count(c.suppressedByDomain)} left out: in the CRM export, matched by domain.`);
  if (c.suppressedByName > 0)
    lines.push(`${count(c.suppressedByName)} left out: in the CRM export, matched by name.`);
  if (c.suppressedDelivered > 0)
    lines.push(`${count(c.suppressedDelivered)} left out: delivered by an earlier run (net new only).`);
  if (c.markedDelivered > 0)
    lines.push(`${count(c.markedDelivered)} kept but marked as delivered by an earlier run.`);
  if (lines.length === 0)
    lines.push('Nothing was left out: no company was in the CRM export or delivered before.');
  if (c.listed > 0 && c.enrichAsked > 0 && c.enriched < Math.min(c.enrichAsked, c.listed))
    lines.push(
      `${formatInt(c.enriched)} of the top ${formatInt(c.enrichAsked)} rows enriched with founders, investors and rounds (get_startup).`,
    );
  return lines;
}

/** Companies left out in all. */
export function leftOutTotal(summary: ProspectSummary): number {
  const c = summary.counts;
  return c.suppressedByDomain + c.suppressedByName + c.suppressedDelivered;
}
