/**
 * The run engine: the bookkeeping every job workflow shares, knowing no job. A job workflow
 * starts a run and then only decides what to call:
 *
 * - `call` / `tryCall`: one typed call of an operation (a failure of `tryCall` makes the run
 *   partial with a reason; a refused key or parameters the client refuses stop the run);
 * - `paidCall`: reserves the operation's price (api/catalog) against the run's budget and the
 *   account's balance before calling, and settles what the service charged;
 * - `page`: offset paging of any paged operation in a child workflow that reports each page;
 * - progress (phases named by the job, calls made and planned, pages, records, credits, ETA,
 *   daily-limit waits) answered to the `progress` query; partial reasons; the run's stats;
 * - the generic activities: account balance, output folder, previous snapshot, manifest.
 *
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
} from '@temporalio/workflow';
import {
  creditsOf,
  pageSizeOf,
  repeatCreditsOf,
  type PagedOperation,
  type PaidOperation,
} from '../api/catalog.js';
import type { OperationName, ParamsIn } from '../api/operations.js';
import type { RunActivities } from '../activities/run.js';
import type {
  AccountCaps,
  ApiCallOutput,
  CheckActivities,
  JobIdentity,
  OperationAttempts,
  PaidCallAccount,
  RenderOutput,
  RunStats,
  StoreRef,
} from '../shared/types.js';
import type { RunDelivery } from '../shared/delivery.js';
import { CreditBudget } from './budget.js';
import { deliverRun, DELIVERY } from './delivery.js';
import {
  attemptsOfFailure,
  createCaller,
  type CallHooks,
  DEFAULT_API_TASK_QUEUE,
  failureMessage,
  JOB_ACTIVITY_OPTIONS,
  outcomeUnknown,
  rateLimitedWait,
  runStoppingFailure,
  stopsRun,
} from './calls.js';
import { failureReason, rootApplicationFailure } from './failure.js';
import { pageSearchWorkflow, type PageParams, type PagingResult } from './paging.js';
import {
  addAttempts,
  copyAttempts,
  estimateEta,
  initialProgress,
  dailyLimitWaitSignal,
  pageDoneSignal,
  PHASE_DELIVERING,
  PHASE_DONE,
  progressQuery,
  type RunProgress,
} from './progress.js';

/** The patch of paid calls made one at a time and reconciled with the balance after an unknown outcome. */
export const PAID_CALLS_RECONCILED = 'paid-calls-reconciled';
/**
 * The patch of the account's ledger: paid calls reserve credits against the account's caps and
 * settle in it, and a run reserves its calls of the service's day before it starts them.
 */
export const ACCOUNT_LEDGER = 'account-ledger';
/**
 * The patch of reconciling with the balance the account's ledger knew when the paid call's
 * reservation was granted (the account's paid calls go one at a time), rather than the run's own
 * last known balance, which other runs' charges made stale.
 */
export const LEDGER_BALANCE = 'ledger-balance';
/**
 * The patch of the job's checks as the run's first activity (`checkJob`, jobs/preflight.ts): the
 * files a job reads are read and parsed, its webhooks checked, before any call that costs.
 */
export const JOB_CHECKS = 'job-checks';
/**
 * The patch of a failed run's manifest: a run that fails writes a manifest that says why
 * (`recordFailedRun`), frees its reservation of the day's calls, and fails with the root cause
 * of its failure chain as its message (not "Activity task failed").
 */
export const FAILED_RUN_MANIFEST = 'failed-run-manifest';
/** Attempts of one paid call at most (each after a reconciliation). */
export const MAX_PAID_ATTEMPTS = 3;

/** What every job workflow receives: its job and how the run was started. */
export interface JobRunInput<J> {
  job: J;
  trigger: 'manual' | 'schedule' | 'backfill';
  /** Task queue of the API activities (rate-limited); default vir-api. */
  apiTaskQueue?: string;
}

