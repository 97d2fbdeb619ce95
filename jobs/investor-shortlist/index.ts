/**
 * Investor shortlists for portfolio companies as a job kind: find_investors per company, the top
 * investors enriched, new investors since the last run marked, the investors who fit several
 * companies; a workbook and a PDF.
 */
import { fileURLToPath } from 'node:url';
import { defineJobKind } from '../kind.js';
import { createInvestorShortlistActivities } from './activities.js';
import {
  INVESTOR_SHORTLIST_KIND,
  InvestorShortlistJobSchema,
  investorShortlistPreflight,
  normaliseInvestorShortlistJob,
  type InvestorShortlistJob,
} from './job.js';
import { planInvestorShortlist, shortlistPlanLines } from './plan.js';
import { investorShortlistWorkflow, type InvestorShortlistResult } from './workflow.js';

export const investorShortlistKind = defineJobKind<InvestorShortlistJob>({
  kind: INVESTOR_SHORTLIST_KIND,
  description: 'investor shortlists for portfolio companies: a workbook and a PDF, new investors marked',
  schema: InvestorShortlistJobSchema,
  normalise: normaliseInvestorShortlistJob,
  workflow: investorShortlistWorkflow,
  workflowsPath: fileURLToPath(new URL('./workflow.ts', import.meta.url)),
  idPrefix: 'investor-shortlist',
  estimate: planInvestorShortlist,
  planLines: shortlistPlanLines,
  scope: (job) => `${job.companies.length} ${job.companies.length === 1 ? 'company' : 'companies'}`,
  preflight: investorShortlistPreflight,
  activities: createInvestorShortlistActivities,
  resultLines: (result) =>
    (result as InvestorShortlistResult).baseline ? ['  baseline: the next runs mark new investors'] : [],
  // find_investors is for startups and their backers: the sandbox's startup account.
  sandboxKey: 'vis_live_sandbox_startup',
  examples: ['jobs/investor-shortlist/examples/portfolio-raises.yaml'],
});

export { parseInvestorShortlistJob, InvestorShortlistJobSchema, INVESTOR_SHORTLIST_KIND } from './job.js';
export type { InvestorShortlistJob } from './job.js';
export { investorShortlistWorkflow } from './workflow.js';
export type { InvestorShortlistInput, InvestorShortlistResult } from './workflow.js';
export { createInvestorShortlistActivities } from './activities.js';
export type { InvestorShortlistActivities } from './activities.js';
