/**
 * The worker's link to its account workflow: activities ask it before each call, tell it each
 * answer's rate-limit headers, reserve and settle paid calls' credits, and reserve a run's calls
 * of the day. The account is named by a hash of the service's URL and the key (never the key),
 * and the workflow is started by the first request that finds none (update-with-start).
 */
import { createHash } from 'node:crypto';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
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

  #update<Ret, Arg>(def: UpdateDefinition<Ret, [Arg]>, arg: Arg): Promise<Ret> {
    return this.options.client.workflow.executeUpdateWithStart(def, {
      args: [arg],
      startWorkflowOperation: this.#start(),
    });
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