/** What every job workflow returns (`vir run` prints it; a kind may add fields). */
export interface JobRunResult {
  workflowId: string;
  outDir: string;
  /** Path of each file by its format. */
  files: Record<string, string>;
  manifestPath: string;
  partial: boolean;
  reasons: string[];
  callsMade: number;
  /** Pages fetched by paging, and the records on them. */
  pages: number;
  records: number;
  creditsSpent: number;
  creditsBudget: number;
  /** The run's deliveries (absent when its job names no destination). */
  delivery?: RunDelivery;
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

/** Most pages a stream takes: its cap at the operation's largest page. */
export function maxPagesOf(stream: Pick<PagingStream, 'operation' | 'cap'>): number {
  return Math.ceil(stream.cap / pageSizeOf(stream.operation));
}

/** The outcome of a paid call's reservation: refused at once (nothing called), or the call. */
export type PaidCall =
  { refused: string; result: Promise<null> } | { refused: null; result: Promise<ApiCallOutput | null> };

/**
 * Why a paid call gave the report nothing, or null when it answered: not asked (`refused`), its
 * answer lost after the service charged `charged` credits, or failed.
 */
export function paidCallProblem(refused: string | null, answered: boolean, charged: number): string | null {
  if (refused !== null) return `not asked: ${refused}`;
  if (answered) return null;
  return charged > 0
    ? `the answer was lost after the service charged ${charged} credit${charged === 1 ? '' : 's'} (see the manifest)`
    : 'the call failed (see the manifest)';
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

/**
 * Starts the run's bookkeeping; call it first in a job workflow.
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
  const progress: RunProgress = initialProgress(options.creditsBudget, startedAt);
  const budget = new CreditBudget(options.creditsBudget);
  const callsByOperation: Record<string, number> = {};
  /** Requests sent per operation, retries included, as the service saw them. */
  const attempts: Record<string, OperationAttempts> = {};
  progress.attempts = attempts;
  let basePlanned = options.plannedCalls ?? 0;
  /** Each paging stream's most pages, and how many it will take once its child knows the total. */
  const streams = new Map<string, { operation: OperationName; maxPages: number; planned: number | null }>();

  const count = (operation: OperationName, calls: number) => {
    progress.callsMade += calls;
    callsByOperation[operation] = (callsByOperation[operation] ?? 0) + calls;
  };
  /** Planned calls: the plan's bound, with each stream's known page count instead of its cap. */
  const replan = () => {
    let planned = basePlanned;
    for (const s of streams.values()) planned += (s.planned ?? s.maxPages) - s.maxPages;
    progress.callsPlanned = Math.max(progress.callsMade, planned);
  };
  replan();
  setHandler(progressQuery, () => ({
    ...progress,
    attempts: copyAttempts(attempts),
    etaSeconds: estimateEta(progress, Date.now()),
  }));
  setHandler(pageDoneSignal, (p) => {
    const stream = streams.get(p.label);
    const operation = p.operation ?? stream?.operation;
    if (operation) count(operation, p.calls);
    else progress.callsMade += p.calls;
    // Children started before attempts were counted report one request per page.
    if (operation) addAttempts(attempts, operation, p.attempts ?? { sent: p.calls, failed: 0 });
    progress.pages += 1;
    progress.records += p.records;
    if (stream) stream.planned = p.plannedPages;
    replan();
  });

  const partial = (reason: string) => {
    progress.partial = true;
    if (!progress.reasons.includes(reason)) progress.reasons.push(reason);
  };

  /** Daily-limit waits in progress: the run's own (label '') and its paging children's. */
  const waits = new Map<string, string>();
  const setWait = (label: string, until: string | null) => {
    if (until === null) waits.delete(label);
    else waits.set(label, until);
    progress.waitingUntil = [...waits.values()].sort().at(-1) ?? null;
  };
  setHandler(dailyLimitWaitSignal, ({ label, until }) => setWait(label, until));
  const hooks: CallHooks = {
    onWait: (until) => setWait('', until),
    onAttempts: (operation, sent) => addAttempts(attempts, operation, sent),
  };
  const rawCall = createCaller(apiTaskQueue, hooks);
  const rawPaidCall = createCaller(apiTaskQueue, hooks, { paid: true });
  /** Paid calls of the run go one at a time, so a balance read tells which one was charged. */
  let paidQueue: Promise<unknown> = Promise.resolve();
  /** Credits settled for each paid call by its name: every attempt's, answers lost after the charge included. */
  const paidByName = new Map<string, number>();
  const addPaid = (name: string, credits: number) => {
    if (credits > 0) paidByName.set(name, (paidByName.get(name) ?? 0) + credits);
  };

  /** One call; a failure is thrown to the workflow. */
  async function call<N extends OperationName>(
    operation: N,
    params: ParamsIn<N>,
    name: string,
  ): Promise<ApiCallOutput> {
    const out = await rawCall(operation, params, runKey, name);
    count(operation, 1);
    return out;
  }

  /** One call whose failure only makes the run partial (`what` names it in the reason). */
  async function tryCall<N extends OperationName>(
    operation: N,
    params: ParamsIn<N>,
    name: string,
    what: string,
  ): Promise<ApiCallOutput | null> {
    try {
      return await call(operation, params, name);
    } catch (err) {
      if (stopsRun(err)) throw runStoppingFailure(err);
      partial(`${what}: ${failureMessage(err)}`);
      return null;
    }
  }

  /**
   * A call that costs credits. Its price is reserved at once, in call order; when the run's
   * budget or the account's balance does not allow it, nothing is called and `refused` says why.
   */
  function paidCall<N extends PaidOperation>(
    operation: N,
    params: ParamsIn<N>,
    name: string,
    what: string,
  ): PaidCall {
    const cost = creditsOf(operation);
    const refusal = budget.refusal(cost);
    if (refusal !== null || !budget.reserve(cost)) {
      return { refused: refusal ?? 'credit budget reached', result: Promise.resolve(null) };
    }
    if (patched(PAID_CALLS_RECONCILED)) {
      const result = paidQueue.then(() => reconciledPaidCall(operation, params, name, what, cost));
      paidQueue = result.catch(() => undefined);
      return { refused: null, result };
    }
    const result = tryCall(operation, params, name, what).then((out) => {
      budget.settle(cost, out?.charged ?? 0, out?.remaining ?? null);
      addPaid(name, out?.charged ?? 0);
      progress.creditsSpent = budget.spent;
      return out;
    });
    return { refused: null, result };
  }

  /** The account's balance now (my_account), or null when it cannot be read. */
  async function balanceNow(what: string): Promise<number | null> {
    const account = await tryCall('my_account', {}, `account/check-${progress.callsMade}`, what);
    if (!account) return null;
    if (account.remaining !== null) return account.remaining;
    return runActivities.readAccountBalance({ ref: account.ref });
  }

  /**
   * A paid call that is never charged twice without the run knowing. An attempt whose outcome is
   * unknown counts as charged until the balance, read again at once, shows otherwise; it is asked
   * again only when the budget covers another charge (a free repeat costs nothing), at most
   * {@link MAX_PAID_ATTEMPTS} times. Rate-limited answers (refused, not charged) are waited out.
   */
  async function reconciledPaidCall<N extends PaidOperation>(
    operation: N,
    params: ParamsIn<N>,
    name: string,
    what: string,
    cost: number,
  ): Promise<ApiCallOutput | null> {
    let reserved = cost;
    const ledger = patched(ACCOUNT_LEDGER);
    for (let attempt = 1; ; attempt += 1) {
      const before = budget.balance;
      const account: PaidCallAccount | undefined = ledger
        ? {
            reservationId: `${runKey}/${name}#${attempt}`,
            jobId: options.jobId ?? runKey,
            credits: reserved,
            ...(options.accountCaps ? { caps: options.accountCaps } : {}),
          }
        : undefined;
      try {
        const out = await rawPaidCall(operation, params, runKey, name, account);
        count(operation, 1);
        budget.settle(reserved, out.charged, out.remaining);
        addPaid(name, out.charged);
        progress.creditsSpent = budget.spent;
        return out;
      } catch (err) {
        const wait = rateLimitedWait(err);
        if (wait !== null) {
          attempt -= 1;
          await sleep(wait);
          continue;
        }
        if (stopsRun(err)) {
          budget.settle(reserved, 0, null);
          throw runStoppingFailure(err);
        }
        if (!outcomeUnknown(err)) {
          budget.settle(reserved, 0, null);
          partial(`${what}: ${failureMessage(err)}`);
          return null;
        }
        let from = before;
        if (account && patched(LEDGER_BALANCE)) {
          from = (await runActivities.reservationBalance({ reservationId: account.reservationId })) ?? before;
        }
        const seen = await balanceNow(`balance check after ${what}`);
        const paid = from !== null && seen !== null ? Math.max(0, from - seen) : reserved;
        // A charge proves the request reached the service, even when its worker died before
        // the heartbeat that records the sending was delivered.
        if (paid > 0 && attemptsOfFailure(err)?.sent === 0)
          addAttempts(attempts, operation, { sent: 1, failed: 1 });
        budget.settleUnknown(reserved, paid, seen);
        addPaid(name, paid);
        progress.creditsSpent = budget.spent;
        if (account) {
          await runActivities.settleAccountCredits({
            reservationId: account.reservationId,
            jobId: account.jobId,
            credits: paid,
            remaining: seen,
          });
        }
        const again = paid > 0 ? repeatCreditsOf(operation) : cost;
        const lost = `${what}: ${failureMessage(err)}; ${
          paid > 0
            ? `the service charged ${paid} credit${paid === 1 ? '' : 's'} for an answer that was lost`
            : 'the service did not charge for it'
        }; not asked again`;
        if (attempt >= MAX_PAID_ATTEMPTS) {
          partial(`${lost} after ${attempt} attempts`);
          return null;
        }
        const refusal = budget.refusal(again);
        if (refusal !== null || !budget.reserve(again)) {
          partial(`${lost}: ${refusal ?? 'credit budget reached'}`);
          return null;
        }
        reserved = again;
      }
    }
  }

  /**
   * Pages a stream in a child workflow (`<run>/paging/<label>`); a failure makes the run partial
   * (`what` names it) and gives an empty result.
   */
  function page<N extends PagedOperation>(stream: PagingStream<N>, what: string): Promise<PagingResult> {
    streams.set(stream.label, { operation: stream.operation, maxPages: maxPagesOf(stream), planned: null });
    return executeChild(pageSearchWorkflow, {
      workflowId: `${info.workflowId}/paging/${stream.label}`,
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      args: [
        {
          runKey,
          operation: stream.operation,
          params: stream.params,
          cap: stream.cap,
          label: stream.label,
          apiTaskQueue,
          parentWorkflowId: info.workflowId,
        },
      ],
    }).catch((err: unknown): PagingResult => {
      // The failed page's requests; the child's earlier pages were reported as they came.
      const sent = attemptsOfFailure(err);
      if (sent) addAttempts(attempts, stream.operation, sent);
      partial(`${stream.operation} ${what}: ${failureMessage(err)}`);
      return { refs: [], records: 0, pages: 0, total: null, capped: false };
    });
  }

  /**
   * The account check: the job's own checks first (the files it reads, before any call that
   * costs), then my_account's balance bounds what the run may spend. A service that leaves
   * credits.remaining out of the envelope has its balance read from the data.
   */
  async function checkAccount(): Promise<void> {
    if (options.job && patched(JOB_CHECKS)) await checkActivities.checkJob({ job: options.job });
    if (patched(ACCOUNT_LEDGER)) await reserveDayCalls();
    const account = await tryCall('my_account', {}, 'account', 'account check');
    budget.setBalance(account?.remaining ?? null);
    if (account && account.remaining === null) {
      budget.setBalance(await runActivities.readAccountBalance({ ref: account.ref }));
    }
  }

  /**
   * Reserves the run's planned calls of the service's day, across the account's runs; when the
   * day has fewer left, waits durably for the next day (progress says until when).
   */
  async function reserveDayCalls(): Promise<void> {
    for (;;) {
      const wait = await runActivities.reserveDayCalls({ runId: runKey, calls: progress.callsPlanned });
      if (wait === null) return;
      setWait('', wait.retryAt);
      await sleep(Math.max(1000, Date.parse(wait.retryAt) - Date.now()));
      setWait('', null);
    }
  }

  /** When the run's clock stopped (`stopClock`), or null while it runs. */
  let stoppedAt: string | null = null;

  /**
   * Stops the run's clock, once: its data is in, and the report about to be built states the run
   * time up to now. The manifest's finishedAt and durationMs use the same instant, so the two
   * never differ. Returns it.
   */
  function stopClock(): string {
    stoppedAt ??= new Date(Date.now()).toISOString();
    return stoppedAt;
  }

  const stats = (): RunStats => ({
    workflowId: info.workflowId,
    runId: info.runId,
    startedAt,
    callsByOperation: { ...callsByOperation },
    callsMade: progress.callsMade,
    attempts: copyAttempts(attempts),
    pages: progress.pages,
    records: progress.records,
    creditsSpent: budget.spent,
    creditsBudget: options.creditsBudget,
    accountBalance: budget.balance,
    partial: progress.partial,
    reasons: [...progress.reasons],
    ...(stoppedAt ? { finishedAt: stoppedAt } : {}),
  });

  /**
   * Ends the run: writes the manifest beside the files, commits the snapshot the next run
   * compares with, and gives the run's result.
   */
  async function finish(input: {
    job: JobIdentity;
    render: RenderOutput;
    snapshotRef: StoreRef | null;
    /** Why the run sends nothing to its destinations (the fund-match digest's quiet week), if so. */
    skipDelivery?: string;
  }): Promise<JobRunResult> {
    // The run time ends where the job stopped the clock (the one its report states), else now.
    const finishedAt = stoppedAt ?? new Date(Date.now()).toISOString();
    if (patched(ACCOUNT_LEDGER)) await runActivities.releaseDayCalls({ runId: runKey });
    const { manifestPath } = await runActivities.finalizeRun({
      job: input.job,
      stats: stats(),
      render: input.render,
      snapshotRef: input.snapshotRef,
      finishedAt,
    });
    // Delivery, after the manifest: each destination once (runs from before it send nothing).
    const destinations = input.job.delivery ?? [];
    let delivery: RunDelivery | undefined;
    if (destinations.length > 0 && patched(DELIVERY)) {
      progress.phase = PHASE_DELIVERING;
      delivery = await deliverRun(
        manifestPath,
        destinations.map((d) => ({ id: d.id, kind: d.kind })),
        input.skipDelivery,
      );
    }
    progress.phase = PHASE_DONE;
    progress.callsPlanned = progress.callsMade;
    return {
      workflowId: info.workflowId,
      outDir: input.render.outDir,
      files: input.render.files,
      manifestPath,
      partial: progress.partial,
      reasons: [...progress.reasons],
      callsMade: progress.callsMade,
      pages: progress.pages,
      records: progress.records,
      creditsSpent: budget.spent,
      creditsBudget: options.creditsBudget,
      ...(delivery ? { delivery } : {}),
    };
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
  async function guard<R>(body: () => Promise<R>): Promise<R> {
    try {
      return await body();
    } catch (err) {
      if (!options.job || !(err instanceof TemporalFailure) || isCancellation(err)) throw err;
      if (!patched(FAILED_RUN_MANIFEST)) throw err;
      const failure = failureReason(err);
      const job = options.job;
      let manifestPath: string | null = null;
      try {
        if (patched(ACCOUNT_LEDGER)) await runActivities.releaseDayCalls({ runId: runKey });
        ({ manifestPath } = await runActivities.recordFailedRun({
          job,
          stats: stats(),
          failure,
          finishedAt: stoppedAt ?? new Date(Date.now()).toISOString(),
          date: startedAt.slice(0, 10),
        }));
      } catch {
        // The failure itself is what the run reports; a manifest that cannot be written does not hide it.
      }
      progress.phase = PHASE_DONE;
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

  return {
    /** The run's folder in the store (its workflow id). */
    runKey,
    workflowId: info.workflowId,
    startedAt,
    /** The run date (UTC) that names the output folder. */
    date: startedAt.slice(0, 10),
    budget,
    /** Enters a phase the job names. */
    phase(name: string): void {
      progress.phase = name;
    },
    /** Sets the most calls the run makes (before paging knows its totals). */
    planCalls(calls: number): void {
      basePlanned = calls;
      replan();
    },
    partial,
    call,
    tryCall,
    paidCall,
    /**
     * Credits a paid call (by its name) cost so far: every attempt's, answers lost after the
     * charge included; once its result is in, what the account paid for it.
     */
    paidCredits(name: string): number {
      return paidByName.get(name) ?? 0;
    },
    page,
    checkAccount,
    guard,
    stats,
    stopClock,
    finish,
    activities: runActivities,
  };
}

export type Run = ReturnType<typeof startRun>;
