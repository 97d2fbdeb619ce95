/**
 * The fund-match refresh as a job kind: a find_startups_for_fund batch for the account's thesis,
 * compared with every earlier run (new, still matched, dropped with their reasons, watchlist
 * events); a digest PDF and a workbook.
 */
import { fileURLToPath } from 'node:url';
import { defineJobKind } from '../kind.js';
import { createFundMatchActivities } from './activities.js';
import { FUND_MATCH_KIND, FundMatchJobSchema, normaliseFundMatchJob, type FundMatchJob } from './job.js';
import { planFundMatch } from './plan.js';
import { fundMatchWorkflow, type FundMatchResult } from './workflow.js';

export const fundMatchKind = defineJobKind<FundMatchJob>({
  kind: FUND_MATCH_KIND,
  description: "scheduled fund-match refresh: what is new, changed and dropped in the thesis's matches",
  schema: FundMatchJobSchema,
  normalise: normaliseFundMatchJob,
  workflow: fundMatchWorkflow,
  workflowsPath: fileURLToPath(new URL('./workflow.ts', import.meta.url)),
  idPrefix: 'fund-match',
  estimate: planFundMatch,
  scope: (job) => `a batch of ${job.limit}, a watchlist of up to ${job.watchlist}`,
  activities: createFundMatchActivities,
  resultLines: (result) => {
    const r = result as FundMatchResult;
    return r.baseline
      ? [`  baseline: ${r.counts.batch} matches (the next runs say what changed)`]
      : [
          `  ${r.counts.new} new, ${r.counts.changed} changed, ${r.counts.dropped} dropped, ${r.counts.events} watchlist events`,
        ];
  },
  examples: ['jobs/fund-match/examples/weekly-matches.yaml', 'jobs/fund-match/examples/demo.yaml'],
});

export { parseFundMatchJob, FundMatchJobSchema, FUND_MATCH_KIND } from './job.js';
export type { FundMatchJob } from './job.js';
export { planFundMatch } from './plan.js';
export { fundMatchWorkflow } from './workflow.js';
export type { FundMatchInput, FundMatchResult } from './workflow.js';
export { createFundMatchActivities } from './activities.js';
export type { FundMatchActivities } from './activities.js';
