/**
 * The worker's link to its account workflow: activities ask it before each call, tell it each
 * answer's rate-limit headers, reserve and settle paid calls' credits, and reserve a run's calls
 * of the day. The account is named by a hash of the service's URL and the key (never the key),
 * and the workflow is started by the first request that finds none (update-with-start).
 *
 * Every ask that needs an answer is an update (the answer is the grant or the refusal); the
 * server admits only so many updates in flight per workflow (history.maxInFlightUpdates,
 * default 10, raised for our servers) and refuses the rest at once with RESOURCE_EXHAUSTED. So a
 * link sends at most `maxInFlight` updates at a time (the worker's API activities queue here),
 * and a refused one is sent again after a backoff, for as long as `overloadBudgetMs` allows.
 */
import { createHash } from 'node:crypto';
import {
  WithStartWorkflowOperation,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
} from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { Semaphore } from 'async-mutex';
import { PermitBlocks } from './permits.js';
import {
  isDeadlineExceeded,
  isUpdateOverload,
  QueryNotAnsweredError,
  queryWhenReady,
} from '../lib/temporal-errors.js';
import type {
  CallDecision,
  CreditCaps,
  CreditDecision,
  DayCallsDecision,
  PermitsDecision,
  PermitsReport,
} from '../shared/account.js';
import {
  ACCOUNT_WORKFLOW_PREFIX,
  ACCOUNT_WORKFLOW_TYPE,
  accountViewQuery,
  acquireCallUpdate,
  acquirePermitsUpdate,
  callDoneSignal,
  permitsReportSignal,
  releaseDayCallsSignal,
  reservationBalanceQuery,
  reserveCreditsUpdate,
  reserveDayCallsUpdate,
  settleCreditsUpdate,
  type AccountView,
  type AcquireCallRequest,
  type AcquirePermitsRequest,
  type CallDoneReport,
  type ReserveCreditsRequest,
  type ReserveDayCallsRequest,
  type SettleCreditsRequest,
} from '../shared/account.js';

/** The account workflow's id for a key at a service: a hash, never the key. */
export function accountIdOf(baseUrl: string, apiKey: string): string {
  const hash = createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex');
  return `${ACCOUNT_WORKFLOW_PREFIX}${hash.slice(0, 24)}`;
}

/** The smaller of two caps per period (an absent cap is no cap). */
export function tighterCaps(a: CreditCaps, b: CreditCaps | undefined): CreditCaps {
  const out: CreditCaps = {};
  for (const p of ['day', 'week', 'month'] as const) {
    const values = [a[p], b?.[p]].filter((v): v is number => v !== undefined);
    if (values.length > 0) out[p] = Math.min(...values);
  }
  return out;
}

/** Attempts of one update of the account workflow (about 3 s of backoff in all). */
const UPDATE_ATTEMPTS = 6;
/**
 * How long one send of an update may take before it is given up and sent again. An update is
 * answered in a workflow task (milliseconds, seconds on a loaded machine); one that has had no
 * answer for this long has hung (a request the server never answered was seen once in CI: the
 * run's first activity waited for it until its workers stopped), and every update here is
 * idempotent, so it is sent again like an aborted one.
 */
export const ACCOUNT_UPDATE_DEADLINE_MS = 30_000;
/** Updates a link sends to the account workflow at a time, by default (well under the server's limit). */
export const ACCOUNT_MAX_IN_FLIGHT = 8;
/** How long, by default, an update the server refused as overloaded is sent again. */
export const ACCOUNT_OVERLOAD_BUDGET_MS = 60_000;
/** The longest backoff between two sends of a refused update. */
const OVERLOAD_MAX_BACKOFF_MS = 2_000;
export interface AccountLinkOptions {
  client: Client;
  /** Task queue the account workflow runs on (every worker polls it). */
  taskQueue: string;
  accountId: string;
  /** The limits of the settings: calls a minute and a day. */
  perMinute: number;
  perDay: number;
  /** The account's caps from the settings; a job file's caps tighten them. */
  caps: CreditCaps;
  /** Updates sent at a time (default {@link ACCOUNT_MAX_IN_FLIGHT}); the others wait their turn. */
  maxInFlight?: number;
  /** How long an update refused as overloaded is sent again (default {@link ACCOUNT_OVERLOAD_BUDGET_MS}). */
  overloadBudgetMs?: number;
  /** How long one send of an update may take (default {@link ACCOUNT_UPDATE_DEADLINE_MS}). */
  updateDeadlineMs?: number;
  /**
   * How calls get their permits (VIR_ACCOUNT_PERMITS): `block` (the default) in blocks, one
   * update for the calls a run has waiting; `call`, the design before it, one update and one
   * signal per call (the benchmark measures both).
   */
  permits?: AccountPermits;
}

