/**
 * The fund-match refresh: one find_startups_for_fund batch for the account's thesis (3 credits,
 * within the budget), a free get_startup for each startup of the batch and each past match the
 * watchlist follows, then the comparison with every earlier run of the job (new, still matched,
 * dropped with their reasons, watchlist events) as a digest PDF and a workbook. The engine
 * (workflows/engine.ts) keeps the books; this workflow decides what to call.
 *
 * Runs in flight replay through this code: the order of its commands is frozen (see the
 * README's "Changing a workflow safely"); a change of its commands goes behind `patched()`.
 */
import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import { JOB_ACTIVITY_OPTIONS } from '../../workflows/calls.js';
import {
  jobRunOptions,
  startRun,
  type JobRunInput,
  type Run,
  type JobRunResult,
} from '../../workflows/engine.js';
import type { FundMatchActivities } from './activities.js';
import type { FundMatchJob } from './job.js';
import { planFundMatch } from './plan.js';

export type FundMatchInput = JobRunInput<FundMatchJob>;
export type FundMatchResult = JobRunResult & {
  baseline: boolean;
  quiet: boolean;
  counts: { batch: number; new: number; changed: number; dropped: number; events: number };
};

const fund = proxyActivities<FundMatchActivities>(JOB_ACTIVITY_OPTIONS);

export async function fundMatchWorkflow(input: FundMatchInput): Promise<FundMatchResult> {
  const { job } = input;
  const run = startRun(jobRunOptions(input, planFundMatch(job).maxCalls));
  return run.guard(() => matchFund(input, run));
}

/** The run of a fund match, its books kept by `run`. */
async function matchFund(input: FundMatchInput, run: Run): Promise<FundMatchResult> {
  const { job } = input;

  // 1. The account: plan and balance bound what the run may spend.
  await run.checkAccount();

  // 2. The batch (paid). Without it there is nothing to compare: the run fails, saying why, and
  // the job's history stays as it was.
  run.phase('matching');
  const ask = run.paidCall('find_startups_for_fund', { limit: job.limit }, 'batch', 'find_startups_for_fund');
  const batch = await ask.result;
  if (batch === null) {
    // The failure says what the run spent (batches lost after the charge, each attempt's, are
    // paid for); its manifest (the engine's guard) records the same.
    const spent = run.stats().creditsSpent;
    throw ApplicationFailure.create({
      message: `no batch this run (${spent} credit${spent === 1 ? '' : 's'} spent): ${ask.refused ?? run.stats().reasons.join('; ')}`,
      type: 'no_batch',
      nonRetryable: true,
    });
  }

  // 3. The profiles: the batch's startups and the watchlist's past matches (free, paced).
  const planned = await fund.planFundProfiles({
    job: { id: job.id, watchlist: job.watchlist },
    batchRef: batch.ref,
  });
  run.planCalls(2 + planned.keys.length);
  run.phase('watching');
  const profiles = await Promise.all(
    planned.keys.map(async (key, i) => {
      const out = await run.tryCall('get_startup', { key }, `profiles/startup-${i}`, `get_startup ${key}`);
      return { key, ref: out?.ref ?? null };
    }),
  );

  // 4. The comparison with every earlier run, the digest and its files.
  run.phase('building');
  const built = await fund.buildFundDigest({
    runKey: run.runKey,
    job: { id: job.id, title: job.title, enrichNew: job.enrichNew },
    date: run.date,
    workflowId: run.workflowId,
    batchRef: batch.ref,
    profiles,
  });
  const result = await run.renderAndFinish({
    job,
    snapshotRef: built.snapshotRef,
    ...(built.quiet && !job.deliverWhenQuiet
      ? { skipDelivery: 'nothing new, changed or dropped since the last run (deliverWhenQuiet: false)' }
      : {}),
    render: () =>
      fund.renderFundDigest({
        digestRef: built.digestRef,
        job: {
          id: job.id,
          destination: job.destination,
          outputs: job.outputs,
          digestWhenQuiet: job.digestWhenQuiet,
          // Only when asked: a default job's input stays what earlier runs recorded.
          ...(job.chartImages ? { chartImages: true } : {}),
        },
        date: run.date,
        workflowId: run.workflowId,
      }),
  });
  return { ...result, baseline: built.baseline, quiet: built.quiet, counts: built.counts };
}
