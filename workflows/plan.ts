/**
 * What a market-report run will do, computed from the job alone (pure: used by the workflow
 * and by `vir run` for the estimate it prints before starting).
 */
import type { OPERATIONS } from '../api/operations.js';
import type { MarketReportJob } from '../config/jobs.js';

/** Largest page size of search_investors and search_startups. */
export const PAGE_SIZE = 100;
/** Credits of one ask (the spec's price). */
export const ASK_CREDITS = 1 satisfies (typeof OPERATIONS)['ask']['credits'];

/** Expands the job's questions: `{country}` questions once per country. */
export function expandQuestions(job: MarketReportJob): { question: string; country: string | null }[] {
  const out: { question: string; country: string | null }[] = [];
  for (const q of job.questions) {
    if (q.perCountry) {
      for (const c of job.countries) out.push({ question: q.text.replaceAll('{country}', c), country: c });
    } else {
      out.push({ question: q.text, country: null });
    }
  }
  return out;
}

/** A search paged by a child workflow: one per country and list. */
export interface PagingStream {
  label: string;
  operation: 'search_investors' | 'search_startups';
  params: Record<string, unknown>;
  cap: number;
  /** Most pages it takes (the cap at the largest page size). */
  maxPages: number;
}

/** Makes a name safe inside workflow ids and store paths. */
export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'x'
  );
}

/** The three paged searches of a country: investors by score, by investments, and startups. */
export function pagingStreams(
  job: MarketReportJob,
  country: string,
): [PagingStream, PagingStream, PagingStream] {
  const cs = slug(country);
  const inv = job.paging.maxInvestorsPerCountry;
  const st = job.paging.maxStartupsPerCountry;
  const investors = (sort: 'score' | 'investments'): PagingStream => ({
    label: `investors-${cs}-${sort}`,
    operation: 'search_investors',
    params: { country, sort },
    cap: inv,
    maxPages: Math.ceil(inv / PAGE_SIZE),
  });
  return [
    investors('score'),
    investors('investments'),
    {
      label: `startups-${cs}`,
      operation: 'search_startups',
      params: { countries: [country] },
      cap: st,
      maxPages: Math.ceil(st / PAGE_SIZE),
    },
  ];
}

export interface RunPlan {
  /** Most calls the run makes (paging stops earlier when a result set is smaller than its cap). */
  maxCalls: number;
  questions: number;
  /** Questions the credit budget pays for, in the job's order. */
  questionsInBudget: number;
  creditsNeeded: number;
}

/** The upper bound of calls and the credits a run of the job needs. */
export function planMarketReport(job: MarketReportJob): RunPlan {
  const questions = expandQuestions(job).length;
  const pages = job.countries.flatMap((c) => pagingStreams(job, c)).reduce((a, s) => a + s.maxPages, 0);
  const perCountry = 1 + job.enrich.investors + job.enrich.startups;
  const creditsNeeded = questions * ASK_CREDITS;
  return {
    maxCalls: 1 + job.countries.length * perCountry + pages + questions,
    questions,
    questionsInBudget: Math.min(questions, Math.floor(job.budget.credits / ASK_CREDITS)),
    creditsNeeded,
  };
}
