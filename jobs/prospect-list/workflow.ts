/**
 * The prospect list job: find_customers for each brief (paid, a repeat within 24 hours free),
 * the bulk searches paged in children, one row per company merged by key and domain, the CRM's
 * suppression list and the net-new rule, the top rows enriched with get_startup, then CSV files
 * per CRM profile, a streamed workbook and a one-page brief. The engine (workflows/engine.ts)
 * keeps the books; this workflow decides what to call.
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
import type { ProspectListActivities } from './activities.js';
import type { ProspectListJob } from './job.js';
import { briefParams, planProspectList, searchFilters, searchStreams } from './plan.js';
import type { BriefSource, SearchSource } from './types.js';

export type ProspectListInput = JobRunInput<ProspectListJob>;
export type ProspectListResult = JobRunResult & { listed: number; netNew: number };

/** Merging reads every page of a list: up to 1,000 for 100,000 rows. */
const list = proxyActivities<ProspectListActivities>({
  ...JOB_ACTIVITY_OPTIONS,
  startToCloseTimeout: '30 minutes',
});

export async function prospectListWorkflow(input: ProspectListInput): Promise<ProspectListResult> {
  const { job } = input;
  const run = startRun(jobRunOptions(input, planProspectList(job).maxCalls));
  return run.guard(() => listProspects(input, run));
}

/** The run of a prospect list, its books kept by `run`. */
async function listProspects(input: ProspectListInput, run: Run): Promise<ProspectListResult> {
  const { job } = input;
  const limits: string[] = [];

  // 1. The account: plan and balance bound what the run may spend.
  await run.checkAccount();

  // 2. The briefs (paid, in the job's order, within the budget) and the searches (paged).
  run.phase('finding');
  const briefCall = (i: number) => `customers/brief-${i + 1}`;
  const asks = job.briefs.map((brief, i) =>
    run.paidCall('find_customers', briefParams(brief), briefCall(i), `find_customers brief ${i + 1}`),
  );
  const streams = searchStreams(job);
  const pagings = streams.map((stream, i) => run.page(stream, `search ${i + 1}`));
  const briefs: (BriefSource & { ref: string | null })[] = await Promise.all(
    asks.map(async (ask, i) => {
      const brief = job.briefs[i]!;
      const out = await ask.result;
      // What the brief cost: every attempt's charge. An answer lost after the charge (its
      // worker died) is asked again as the service's free repeat, and still cost the first charge.
      const charged = run.paidCredits(briefCall(i));
      const problem = paidCallProblem(ask.refused, out !== null, charged);
      return {
        label: `brief ${i + 1}`,
        text: brief.brief ?? `organisation ${brief.org_key ?? ''}`,
        returned: 0,
        charged,
        problem,
        ref: out?.ref ?? null,
      };
    }),
  );
  const skipped = briefs.filter((b) => b.problem?.startsWith('not asked')).length;
  if (skipped > 0) {
    const reason = `${skipped} of ${briefs.length} find_customers briefs not asked: credit budget of ${job.budget.credits} credits`;
    run.partial(reason);
    limits.push(reason);
  }
  run.phase('paging');
  const paged = await Promise.all(pagings);
  const searches: SearchSource[] = paged.map((p, i) => ({
    label: `search ${i + 1}`,
    filters: searchFilters(job.searches[i]!),
    total: p.total,
    fetched: p.records,
    cap: streams[i]!.cap,
    capped: p.capped,
    problem:
      p.pages === 0 && p.records === 0 && p.total === null ? 'the search failed (see the manifest)' : null,
  }));
  for (const s of searches) {
    if (s.capped) {
      limits.push(
        `${s.label} stopped at its cap of ${s.cap} rows${s.total === null ? '' : ` of ${s.total} matching startups`}`,
      );
    }
  }

  // 3. One row per company, the suppression list and the net-new rule applied.
  run.phase('merging');
  const merged = await list.mergeProspects({
    runKey: run.runKey,
    job,
    date: run.date,
    briefs: briefs.map((b) => ({ label: b.label, ref: b.ref })),
    searches: paged.map((p, i) => ({ label: `search ${i + 1}`, refs: p.refs })),
  });
  briefs.forEach((b, i) => (b.returned = merged.briefReturned[i] ?? 0));
  run.planCalls(planProspectList(job).maxCalls - Math.max(0, job.enrich - merged.enrichKeys.length));

  // 4. The top rows enriched (free reads, paced like every call).
  run.phase('enriching');
  const enrichment = await Promise.all(
    merged.enrichKeys.map(async (key, i) => {
      const out = await run.tryCall('get_startup', { key }, `profiles/startup-${i}`, `get_startup ${key}`);
      return { key, ref: out?.ref ?? null };
    }),
  );
  if (merged.counts.listed > merged.enrichKeys.length && job.enrich > 0) {
    limits.push(
      `the top ${merged.enrichKeys.length} of ${merged.counts.listed} rows enriched (the job's enrich: ${job.enrich})`,
    );
  }

  // 5. The list finished (enrichment, summary, snapshot), then its files.
  run.phase('building');
  const finished = await list.finishProspectList({
    runKey: run.runKey,
    job,
    date: run.date,
    merged,
    enrichment,
    briefs: briefs.map(({ ref: _ref, ...b }) => b),
    searches,
    limits,
    stats: run.stats(),
  });
  const result = await run.renderAndFinish({
    job,
    snapshotRef: finished.snapshotRef,
    render: () =>
      list.renderProspectList({
        refs: finished,
        job: { id: job.id, destination: job.destination, outputs: job.outputs, crm: job.crm },
        date: run.date,
        workflowId: run.workflowId,
      }),
  });
  return { ...result, listed: finished.listed, netNew: finished.netNew };
}
