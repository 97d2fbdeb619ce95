/**
 * The run engine: the Temporal shell of a run's books (run-books.ts), knowing no job. A job
 * workflow starts a run and then only decides what to call:
 *
 * - `call` / `tryCall`: one typed call of an operation (a failure of `tryCall` makes the run
 *   partial with a reason; a refused key or parameters the client refuses stop the run);
 * - `paidCall`: reserves the operation's price (api/catalog) against the run's budget and the
 *   account's balance before calling, and settles what the service charged (run-calls.ts);
 * - `page`: offset paging of any paged operation, a short stream in the run itself and a long
 *   one in a child workflow that reports each page;
 * - progress (phases named by the job, calls made and planned, pages, records, credits, ETA,
 *   daily-limit waits) answered to the `progress` query; partial reasons; the run's stats;
 * - the generic activities: account balance, output folder, previous snapshot, manifest;
 * - the run's end, the same for every kind (run-end.ts): `renderAndFinish` has the kind's
 *   render activity write the files, then `finish` writes the manifest, commits the snapshot
 *   and delivers.
 *
 * The books keep the figures and decide; this file sets the query and signal handlers that read
 * and feed them, schedules the activities and children, and reports their outcomes to the books.
 * Workflow code: no I/O here, only decisions and commands.
 */
import {
  ApplicationFailure,
  executeChild,
  isCancellation,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  TemporalFailure,
  workflowInfo,
  type WorkflowInfo,
} from '@temporalio/workflow';
import { pageSizeOf, type PagedOperation } from '../api/catalog.js';
import type { ParamsIn } from '../api/operations.js';
import type { RunActivities } from '../activities/run.js';
import type { AccountCaps, CheckActivities, JobIdentity } from '../shared/types.js';
import {
  attemptsOfFailure,
  DEFAULT_API_TASK_QUEUE,
  failureMessage,
  JOB_ACTIVITY_OPTIONS,
  type Call,
} from './calls.js';
import { failureReason, rootApplicationFailure } from './failure.js';
import { DEFAULT_PARALLEL_PAGES, pageSearchWorkflow, type PageParams } from './paging.js';
import {
  pageFrom,
  pageName,
  plannedPagesOf,
  type FetchPage,
  type PagerState,
  type PagingResult,
} from './pager.js';
import { ACCOUNT_LEDGER, FAILED_RUN_MANIFEST, LEAN_HISTORY, JOB_CHECKS } from './patches.js';
import { dailyLimitWaitSignal, pageDoneSignal, PHASE_DONE, progressQuery } from './progress.js';
import { maxPagesOf, RunBooks } from './run-books.js';
import { createRunCalls, type TryCall } from './run-calls.js';
import {
  finishRun,
  renderAndFinish,
  type FinishInput,
  type RenderAndFinishInput,
  type RunEndContext,
} from './run-end.js';

export { MAX_PAID_ATTEMPTS, maxPagesOf } from './run-books.js';
export { paidCallProblem, type PaidCall } from './run-calls.js';
export type { JobRunResult } from './run-end.js';

/** What every job workflow receives: its job and how the run was started. */
export interface JobRunInput<J> {
  job: J;
  trigger: 'manual' | 'schedule' | 'backfill';
  /** Task queue of the API activities (rate-limited); default vir-api. */
  apiTaskQueue?: string;
}

/** A search (or any paged operation) a run pages in a child workflow. */
export interface PagingStream<N extends PagedOperation = PagedOperation> {
  /** Unique within the run: names the child workflow and the stored pages. */
  label: string;
  operation: N;
  params: PageParams<N>;
  /** Stop after this many records. */
  cap: number;
}

/** The generic activities on the jobs task queue (retried a few times, heartbeating). */
const runActivities = proxyActivities<RunActivities>(JOB_ACTIVITY_OPTIONS);
/** The job's checks before any call that costs (a refused job is not retried). */
const checkActivities = proxyActivities<CheckActivities>(JOB_ACTIVITY_OPTIONS);

/** The details of a run's failure (`vir runs show` reads them): where its manifest is. */
export interface RunFailureDetails {
  manifestPath: string | null;
}

