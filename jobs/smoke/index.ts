/** The smoke job as a job kind (see job.ts). */
import { fileURLToPath } from 'node:url';
import { defineJobKind } from '../kind.js';
import { createSmokeActivities } from './activities.js';
import { normaliseSmokeJob, SMOKE_KIND, SmokeJobSchema, type SmokeJob } from './job.js';
import { smokeMaxCalls, smokeWorkflow } from './workflow.js';

export const smokeKind = defineJobKind<SmokeJob>({
  kind: SMOKE_KIND,
  description: 'a free end-to-end check: account, one paged search, one profile, a JSON summary',
  schema: SmokeJobSchema,
  normalise: normaliseSmokeJob,
  workflow: smokeWorkflow,
  workflowsPath: fileURLToPath(new URL('./workflow.ts', import.meta.url)),
  idPrefix: 'smoke',
  estimate: (job) => ({
    maxCalls: smokeMaxCalls(job),
    paidCalls: 0,
    creditsNeeded: 0,
    paidCallsInBudget: 0,
    paidCallNoun: ['paid call', 'paid calls'],
  }),
  scope: (job) => `${job.records} startups of ${job.country}`,
  countries: (job) => [{ field: 'country', country: job.country }],
  activities: createSmokeActivities,
  resultLines: (result) => [`  ${result.records} startups paged in ${result.pages} pages`],
  examples: ['jobs/smoke/examples/smoke.yaml'],
});

export { parseSmokeJob, SmokeJobSchema } from './job.js';
export type { SmokeJob } from './job.js';
export { smokeWorkflow } from './workflow.js';
