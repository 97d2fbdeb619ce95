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
  const perCountry =
    1 +
    2 * Math.ceil(job.paging.maxInvestorsPerCountry / PAGE_SIZE) +
    Math.ceil(job.paging.maxStartupsPerCountry / PAGE_SIZE) +
    job.enrich.investors +
    job.enrich.startups;
  const creditsNeeded = questions * ASK_CREDITS;
  return {
    maxCalls: 1 + job.countries.length * perCountry + questions,
    questions,
    questionsInBudget: Math.min(questions, Math.floor(job.budget.credits / ASK_CREDITS)),
    creditsNeeded,
  };
}
