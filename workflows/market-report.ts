/**
 * The weekly market report job: country overviews, paged investor and startup searches,
 * enrichment of the top records, data-agent questions within the credit budget, comparison
 * with the previous run, then one workbook and one PDF. Workflows decide; activities do.
 */
import {
  ApplicationFailure,
  executeChild,
  proxyActivities,
  setHandler,
  workflowInfo,
  ParentClosePolicy,
} from '@temporalio/workflow';
import type { ReportActivities } from '../activities/report.js';
import type { AnswerRef, ApiCallOutput, CountryRefs, RunStats } from '../activities/types.js';
import type { MarketReportJob } from '../config/jobs.js';
import { CreditBudget } from './budget.js';
import {
  ASK_CREDITS as ASK_COST,
  expandQuestions,
  PAGE_SIZE,
  pagingStreams,
  planMarketReport,
  slug,
  type PagingStream,
} from './plan.js';
import { createCaller, DEFAULT_API_TASK_QUEUE, failureMessage, failureType } from './calls.js';
import { pageSearchWorkflow, type PagingResult } from './paging.js';
import { estimateEta, pageDoneSignal, progressQuery, type RunProgress } from './progress.js';

export interface MarketReportInput {
  job: MarketReportJob;
  trigger: 'manual' | 'schedule' | 'backfill';
  /** Task queue of the API activities (rate-limited); default vir-api. */
  apiTaskQueue?: string;
}

export interface MarketReportResult {
  workflowId: string;
  outDir: string;
  files: { xlsx?: string; pdf?: string };
  manifestPath: string;
  partial: boolean;
  reasons: string[];
  callsMade: number;
  creditsSpent: number;
  creditsBudget: number;
}

const report = proxyActivities<ReportActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

