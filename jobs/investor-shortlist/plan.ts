/**
 * What an investor-shortlist run will do, from the job alone (pure): find_investors per company
 * (3 credits each, in the job's order, within the budget), then get_investor for each company's
 * top investors. On a free plan the service allows one run with the top 5: the run then asks the
 * first company only (the plan's lines say so).
 */
import { creditsOf } from '../../api/catalog.js';
import type { JobEstimate } from '../kind.js';
import type { InvestorShortlistJob } from './job.js';

/** Investors a free plan's one run returns. */
export const FREE_PLAN_TOP = 5;

/** The parameters of a company's find_investors call (`limit` capped on a free plan). */
export function companyParams(company: InvestorShortlistJob['companies'][number], freePlan = false) {
  return {
    ...(company.website ? { website: company.website } : {}),
    ...(company.description ? { description: company.description } : {}),
    ...(company.raising_stage ? { raising_stage: company.raising_stage } : {}),
    ...(company.investor_region ? { investor_region: company.investor_region } : {}),
    ...(company.investor_countries ? { investor_countries: company.investor_countries } : {}),
    ...(company.sector ? { sector: company.sector } : {}),
    ...(company.subsectors ? { subsectors: company.subsectors } : {}),
    ...(company.tags ? { tags: company.tags } : {}),
    limit: freePlan ? Math.min(company.limit, FREE_PLAN_TOP) : company.limit,
  };
}

/** The upper bound of calls and the credits a run of the job needs (on a paid plan). */
export function planInvestorShortlist(job: InvestorShortlistJob): JobEstimate {
  const cost = creditsOf('find_investors');
  const n = job.companies.length;
  return {
    // my_account twice (the balance, then the plan), a list per company, its top investors.
    maxCalls: 2 + n + n * job.enrich,
    paidCalls: n,
    creditsNeeded: n * cost,
    paidCallsInBudget: Math.min(n, Math.floor(job.budget.credits / cost)),
    paidCallNoun: ['company', 'companies'],
  };
}

/** The plan's lines (`vir plan`, `vir run`), the free plan's limit among them. */
export function shortlistPlanLines(
  job: InvestorShortlistJob,
  limits: { perMinute: number; perDay: number },
): string[] {
  const p = planInvestorShortlist(job);
  const cost = creditsOf('find_investors');
  const minutes = p.maxCalls / limits.perMinute;
  return [
    `calls: at most ${p.maxCalls}: find_investors for ${p.paidCalls} ${p.paidCalls === 1 ? 'company' : 'companies'}, get_investor for the top ${job.enrich} of each, 2 account checks`,
    p.paidCallsInBudget < p.paidCalls
      ? `credits: the budget of ${job.budget.credits} pays for ${p.paidCallsInBudget} of ${p.paidCalls} companies (${cost} each); the rest are listed as not asked`
      : `credits: ${p.creditsNeeded} (${cost} a company) of the budget of ${job.budget.credits}`,
    `time: ${minutes < 1 ? 'under a minute' : `about ${Math.ceil(minutes)} min`} at ${limits.perMinute} calls/min`,
    `on a free plan: the service allows one find_investors run with the top ${FREE_PLAN_TOP}; only the first company is asked, once`,
  ];
}
