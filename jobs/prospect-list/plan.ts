/**
 * What a prospect-list run will do, computed from the job alone (pure: the workflow, `vir run`'s
 * estimate and `vir plan` use it): the find_customers briefs, the paged searches, the rows it
 * enriches, and how long that takes under the service's limits.
 */
import { creditsOf, pageSizeOf } from '../../api/catalog.js';
import { maxPagesOf, type PagingStream } from '../../workflows/engine.js';
import type { JobEstimate } from '../kind.js';
import type { ProspectListJob } from './job.js';
import { MAX_ENRICH } from './limits.js';
import { stageLabel } from '../../reports/editorial.js';

/** A search of the job in words, stages as words: `Germany, France · Fintech · Seed, Series A · "payments"`. */
export function searchFilters(search: ProspectListJob['searches'][number]): string {
  const parts = [
    search.region
      ? `${search.region} (${search.countries?.length ?? 0} countries)`
      : search.countries?.join(', '),
    search.sector,
    search.stages?.map(stageLabel).join(', '),
    search.query === undefined ? undefined : `"${search.query}"`,
  ].filter((p): p is string => p !== undefined && p !== '');
  return parts.length > 0 ? parts.join(' · ') : 'every startup';
}

/** The job's searches as paging streams of search_startups (100 a page, up to each search's cap). */
export function searchStreams(job: ProspectListJob): PagingStream<'search_startups'>[] {
  return job.searches.map((s, i) => ({
    label: `search-${i + 1}`,
    operation: 'search_startups',
    params: {
      ...(s.countries ? { countries: s.countries } : {}),
      ...(s.sector ? { sector: s.sector } : {}),
      ...(s.stages ? { stages: s.stages } : {}),
      ...(s.query ? { query: s.query } : {}),
    },
    cap: s.cap,
  }));
}

/** The parameters of a brief's find_customers call. */
export function briefParams(brief: ProspectListJob['briefs'][number]) {
  return {
    ...(brief.brief ? { brief: brief.brief } : {}),
    ...(brief.org_key ? { org_key: brief.org_key } : {}),
    ...(brief.regions ? { regions: brief.regions } : {}),
    ...(brief.stages ? { stages: brief.stages } : {}),
    limit: brief.limit,
  };
}

/** The most rows a run's list can have: every brief's limit and every search's cap. */
export function maxRows(job: ProspectListJob): number {
  return job.briefs.reduce((a, b) => a + b.limit, 0) + job.searches.reduce((a, s) => a + s.cap, 0);
}

/** The upper bound of calls and the credits a run of the job needs. */
export function planProspectList(job: ProspectListJob): JobEstimate {
  const cost = creditsOf('find_customers');
  const pages = searchStreams(job).reduce((a, s) => a + maxPagesOf(s), 0);
  const enrich = Math.min(job.enrich, maxRows(job));
  return {
    maxCalls: 1 + job.briefs.length + pages + enrich,
    paidCalls: job.briefs.length,
    creditsNeeded: job.briefs.length * cost,
    paidCallsInBudget: Math.min(job.briefs.length, Math.floor(job.budget.credits / cost)),
    paidCallNoun: ['brief', 'briefs'],
  };
}

/** The service's limits a plan is measured against. */
export interface ServiceLimits {
  perMinute: number;
  perDay: number;
}

/** A job's plan in numbers and in lines a person reads (`vir plan`). */
export interface ProspectPlanDetail {
  calls: { briefs: number; pages: number; enrich: number; account: number; total: number };
  credits: number;
  /** Minutes of calls at the per-minute limit. */
  minutes: number;
  /** Service days the calls span under the daily limit (1: within today's). */
  days: number;
  /** What enriching every row of the list would take, in calls and days. */
  enrichAll: { calls: number; days: number };
}

/** The plan of a prospect list under the service's limits. */
export function prospectPlanDetail(job: ProspectListJob, limits: ServiceLimits): ProspectPlanDetail {
  const pages = searchStreams(job).reduce((a, s) => a + maxPagesOf(s), 0);
  const enrich = Math.min(job.enrich, maxRows(job));
  const total = 1 + job.briefs.length + pages + enrich;
  const rows = maxRows(job);
  return {
    calls: { briefs: job.briefs.length, pages, enrich, account: 1, total },
    credits: job.briefs.length * creditsOf('find_customers'),
    minutes: total / limits.perMinute,
    days: Math.max(1, Math.ceil(total / limits.perDay)),
    enrichAll: { calls: rows, days: Math.ceil((total - enrich + rows) / limits.perDay) },
  };
}

/** Whole minutes or hours, as a person reads a duration. */
function duration(minutes: number): string {
  if (minutes < 1) return 'under a minute';
  if (minutes < 90) return `about ${Math.ceil(minutes)} min`;
  return `about ${(minutes / 60).toFixed(1)} h`;
}

/** The lines `vir plan` prints for a prospect list (and `vir run` before it starts). */
export function prospectPlanLines(job: ProspectListJob, limits: ServiceLimits): string[] {
  const d = prospectPlanDetail(job, limits);
  const perPage = pageSizeOf('search_startups');
  const lines = [
    `calls: at most ${d.calls.total}: ${d.calls.briefs} find_customers ${d.calls.briefs === 1 ? 'brief' : 'briefs'}, ${d.calls.pages} search pages (${perPage} rows a page), ${d.calls.enrich} get_startup enrichments, 1 account check`,
    `credits: ${d.credits} (${creditsOf('find_customers')} a brief; a brief repeated within 24 hours is free) of the budget of ${job.budget.credits}`,
    `time: ${duration(d.minutes)} at ${limits.perMinute} calls/min`,
    d.days <= 1
      ? `days: within one day's limit of ${limits.perDay} calls`
      : `days: ${d.days}: more calls than the daily limit of ${limits.perDay}; the run waits for each daily reset and goes on`,
    `rows: at most ${maxRows(job)} before merging and suppression; the top ${d.calls.enrich} enriched`,
  ];
  if (d.enrichAll.calls > d.calls.enrich) {
    lines.push(
      `enriching every row would take ${d.enrichAll.calls} get_startup calls, ${d.enrichAll.days} ${d.enrichAll.days === 1 ? 'day' : 'days'} under the daily limit: only the top ${d.calls.enrich} are enriched (enrich: up to ${MAX_ENRICH})`,
    );
  }
  return lines;
}
