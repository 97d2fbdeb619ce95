/**
 * Bulk prospect lists for sales as a job kind: find_customers briefs and paged search_startups
 * merged into one row per company, the CRM's suppression list and the net-new rule applied, the
 * top rows enriched; CSV files per CRM profile, a streamed workbook and a one-page brief.
 */
import { fileURLToPath } from 'node:url';
import { defineJobKind } from '../kind.js';
import { createProspectListActivities } from './activities.js';
import {
  normaliseProspectListJob,
  PROSPECT_KIND,
  ProspectListJobSchema,
  type ProspectListJob,
} from './job.js';
import { planProspectList, prospectPlanLines } from './plan.js';
import { prospectListPreflight } from './preflight.js';
import { prospectListWorkflow, type ProspectListResult } from './workflow.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const prospectListKind = defineJobKind<ProspectListJob>({
  kind: PROSPECT_KIND,
  description: 'bulk prospect list for sales: CRM-ready CSV files, a streamed workbook and a one-page brief',
  schema: ProspectListJobSchema,
  normalise: normaliseProspectListJob,
  workflow: prospectListWorkflow,
  workflowsPath: fileURLToPath(new URL('./workflow.ts', import.meta.url)),
  idPrefix: 'prospect-list',
  estimate: planProspectList,
  planLines: prospectPlanLines,
  scope: (job) =>
    [plural(job.briefs.length, 'brief', 'briefs'), plural(job.searches.length, 'search', 'searches')].join(
      ', ',
    ),
  countries: (job) =>
    job.searches.flatMap((s, i) =>
      (s.countries ?? []).map((country, c) => ({
        field: s.region ? `searches[${i}].region` : `searches[${i}].countries[${c}]`,
        country,
      })),
    ),
  inputFiles: (job) => (job.suppress ? [{ field: 'suppress', path: job.suppress }] : []),
  preflight: prospectListPreflight,
  activities: createProspectListActivities,
  resultLines: (result) => {
    const r = result as ProspectListResult;
    return [`  ${r.listed} companies listed, ${r.netNew} net new`];
  },
  // find_customers is for service providers and organisations: the sandbox's provider account.
  sandboxKey: 'vis_live_sandbox_provider',
  examples: ['jobs/prospect-list/examples/prospects.yaml', 'jobs/prospect-list/examples/demo.yaml'],
});

export { parseProspectListJob, ProspectListJobSchema, PROSPECT_KIND, CRM_PROFILES } from './job.js';
export type { ProspectListJob, CrmProfile } from './job.js';
export { planProspectList, prospectPlanLines, prospectPlanDetail } from './plan.js';
export { prospectListWorkflow } from './workflow.js';
export type { ProspectListInput, ProspectListResult } from './workflow.js';
export { createProspectListActivities } from './activities.js';
export type { ProspectListActivities } from './activities.js';
export { CRM_PROFILE_SPECS } from './profiles.js';
export { prospectListPreflight } from './preflight.js';
