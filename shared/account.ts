/**
 * The account workflow's contract, shared by the workflow (workflows/account.ts, which holds the
 * ledger) and the worker's link to it (activities/account.ts): its id prefix and type name, its
 * updates, signals and queries, what they carry and what they answer. Definitions only: no
 * Temporal worker or client code, no I/O.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AccountCaps } from './types.js';

/** The account workflow's type: the link starts it by name, never importing workflow code. */
export const ACCOUNT_WORKFLOW_TYPE = 'accountWorkflow';

/** Credit caps of the account; an absent cap is no cap. */
export type CreditCaps = AccountCaps;

export const CAP_PERIODS = ['day', 'week', 'month'] as const;
export type CapPeriod = (typeof CAP_PERIODS)[number];

/** What the service's headers said of one answer (null where a header was absent). */
export interface CallReport {
  limit: number | null;
  remaining: number | null;
  resetAt: number | null;
  /** The day's calls left and its end, where the service tells them. */
  dayRemaining?: number | null;
  dayResetAt?: number | null;
}

export type CallDecision =
  | { granted: true }
  /** Not now: ask again at `retryAt`; `dayLimit` when the service's day is used up. */
  | { granted: false; retryAt: number; dayLimit: boolean };

export type CreditDecision =
  | { granted: true }
  /** Refused: a cap would be passed. */
  | { granted: false; reason: string; period: CapPeriod }
  /** Not yet: another paid call of the account is in flight; ask again at `retryAt`. */
  | { granted: false; busy: true; retryAt: number };

export type DayCallsDecision = { granted: true } | { granted: false; retryAt: number; left: number };

/** The id prefix of account workflows. */
export const ACCOUNT_WORKFLOW_PREFIX = 'vir-account-';

export interface ReserveCreditsRequest {
  id: string;
  jobId: string;
  runId: string;
  credits: number;
  caps: CreditCaps;
  ttlMs: number;
}
export interface SettleCreditsRequest {
  id: string;
  jobId: string;
  credits: number;
  /** The account's balance after the call, when the answer (or a balance read) told it. */
  remaining?: number | null;
}
export interface AcquireCallRequest {
  grantId: string;
  runId: string;
  perMinute: number;
  perDay: number;
}
export interface CallDoneReport {
  grantId: string;
  report: CallReport | null;
  counted: boolean;
}
export interface ReserveDayCallsRequest {
  runId: string;
  calls: number;
  perDay: number;
  ttlMs: number;
}

/** What `vir credits` shows of an account. */
export interface AccountView {
  at: number;
  caps: CreditCaps;
  /** Credits spent this day, week and month: the total and per job. */
  spent: Record<CapPeriod, { total: number; byJob: Record<string, number> }>;
  reserved: number;
  calls: {
    dayUsed: number;
    dayEndsAt: number;
    /** Calls let through and not reported answered: single grants and the permits of leases. */
    inFlight: number;
    window: { resetAt: number; remaining: number } | null;
  };
}

/**
 * What a worker tells the ledger of one lease of permits: cumulative counts, so a report sent
 * twice (an update sent again after its deadline) counts once.
 */
export interface LeaseReport {
  leaseId: string;
  /** Calls of the lease answered (or failed) so far. */
  done: number;
  /** Of those, refused by the service as rate-limited (429): they used no call of the day. */
  uncounted: number;
  /** The worker is done with the lease: its permits never used are given back. */
  closed: boolean;
  /** The rate-limit headers of the answers since the last report. */
  reports: CallReport[];
}

/** What a worker had waiting for the ledger: its leases' progress and paid calls' settlements. */
export interface PermitsReport {
  leases: LeaseReport[];
  settlements: SettleCreditsRequest[];
}

/**
 * A worker's ask for permits in a block: `want` calls of the run `runId` may go to the service
 * (its calls waiting now, and a few it expects); the ledger grants up to that many as one lease.
 * A paid call asks with its credit reservation (`credits`), granted together or not at all.
 */
export interface AcquirePermitsRequest extends PermitsReport {
  leaseId: string;
  runId: string;
  want: number;
  perMinute: number;
  perDay: number;
  credits?: Omit<ReserveCreditsRequest, 'runId'>;
}

/** A lease of `granted` permits, or why none: the window, the day, or the credit reservation. */
export type PermitsDecision =
  | { granted: number }
  | { granted: 0; retryAt: number; dayLimit: boolean }
  | { granted: 0; credits: Exclude<CreditDecision, { granted: true }> };

export const acquirePermitsUpdate = defineUpdate<PermitsDecision, [AcquirePermitsRequest]>('acquirePermits');
export const permitsReportSignal = defineSignal<[PermitsReport]>('permitsReport');
export const reserveCreditsUpdate = defineUpdate<CreditDecision, [ReserveCreditsRequest]>('reserveCredits');
export const settleCreditsUpdate = defineUpdate<void, [SettleCreditsRequest]>('settleCredits');
export const acquireCallUpdate = defineUpdate<CallDecision, [AcquireCallRequest]>('acquireCall');
export const reserveDayCallsUpdate = defineUpdate<DayCallsDecision, [ReserveDayCallsRequest]>(
  'reserveDayCalls',
);
export const callDoneSignal = defineSignal<[CallDoneReport]>('callDone');
export const releaseDayCallsSignal = defineSignal<[{ runId: string }]>('releaseDayCalls');
export const accountViewQuery = defineQuery<AccountView>('account');
/** The balance the ledger knew when a paid call's reservation was granted. */
export const reservationBalanceQuery = defineQuery<number | null, [string]>('reservationBalance');
