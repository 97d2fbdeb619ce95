/**
 * What a market-report run will do, computed from the job alone (pure: used by the workflow
 * and by `vir run` for the estimate it prints before starting).
 */
import { creditsOf } from '../../api/catalog.js';
import { slugId } from '../../lib/names.js';
import { maxPagesOf, type PagingStream } from '../../workflows/engine.js';
import type { JobEstimate } from '../kind.js';
import type { MarketReportJob } from './job.js';

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

/** The three paged searches of a country: investors by score, by investments, and startups. */
export function pagingStreams(
  job: MarketReportJob,
  country: string,
): [PagingStream<'search_investors'>, PagingStream<'search_investors'>, PagingStream<'search_startups'>] {
  const cs = slugId(country);
  const investors = (sort: 'score' | 'investments'): PagingStream<'search_investors'> => ({
    label: `investors-${cs}-${sort}`,
    operation: 'search_investors',
    params: { country, sort },
    cap: job.paging.maxInvestorsPerCountry,
  });
  return [
    investors('score'),
    investors('investments'),
    {
      label: `startups-${cs}`,
      operation: 'search_startups',
      params: { countries: [country] },
      cap: job.paging.maxStartupsPerCountry,
    },
  ];
}

/** The upper bound of calls and the credits a run of the job needs. */
export function planMarketReport(job: MarketReportJob): JobEstimate {
  const questions = expandQuestions(job).length;
  const askCost = creditsOf('ask');
  const pages = job.countries.flatMap((c) => pagingStreams(job, c)).reduce((a, s) => a + maxPagesOf(s), 0);
  const perCountry = 1 + job.enrich.investors + job.enrich.startups;
  return {
    maxCalls: 1 + job.countries.length * perCountry + pages + questions,
    paidCalls: questions,
    creditsNeeded: questions * askCost,
    paidCallsInBudget: Math.min(questions, Math.floor(job.budget.credits / askCost)),
    paidCallNoun: ['question', 'questions'],
  };
}