export interface RunOptions {
  /** The job's credit budget. */
  creditsBudget: number;
  /** Task queue of the API activities; default vir-api. */
  apiTaskQueue?: string;
  /** The most calls the run makes, before paging knows its totals (the plan's bound). */
  plannedCalls?: number;
  /** The job's id: the account's ledger records what each job spent. */
  jobId?: string;
  /** The account's credit caps from the job file (the worker's settings may tighten them). */
  accountCaps?: AccountCaps;
  /**
   * The job as the workflow got it: checked by the run's first activity, and named by the
   * manifest of a run that fails. Absent: neither.
   */
  job?: JobIdentity;
}

/**
 * A job run's options: the job's budget, id and account caps, the task queue it was started
 * with, and the plan's most calls.
 *
 * @example
 * const run = startRun(jobRunOptions(input, planMarketReport(input.job).maxCalls));
 */
export function jobRunOptions(
  input: JobRunInput<
    JobIdentity & {
      budget: { credits: number };
      accountCaps?: AccountCaps | undefined;
    }
  >,
  plannedCalls: number,
): RunOptions {
  const { job } = input;
  return {
    creditsBudget: job.budget.credits,
    apiTaskQueue: input.apiTaskQueue,
    plannedCalls,
    jobId: job.id,
    ...(job.accountCaps ? { accountCaps: job.accountCaps } : {}),
    job,
  };
}

/** What a run's functions share: who it is, how it was started, and its books. */
interface RunContext {
  info: WorkflowInfo;
  /** The run's folder in the store (its workflow id). */
  runKey: string;
  apiTaskQueue: string;
  /** When the run started (ISO). */
  startedAt: string;
  options: RunOptions;
  books: RunBooks;
  /** The run's caller (requests and waits counted in the books). */
  rawCall: Call;
}

/**
 * Starts the run, first in a job workflow: its books, the progress query and the signals that
 * read and feed them, and its calls.
 *
 * @example
 * const run = startRun({ creditsBudget: job.budget.credits, apiTaskQueue: input.apiTaskQueue, plannedCalls: 3 });
 * await run.checkAccount();
 * const overview = await run.tryCall('country_overview', { country: 'France' }, 'overview/france', 'France');
 */
export function startRun(options: RunOptions) {
  const info = workflowInfo();
  const runKey = info.workflowId;
  const apiTaskQueue = options.apiTaskQueue ?? DEFAULT_API_TASK_QUEUE;
  const startedAt = new Date(Date.now()).toISOString();
  const books = new RunBooks({
    workflowId: info.workflowId,
    runId: info.runId,
    startedAt,
    creditsBudget: options.creditsBudget,
    plannedCalls: options.plannedCalls,
  });
  setHandler(progressQuery, () => books.progressAt(Date.now()));
  setHandler(pageDoneSignal, (p) => books.pageDone(p));
  setHandler(dailyLimitWaitSignal, ({ label, until }) => books.setWait(label, until));
  const { call, tryCall, paidCall, rawCall } = createRunCalls({
    books,
    runKey,
    apiTaskQueue,
    jobId: options.jobId,
    accountCaps: options.accountCaps,
    activities: runActivities,
  });
  const ctx: RunContext = { info, runKey, apiTaskQueue, startedAt, options, books, rawCall };
  const end: RunEndContext = { workflowId: info.workflowId, runKey, books, activities: runActivities };

  return {
    /** The run's folder in the store (its workflow id). */
    runKey,
    workflowId: info.workflowId,
    startedAt,
    /** The run date (UTC) that names the output folder. */
    date: startedAt.slice(0, 10),
    budget: books.budget,
    /** Enters a phase the job names. */
    phase(name: string): void {
      books.phase(name);
    },
    /** Sets the most calls the run makes (before paging knows its totals). */
    planCalls(calls: number): void {
      books.planCalls(calls);
    },
    /** Makes the run partial with a reason (each reason once). */
    partial(reason: string): void {
      books.partial(reason);
    },
    call,
    tryCall,
    paidCall,
    /**
     * Credits a paid call (by its name) cost so far: every attempt's, answers lost after the
     * charge included; once its result is in, what the account paid for it.
     */
    paidCredits(name: string): number {
      return books.paidCredits(name);
    },
    page: <N extends PagedOperation>(stream: PagingStream<N>, what: string) => page(ctx, stream, what),
    /** The first `n` distinct records of a paged stream, in its order (the ones to enrich). */
    topKeys,
    checkAccount: () => checkAccount(ctx, tryCall),
    guard: <R>(body: () => Promise<R>) => guard(ctx, body),
    stats: () => books.stats(),
    /**
     * Stops the run's clock, once: its data is in, and the report about to be built states the
     * run time up to now. Returns it.
     */
    stopClock: () => books.stopClock(Date.now()),
    /** Ends the run with the files rendered: the manifest, the snapshot, delivery, the result. */
    finish: (input: FinishInput) => finishRun(end, input),
    /**
     * Ends the run the way every kind does: its render activity (`render`, in phase `rendering`
     * unless `phase` says otherwise), then `finish`.
     */
    renderAndFinish: (input: RenderAndFinishInput) => renderAndFinish(end, input),
    activities: runActivities,
  };
}