export async function marketReportWorkflow(input: MarketReportInput): Promise<MarketReportResult> {
  const { job } = input;
  const info = workflowInfo();
  const runKey = info.workflowId;
  const apiTaskQueue = input.apiTaskQueue ?? DEFAULT_API_TASK_QUEUE;
  const startedAt = new Date(Date.now()).toISOString();
  const questions = expandQuestions(job);
  const plan = planMarketReport(job);
  const streams = job.countries.flatMap((c) => pagingStreams(job, c));
  /** Pages each paging stream will take, once its child knows the total. */
  const pagingPlanned: Record<string, number> = {};

  const progress: RunProgress = {
    phase: 'starting',
    callsMade: 0,
    callsPlanned: 0,
    pages: 0,
    records: 0,
    creditsSpent: 0,
    creditsBudget: job.budget.credits,
    etaSeconds: null,
    partial: false,
    reasons: [],
    waitingUntil: null,
    startedAt,
  };
  const callsByOperation: Record<string, number> = {};
  /** Planned calls: the plan's bound, with each stream's known page count instead of its cap. */
  const replan = () => {
    let planned = plan.maxCalls;
    for (const st of streams) planned += (pagingPlanned[st.label] ?? st.maxPages) - st.maxPages;
    progress.callsPlanned = Math.max(progress.callsMade, planned);
  };
  replan();
  setHandler(progressQuery, () => ({ ...progress, etaSeconds: estimateEta(progress, Date.now()) }));
  setHandler(pageDoneSignal, (p) => {
    progress.callsMade += p.calls;
    progress.pages += 1;
    progress.records += p.records;
    const op = p.label.startsWith('investors') ? 'search_investors' : 'search_startups';
    callsByOperation[op] = (callsByOperation[op] ?? 0) + p.calls;
    pagingPlanned[p.label] = p.plannedPages;
    replan();
  });
  const partial = (reason: string) => {
    progress.partial = true;
    if (!progress.reasons.includes(reason)) progress.reasons.push(reason);
  };

  const rawCall = createCaller(apiTaskQueue, { onWait: (until) => (progress.waitingUntil = until) });
  const call = async (op: Parameters<typeof rawCall>[0], params: Record<string, unknown>, name: string) => {
    const out = await rawCall(op, params, runKey, name);
    progress.callsMade += 1;
    callsByOperation[op] = (callsByOperation[op] ?? 0) + 1;
    return out;
  };
  /** Runs a call whose failure only makes the report partial; an auth failure stops the run. */
  const tryCall = async (
    op: Parameters<typeof rawCall>[0],
    params: Record<string, unknown>,
    name: string,
    what: string,
  ): Promise<ApiCallOutput | null> => {
    try {
      return await call(op, params, name);
    } catch (err) {
      const type = failureType(err);
      if (type === 'unauthorized' || type === 'invalid_params') {
        throw ApplicationFailure.create({
          message: failureMessage(err),
          type: type ?? 'failed',
          nonRetryable: true,
        });
      }
      partial(`${what}: ${failureMessage(err)}`);
      return null;
    }
  };

  // 1. The account: plan and balance bound what the run may spend.
  const account = await tryCall('my_account', {}, 'account', 'account check');
  const budget = new CreditBudget(job.budget.credits, account?.remaining ?? null);
  if (account && account.remaining === null) {
    // A service that leaves credits.remaining out of my_account: read the balance from its data.
    budget.setBalance(await report.readAccountBalance({ ref: account.ref }));
  }

  // 2. Per country: overview and paged searches (children page and continue as new).
  progress.phase = 'paging';
  const countries: CountryRefs[] = await Promise.all(
    job.countries.map(async (country): Promise<CountryRefs> => {
      const cs = slug(country);
      const overviewP = tryCall(
        'country_overview',
        { country },
        `overview/${cs}`,
        `country_overview ${country}`,
      );
      const page = (stream: PagingStream) =>
        executeChild(pageSearchWorkflow, {
          workflowId: `${info.workflowId}/paging/${stream.label}`,
          parentClosePolicy: ParentClosePolicy.TERMINATE,
          args: [
            {
              runKey,
              operation: stream.operation,
              params: stream.params,
              cap: stream.cap,
              pageSize: PAGE_SIZE,
              label: stream.label,
              apiTaskQueue,
              parentWorkflowId: info.workflowId,
            },
          ],
        }).catch((err: unknown): PagingResult => {
          partial(`${stream.operation} ${country}: ${failureMessage(err)}`);
          return { refs: [], records: 0, pages: 0, total: null, capped: false };
        });
      const [scoreStream, investmentsStream, startupStream] = pagingStreams(job, country);
      const [overview, byScore, byInvestments, startups] = await Promise.all([
        overviewP,
        page(scoreStream),
        page(investmentsStream),
        page(startupStream),
      ]);
      return {
        country,
        overview: overview?.ref ?? null,
        investorsByScore: byScore.refs,
        investorsByInvestments: byInvestments.refs,
        startups: startups.refs,
        investorProfiles: [],
        startupProfiles: [],
        investorsTotal: byScore.total,
        startupsTotal: startups.total,
        investorsCapped: byScore.capped || byInvestments.capped,
        startupsCapped: startups.capped,
      };
    }),
  );

  // 3. Enrichment of the top investors and startups.
  progress.phase = 'enriching';
  await Promise.all(
    countries.map(async (c) => {
      const cs = slug(c.country);
      const [topInvestors, topStartups] = await Promise.all([
        job.enrich.investors > 0
          ? report.selectTop({ refs: c.investorsByScore, n: job.enrich.investors })
          : [],
        job.enrich.startups > 0 ? report.selectTop({ refs: c.startups, n: job.enrich.startups }) : [],
      ]);
      const inv = await Promise.all(
        topInvestors.map((key, i) =>
          tryCall('get_investor', { key }, `profiles/investor-${cs}-${i}`, `get_investor ${key}`),
        ),
      );
      const st = await Promise.all(
        topStartups.map((key, i) =>
          tryCall('get_startup', { key }, `profiles/startup-${cs}-${i}`, `get_startup ${key}`),
        ),
      );
      c.investorProfiles = inv.flatMap((o) => (o ? [o.ref] : []));
      c.startupProfiles = st.flatMap((o) => (o ? [o.ref] : []));
    }),
  );

  // 4. Questions for the data agent, in the job's order, within the credit budget.
  progress.phase = 'asking';
  const answers: AnswerRef[] = questions.map((q) => ({ ...q, ref: null, skipped: null, charged: 0 }));
  const reservedIdx: number[] = [];
  for (const [i, a] of answers.entries()) {
    const refusal = budget.refusal(ASK_COST);
    if (refusal === null && budget.reserve(ASK_COST)) {
      reservedIdx.push(i);
    } else {
      a.skipped = `not asked: ${refusal ?? 'credit budget reached'}`;
    }
  }
  const skippedCount = answers.filter((a) => a.skipped).length;
  if (skippedCount > 0) {
    partial(
      `${skippedCount} of ${answers.length} data-agent questions skipped: credit budget of ${job.budget.credits} credits`,
    );
  }
  await Promise.all(
    reservedIdx.map(async (i) => {
      const a = answers[i]!;
      const out = await tryCall(
        'ask',
        { query: a.question },
        `answers/q-${String(i).padStart(3, '0')}`,
        `ask "${a.question}"`,
      );
      budget.settle(ASK_COST, out?.charged ?? 0, out?.remaining ?? null);
      progress.creditsSpent = budget.spent;
      if (out) {
        a.ref = out.ref;
        a.charged = out.charged;
        if (out.mapped === false) a.skipped = 'the data agent could not answer this question (not charged)';
      } else {
        a.skipped = 'the call failed (see methodology)';
      }
    }),
  );

  // 5. Model (with the comparison to the previous run), render, manifest.
  progress.phase = 'building';
  const stats = (): RunStats => ({
    workflowId: info.workflowId,
    runId: info.runId,
    startedAt,
    callsByOperation: { ...callsByOperation },
    callsMade: progress.callsMade,
    pages: progress.pages,
    records: progress.records,
    creditsSpent: budget.spent,
    creditsBudget: job.budget.credits,
    accountBalance: budget.balance,
    partial: progress.partial,
    reasons: [...progress.reasons],
  });
  const built = await report.buildMarketModel({ runKey, job, countries, answers, stats: stats() });
  progress.phase = 'rendering';
  const date = startedAt.slice(0, 10);
  const rendered = await report.renderMarketReport({
    modelRef: built.modelRef,
    job: { id: job.id, destination: job.destination, outputs: job.outputs },
    date,
    workflowId: info.workflowId,
  });
  const finishedAt = new Date(Date.now()).toISOString();
  const { manifestPath } = await report.finalizeRun({
    job,
    stats: stats(),
    render: rendered,
    snapshotRef: built.snapshotRef,
    finishedAt,
  });
  progress.phase = 'done';
  progress.callsPlanned = progress.callsMade;
  return {
    workflowId: info.workflowId,
    outDir: rendered.outDir,
    files: rendered.files,
    manifestPath,
    partial: progress.partial,
    reasons: [...progress.reasons],
    callsMade: progress.callsMade,
    creditsSpent: budget.spent,
    creditsBudget: job.budget.credits,
  };
}
