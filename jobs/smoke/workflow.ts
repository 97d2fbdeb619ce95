/**
 * The smoke job's workflow: account check, one paged search, one profile, a JSON summary.
 * Everything but the summary is the engine's.
 */
import { proxyActivities } from '@temporalio/workflow';
import { slugId } from '../../lib/names.js';
import { JOB_ACTIVITY_OPTIONS } from '../../workflows/calls.js';
import {
  maxPagesOf,
  startRun,
  type JobRunInput,
  type Run,
  type JobRunResult,
  type PagingStream,
} from '../../workflows/engine.js';
import type { SmokeActivities } from './activities.js';
import type { SmokeJob } from './job.js';

const smoke = proxyActivities<SmokeActivities>(JOB_ACTIVITY_OPTIONS);

/** The paged search of a smoke job. */
export function smokeStream(job: SmokeJob): PagingStream<'search_startups'> {
  return {
    label: `startups-${slugId(job.country)}`,
    operation: 'search_startups',
    params: { countries: [job.country] },
    cap: job.records,
  };
}

/** Calls a smoke run makes at most: my_account, the pages, one get_startup. */
export function smokeMaxCalls(job: SmokeJob): number {
  return 1 + maxPagesOf(smokeStream(job)) + 1;
}

export async function smokeWorkflow(input: JobRunInput<SmokeJob>): Promise<JobRunResult> {
  const { job } = input;
  const run = startRun({
    creditsBudget: job.budget.credits,
    apiTaskQueue: input.apiTaskQueue,
    plannedCalls: smokeMaxCalls(job),
    jobId: job.id,
    ...(job.accountCaps ? { accountCaps: job.accountCaps } : {}),
    job,
  });
  return run.guard(() => smokeRun(input, run));
}

/** The run of a smoke job, its books kept by `run`. */
async function smokeRun(input: JobRunInput<SmokeJob>, run: Run): Promise<JobRunResult> {
  const { job } = input;
  await run.checkAccount();

  run.phase('paging');
  const paged = await run.page(smokeStream(job), job.country);

  run.phase('enriching');
  const [first] = await run.topKeys(paged, 1);
  const profile = first
    ? await run.tryCall('get_startup', { key: first }, 'profiles/first', `get_startup ${first}`)
    : null;

  return run.renderAndFinish({
    job,
    snapshotRef: null,
    phase: 'writing',
    render: async () => {
      const outDir = await run.activities.prepareOutputFolder({
        job,
        date: run.date,
        workflowId: run.workflowId,
      });
      return smoke.writeSmokeSummary({
        outDir,
        job,
        pages: paged.refs,
        total: paged.total,
        profile: profile?.ref ?? null,
        date: run.date,
      });
    },
  });
}
