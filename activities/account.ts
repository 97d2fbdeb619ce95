/**
 * The worker's link to its account workflow: activities ask it before each call, tell it each
 * answer's rate-limit headers, reserve and settle paid calls' credits, and reserve a run's calls
 * of the day. The account is named by a hash of the service's URL and the key (never the key),
 * and the workflow is started by the first request that finds none (update-with-start).
 */
import { createHash } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type {
  CallDecision,
  CreditCaps,
  CreditDecision,
  DayCallsDecision,
} from '../workflows/account-ledger.js';
import {
  ACCOUNT_WORKFLOW_PREFIX,
  accountViewQuery,
  accountWorkflow,
  acquireCallUpdate,
  callDoneSignal,
  releaseDayCallsSignal,
  reservationBalanceQuery,
  reserveCreditsUpdate,
  reserveDayCallsUpdate,
  settleCreditsUpdate,
  type AccountView,
  type AcquireCallRequest,
  type CallDoneReport,
  type ReserveCreditsRequest,
  type ReserveDayCallsRequest,
  type SettleCreditsRequest,
} from '../workflows/account.js';

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
}

export class AccountLink {
  constructor(readonly options: AccountLinkOptions) {}

  get accountId(): string {
    return this.options.accountId;
  }

  #start() {
    return new WithStartWorkflowOperation(accountWorkflow, {
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
   * workflow task (UnhandledCommand), and the server aborts the updates it carried.
   */
  async #update<Ret, Arg>(def: UpdateDefinition<Ret, [Arg]>, arg: Arg): Promise<Ret> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.options.client.workflow.executeUpdateWithStart(def, {
          args: [arg],
          startWorkflowOperation: this.#start(),
        });
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError || attempt >= UPDATE_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
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

  async callDone(report: CallDoneReport): Promise<void> {
    await this.options.client.workflow.signalWithStart(accountWorkflow, {
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
    await this.options.client.workflow.signalWithStart(accountWorkflow, {
      workflowId: this.options.accountId,
      taskQueue: this.options.taskQueue,
      args: [{}],
      signal: releaseDayCallsSignal,
      signalArgs: [{ runId }],
    });
  }

  /** The balance the ledger knew when a paid call's reservation was granted (null: unknown). */
  async reservationBalance(id: string): Promise<number | null> {
    return this.options.client.workflow.getHandle(this.options.accountId).query(reservationBalanceQuery, id);
  }

  /**
   * The account's view, or null when its workflow has not started yet. A query needs a worker:
   * with none running it fails after `timeoutMs`, saying so.
   */
  async view(timeoutMs = 5000): Promise<AccountView | null> {
    const { client } = this.options;
    const started = Date.now();
    try {
      return await client.withDeadline(Date.now() + timeoutMs, () =>
        client.workflow.getHandle(this.options.accountId).query(accountViewQuery),
      );
    } catch (err) {
      if (Date.now() - started >= timeoutMs - 50) {
        throw new Error(`no answer within ${timeoutMs / 1000} s: is a worker running (vir worker)?`, {
          cause: err,
        });
      }
      if ((err as Error).name === 'WorkflowNotFoundError') return null;
      throw err;
    }
  }
}