export type Run = ReturnType<typeof startRun>;

/** Streams of at most this many pages are paged in the run itself, not in a child workflow. */
export const INLINE_MAX_PAGES = 4;

/** The result of a stream whose paging failed: nothing. */
const NO_PAGES: PagingResult = { refs: [], records: 0, pages: 0, total: null, capped: false };

/**
 * Pages a stream: a short one (at most {@link INLINE_MAX_PAGES} pages) in the run itself, a
 * longer one in a child workflow (`<run>/paging/<label>`) that can continue as new; a failure
 * makes the run partial (`what` names it) and gives an empty result.
 */
function page<N extends PagedOperation>(
  ctx: RunContext,
  stream: PagingStream<N>,
  what: string,
): Promise<PagingResult> {
  ctx.books.addStream(stream);
  if (maxPagesOf(stream) <= INLINE_MAX_PAGES && patched(LEAN_HISTORY)) return pageInline(ctx, stream, what);
  return pageInChild(ctx, stream, what);
}

/** Pages a short stream with the run's own calls; each page is counted as it comes. */
async function pageInline<N extends PagedOperation>(
  ctx: RunContext,
  stream: PagingStream<N>,
  what: string,
): Promise<PagingResult> {
  const { books } = ctx;
  const pageSize = pageSizeOf(stream.operation);
  const state: PagerState = { offset: 0, pageIndex: 0, refs: [], records: 0, total: null };
  const keys = new Map<number, string[]>();
  const fetchPage: FetchPage = async (offset, limit, index) => {
    const name = pageName(stream.label, index);
    const params = { ...stream.params, limit, offset } as ParamsIn<PagedOperation>;
    const out = await ctx.rawCall(stream.operation, params, ctx.runKey, name);
    state.total = out.total ?? state.total;
    keys.set(index, out.keys);
    // The caller counted the requests; the page counts the call.
    books.pageDone({
      label: stream.label,
      operation: stream.operation,
      records: out.records,
      total: state.total,
      calls: 1,
      plannedPages: plannedPagesOf(state, stream.cap, pageSize),
      attempts: { sent: 0, failed: 0 },
    });
    return out;
  };
  try {
    const options = {
      cap: stream.cap,
      pageSize,
      parallel: DEFAULT_PARALLEL_PAGES,
      stopStarting: () => false,
    };
    const result = (await pageFrom(state, fetchPage, options)) ?? NO_PAGES;
    const ordered = [...keys.entries()].sort(([a], [b]) => a - b).flatMap(([, k]) => k);
    return { ...result, keys: ordered };
  } catch (err) {
    if (isCancellation(err)) throw err;
    books.partial(`${stream.operation} ${what}: ${failureMessage(err)}`);
    return NO_PAGES;
  }
}

/**
 * The first `n` distinct records' keys of a paged stream, in page order (the search's order):
 * from the keys its pages gave when the run paged it itself, else read from the stored pages by
 * an activity (a stream paged in a child, or a run started before the lean history).
 */
async function topKeys(result: PagingResult, n: number): Promise<string[]> {
  if (n <= 0) return [];
  if (result.keys && patched(LEAN_HISTORY)) return [...new Set(result.keys)].slice(0, n);
  return runActivities.selectTop({ refs: result.refs, n });
}

