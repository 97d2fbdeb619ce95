/**
 * The investor shortlist: find_investors for each portfolio company (3 credits each, in the
 * job's order, within the budget; on a free plan the first company only, the top 5), get_investor
 * for each company's top investors, then a workbook and a PDF with a section per company and the
 * investors who fit several, new investors since the last run marked. The engine
 * (workflows/engine.ts) keeps the books; this workflow decides what to call.
 *
 * Runs in flight replay through this code: the order of its commands is frozen (see the
 * README's "Changing a workflow safely"); a change of its commands goes behind `patched()`.
 */
import { proxyActivities } from '@temporalio/workflow';
import { JOB_ACTIVITY_OPTIONS } from '../../workflows/calls.js';
import {
  jobRunOptions,
  paidCallProblem,
  startRun,
  type JobRunInput,
  type Run,
  type JobRunResult,
} from '../../workflows/engine.js';
import type { InvestorShortlistActivities } from './activities.js';
import type { InvestorShortlistJob } from './job.js';
import { companyParams, FREE_PLAN_TOP, planInvestorShortlist } from './plan.js';

export type InvestorShortlistInput = JobRunInput<InvestorShortlistJob>;
export type InvestorShortlistResult = JobRunResult & { baseline: boolean };

const short = proxyActivities<InvestorShortlistActivities>(JOB_ACTIVITY_OPTIONS);

export async function investorShortlistWorkflow(
  input: InvestorShortlistInput,
): Promise<InvestorShortlistResult> {
  const { job } = input;
  const run = startRun(jobRunOptions(input, planInvestorShortlist(job).maxCalls));
  return run.guard(() => shortlistInvestors(input, run));
}

/** The run of an investor shortlist, its books kept by `run`. */
async function shortlistInvestors(input: InvestorShortlistInput, run: Run): Promise<InvestorShortlistResult> {
  const { job } = input;

  // 1. The account: the balance bounds what the run may spend; a free plan allows one run.
  await run.checkAccount();
  const account = await run.tryCall('my_account', {}, 'account/plan', 'plan check');
  const free = account !== null && (await short.readAccountPlan({ ref: account.ref })) === 'free';
  const planNote = free
    ? `A free plan: the service allows one find_investors run with the top ${FREE_PLAN_TOP}; only ${job.companies[0]!.name} was asked.`
    : null;

  // 2. A list per company, paid, in the job's order.
  run.phase('finding');
  const companies = await Promise.all(
    job.companies.map(async (c, i) => {
      if (free && i > 0) {
        return {
          name: c.name,
          ref: null,
          charged: 0,
          problem: `not asked: the free plan allows one run of find_investors`,
        };
      }
      const name = `investors/company-${i + 1}`;
      const ask = run.paidCall('find_investors', companyParams(c, free), name, `find_investors ${c.name}`);
      const out = await ask.result;
      // What the company cost: every attempt's charge, answers lost after the charge included.
      const charged = run.paidCredits(name);
      const problem = paidCallProblem(ask.refused, out !== null, charged);
      return { name: c.name, ref: out?.ref ?? null, charged, problem };
    }),
  );
  const skipped = companies.filter((c) => c.problem?.startsWith('not asked')).length;
  if (skipped > 0)
    run.partial(
      `${skipped} of ${companies.length} companies not asked: ${free ? 'the free plan' : `credit budget of ${job.budget.credits} credits`}`,
    );

  // 3. Each company's top investors enriched (free reads, paced).
  run.phase('enriching');
  const profiles = (
    await Promise.all(
      companies.map(async (c, i) => {
        if (c.ref === null || job.enrich === 0) return [];
        const keys = await run.activities.selectTop({ refs: [c.ref], n: job.enrich });
        return Promise.all(
          keys.map(async (key, k) => {
            const out = await run.tryCall(
              'get_investor',
              { key },
              `profiles/investor-${i + 1}-${k}`,
              `get_investor ${key}`,
            );
            return { key, ref: out?.ref ?? null };
          }),
        );
      }),
    )
  ).flat();

  // 4. The report's model (new since the last run marked), then its files.
  run.phase('building');
  const built = await short.buildShortlist({
    runKey: run.runKey,
    job: { id: job.id, title: job.title, companies: job.companies, budget: job.budget },
    date: run.date,
    companies,
    profiles,
    creditsSpent: run.stats().creditsSpent,
    planNote,
  });
  const result = await run.renderAndFinish({
    job,
    snapshotRef: built.snapshotRef,
    render: () =>
      short.renderShortlist({
        reportRef: built.reportRef,
        job: {
          id: job.id,
          destination: job.destination,
          outputs: job.outputs,
          // Only when asked: a default job's input stays what earlier runs recorded.
          ...(job.chartImages ? { chartImages: true } : {}),
        },
        date: run.date,
        workflowId: run.workflowId,
      }),
  });
  return { ...result, baseline: built.baseline };
}