/** How calls get their permits from the account workflow. */
export type AccountPermits = 'block' | 'call';
export const ACCOUNT_PERMITS: readonly AccountPermits[] = ['block', 'call'];

export class AccountLink {
  readonly #slots: Semaphore;
  readonly #limit: number;
  #hung = 0;
  /** The worker's permits in blocks (null: one update per call, `permits: 'call'`). */
  readonly blocks: PermitBlocks | null;

  constructor(readonly options: AccountLinkOptions) {
    this.#limit = options.maxInFlight ?? ACCOUNT_MAX_IN_FLIGHT;
    if (!Number.isInteger(this.#limit) || this.#limit < 1)
      throw new RangeError(`maxInFlight must be a whole number >= 1, got ${this.#limit}`);
    this.#slots = new Semaphore(this.#limit);
    this.blocks =
      options.permits === 'call'
        ? null
        : new PermitBlocks({
            acquire: (req) => this.acquirePermits(req),
            report: (report) => this.reportPermits(report),
          });
  }

  /** Sends of an update given up at their deadline so far (each sent again or failed). */
  get hungUpdates(): number {
    return this.#hung;
  }

  /** Updates in flight now (at most `maxInFlight`). */
  get updatesInFlight(): number {
    return this.#limit - this.#slots.getValue();
  }

  get accountId(): string {
    return this.options.accountId;
  }

  #start() {
    return new WithStartWorkflowOperation(ACCOUNT_WORKFLOW_TYPE, {
      workflowId: this.options.accountId,
      taskQueue: this.options.taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [{}],
    });
  }

  /**
   * An update of the account workflow, started when it is not running. Every update here is
   * idempotent (a reservation, a grant or a settlement by its id), so one the server aborted is
   * sent again: a busy account workflow continuing as new while updates arrive fails that
   * workflow task (UnhandledCommand), and the server aborts the updates it carried. One the
   * server refused as overloaded (the in-flight limit) is sent again with a growing, jittered
   * backoff until `overloadBudgetMs` has passed; those refusals do not count as attempts. A send
   * that has no answer within `updateDeadlineMs` is given up (gRPC's deadline) and counts as an
   * attempt: a hung request never holds the activity that waits for it.
   */
  async #update<Ret, Arg>(def: UpdateDefinition<Ret, [Arg]>, arg: Arg): Promise<Ret> {
    const budget = this.options.overloadBudgetMs ?? ACCOUNT_OVERLOAD_BUDGET_MS;
    const deadlineMs = this.options.updateDeadlineMs ?? ACCOUNT_UPDATE_DEADLINE_MS;
    const { client } = this.options;
    const started = Date.now();
    let refusals = 0;
    for (let attempt = 1; ;) {
      try {
        return await this.#slots.runExclusive(() =>
          client.withDeadline(Date.now() + deadlineMs, () =>
            client.workflow.executeUpdateWithStart(def, {
              args: [arg],
              startWorkflowOperation: this.#start(),
            }),
          ),
        );
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError) throw err;
        if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError || isDeadlineExceeded(err)) {
          this.#hung += 1;
          if (attempt >= UPDATE_ATTEMPTS)
            throw new Error(
              `the account workflow ${this.options.accountId} answered no update within ${deadlineMs / 1000} s, ${attempt} times: is a worker polling task queue ${this.options.taskQueue}?`,
              { cause: err },
            );
          attempt += 1;
          continue;
        }
        if (isUpdateOverload(err) && Date.now() - started < budget) {
          refusals += 1;
          const cap = Math.min(OVERLOAD_MAX_BACKOFF_MS, 50 * 2 ** Math.min(refusals, 10));
          await new Promise((r) => setTimeout(r, cap / 2 + Math.random() * (cap / 2)));
          continue;
        }
        if (attempt >= UPDATE_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
        attempt += 1;
      }
    }
  }

  acquireCall(req: Omit<AcquireCallRequest, 'perMinute' | 'perDay'>) {
    return this.#update<CallDecision, AcquireCallRequest>(acquireCallUpdate, {
      ...req,
      perMinute: this.options.perMinute,
      perDay: this.options.perDay,
    });
  }

  /** A block of permits (and a paid call's credit reservation), with what the worker reports. */
  acquirePermits(req: Omit<AcquirePermitsRequest, 'perMinute' | 'perDay'>): Promise<PermitsDecision> {
    const { credits } = req;
    return this.#update<PermitsDecision, AcquirePermitsRequest>(acquirePermitsUpdate, {
      ...req,
      perMinute: this.options.perMinute,
      perDay: this.options.perDay,
      ...(credits ? { credits: { ...credits, caps: tighterCaps(this.options.caps, credits.caps) } } : {}),
    });
  }

  /** What the worker's calls reported, when no ask carries it. */
  async reportPermits(report: PermitsReport): Promise<void> {
    await this.options.client.workflow.signalWithStart(ACCOUNT_WORKFLOW_TYPE, {
      workflowId: this.options.accountId,
      taskQueue: this.options.taskQueue,
      args: [{}],
      signal: permitsReportSignal,
      signalArgs: [report],
    });
  }

  async callDone(report: CallDoneReport): Promise<void> {
    await this.options.client.workflow.signalWithStart(ACCOUNT_WORKFLOW_TYPE, {
      workflowId: this.options.accountId,
      taskQueue: this.options.taskQueue,
      args: [{}],
      signal: callDoneSignal,
      signalArgs: [report],
    });
  }

  reserveCredits(req: Omit<ReserveCreditsRequest, 'caps'> & { caps?: CreditCaps }) {
    return this.#update<CreditDecision, ReserveCreditsRequest>(reserveCreditsUpdate, {
      ...req,
      caps: tighterCaps(this.options.caps, req.caps),
    });
  }

  settleCredits(req: SettleCreditsRequest): Promise<void> {
    return this.#update<void, SettleCreditsRequest>(settleCreditsUpdate, req);
  }

  reserveDayCalls(req: Omit<ReserveDayCallsRequest, 'perDay'>) {
    return this.#update<DayCallsDecision, ReserveDayCallsRequest>(reserveDayCallsUpdate, {
      ...req,
      perDay: this.options.perDay,
    });
  }

  async releaseDayCalls(runId: string): Promise<void> {
    await this.options.client.workflow.signalWithStart(ACCOUNT_WORKFLOW_TYPE, {
      workflowId: this.options.accountId,
      taskQueue: this.options.taskQueue,
      args: [{}],
      signal: releaseDayCallsSignal,
      signalArgs: [{ runId }],
    });
  }

  /** The balance the ledger knew when a paid call's reservation was granted (null: unknown). */
  async reservationBalance(id: string): Promise<number | null> {
    return queryWhenReady(this.options.client, this.options.accountId, reservationBalanceQuery, [id], 10_000);
  }

  /**
   * The account's view, or null when its workflow has not started yet. A query needs a worker:
   * with none running it fails after `timeoutMs`, saying so.
   */
  async view(timeoutMs = 5000): Promise<AccountView | null> {
    const started = Date.now();
    try {
      return await queryWhenReady(
        this.options.client,
        this.options.accountId,
        accountViewQuery,
        [],
        timeoutMs,
      );
    } catch (err) {
      if ((err as Error).name === 'WorkflowNotFoundError') return null;
      // At the deadline the server's error is not always DEADLINE_EXCEEDED ("Failed to query
      // Workflow" with another cause): a query that took the whole time had no worker to answer.
      const late = Date.now() - started >= timeoutMs - 50;
      if (late || err instanceof QueryNotAnsweredError || isDeadlineExceeded(err)) {
        throw new Error(`no answer within ${timeoutMs / 1000} s: is a worker running (vir worker)?`, {
          cause: err,
        });
      }
      throw err;
    }
  }
}