/** Pages a stream in a child workflow, which reports each page to the run. */
function pageInChild<N extends PagedOperation>(
  ctx: RunContext,
  stream: PagingStream<N>,
  what: string,
): Promise<PagingResult> {
  const { info, books } = ctx;
  return executeChild(pageSearchWorkflow, {
    workflowId: `${info.workflowId}/paging/${stream.label}`,
    parentClosePolicy: ParentClosePolicy.TERMINATE,
    args: [
      {
        runKey: ctx.runKey,
        operation: stream.operation,
        params: stream.params,
        cap: stream.cap,
        label: stream.label,
        apiTaskQueue: ctx.apiTaskQueue,
        parentWorkflowId: info.workflowId,
      },
    ],
  }).catch((err: unknown): PagingResult => {
    // The failed page's requests; the child's earlier pages were reported as they came.
    const sent = attemptsOfFailure(err);
    if (sent) books.countAttempts(stream.operation, sent);
    books.partial(`${stream.operation} ${what}: ${failureMessage(err)}`);
    return NO_PAGES;
  });
}

/**
 * The account check: the job's own checks first (the files it reads, before any call that
 * costs), then my_account's balance bounds what the run may spend. A service that leaves
 * credits.remaining out of the envelope has its balance read from the data.
 */
async function checkAccount(ctx: RunContext, tryCall: TryCall): Promise<void> {
  const { options, books } = ctx;
  if (options.job && patched(JOB_CHECKS)) await checkActivities.checkJob({ job: options.job });
  if (patched(ACCOUNT_LEDGER)) await reserveDayCalls(ctx);
  const account = await tryCall('my_account', {}, 'account', 'account check');
  books.budget.setBalance(account?.remaining ?? null);
  if (account && account.remaining === null) {
    books.budget.setBalance(await runActivities.readAccountBalance({ ref: account.ref }));
  }
}

/**
 * Reserves the run's planned calls of the service's day, across the account's runs; when the
 * day has fewer left, waits durably for the next day (progress says until when).
 */
async function reserveDayCalls(ctx: RunContext): Promise<void> {
  const { books } = ctx;
  for (;;) {
    const wait = await runActivities.reserveDayCalls({ runId: ctx.runKey, calls: books.callsPlanned });
    if (wait === null) return;
    books.setWait('', wait.retryAt);
    await sleep(Math.max(1000, Date.parse(wait.retryAt) - Date.now()));
    books.setWait('', null);
  }
}

/**
 * Runs a job workflow's body. When it fails (an activity's or a child's failure, or one the
 * job throws), the run writes a manifest that says why, frees what it reserved of the day's
 * calls, and fails with the root cause of the failure chain as its message; the manifest's
 * path is in the failure's details ({@link RunFailureDetails}). A cancelled run, and errors
 * that are not failures (a bug: its workflow task is retried), go through as they are.
 *
 * @example
 * const run = startRun(jobRunOptions(input, plan.maxCalls));
 * return run.guard(() => runTheJob(input, run));
 */
async function guard<R>(ctx: RunContext, body: () => Promise<R>): Promise<R> {
  try {
    return await body();
  } catch (err) {
    const { options, books } = ctx;
    if (!options.job || !(err instanceof TemporalFailure) || isCancellation(err)) throw err;
    if (!patched(FAILED_RUN_MANIFEST)) throw err;
    const failure = failureReason(err);
    const job = options.job;
    let manifestPath: string | null = null;
    try {
      if (patched(ACCOUNT_LEDGER)) await runActivities.releaseDayCalls({ runId: ctx.runKey });
      ({ manifestPath } = await runActivities.recordFailedRun({
        job,
        stats: books.stats(),
        failure,
        finishedAt: books.finishedAt(Date.now()),
        date: ctx.startedAt.slice(0, 10),
      }));
    } catch {
      // The failure itself is what the run reports; a manifest that cannot be written does not hide it.
    }
    books.phase(PHASE_DONE);
    const root = rootApplicationFailure(err);
    const details: RunFailureDetails = { manifestPath };
    throw ApplicationFailure.create({
      message: failure,
      type: root?.type ?? 'run_failed',
      nonRetryable: true,
      details: [details],
      cause: err,
    });
  }
}
