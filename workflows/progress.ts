/**
 * Progress of a run: kept by the engine inside the workflow, read by the `progress` query
 * (`vir run`'s bar, `vir runs show`), fed by the paging children's `pageDone` signal. The query
 * and the signal are defined here once; every caller uses these objects, never their names.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { OperationName } from '../api/operations.js';
import type { CallAttempts, OperationAttempts } from '../shared/types.js';

export interface RunProgress {
  /** What the run is doing; each job kind names its own phases (`paging`, `asking`, ...). */
  phase: string;
  callsMade: number;
  callsPlanned: number;
  pages: number;
  records: number;
  creditsSpent: number;
  creditsBudget: number;
  etaSeconds: number | null;
  partial: boolean;
  reasons: string[];
  /** Set while the run waits for the daily rate limit to reset (ISO time). */
  waitingUntil: string | null;
  startedAt: string;
  /** Requests sent per operation, retries included, and how they ended (absent before it was added). */
  attempts?: Record<string, OperationAttempts>;
}

/** Phases every run goes through, whatever its kind. */
export const PHASE_STARTING = 'starting';
/** Writing the run's files (`run.renderAndFinish`; a kind may name its own). */
export const PHASE_RENDERING = 'rendering';
/** Sending the reports to the job's destinations (after the manifest). */
export const PHASE_DELIVERING = 'delivering';
export const PHASE_DONE = 'done';

/** Reported by a paging child workflow after each page. */
export interface PageDone {
  label: string;
  /** The operation that was paged (absent in signals sent before it was added). */
  operation?: OperationName;
  records: number;
  total: number | null;
  /** Calls this page needed (1). */
  calls: number;
  /** When the child learns the real number of pages, how many it plans in all. */
  plannedPages: number;
  /** Requests the child sent since its last report, retries included (absent before it was added). */
  attempts?: CallAttempts;
}

/** Adds a call's requests to a run's count per operation. */
export function addAttempts(
  table: Record<string, OperationAttempts>,
  operation: string,
  attempts: CallAttempts,
): void {
  const row = (table[operation] ??= { attempted: 0, succeeded: 0, failed: 0 });
  row.attempted += attempts.sent;
  row.failed += attempts.failed;
  row.succeeded += attempts.sent - attempts.failed;
}

/** Requests that failed in all (retries included), from a run's count per operation. */
export function failedAttempts(table: Record<string, OperationAttempts> | undefined): number {
  return Object.values(table ?? {}).reduce((n, row) => n + row.failed, 0);
}

/**
 * A run's requests per operation in one line: `search_investors 12 sent (1 failed), my_account 1 sent`.
 *
 * @example
 * describeAttempts({ ask: { attempted: 3, succeeded: 2, failed: 1 } }) // 'ask 3 sent (1 failed)'
 */
export function describeAttempts(table: Record<string, OperationAttempts> | undefined): string {
  const rows = Object.entries(table ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (rows.length === 0) return 'none yet';
  return rows
    .map(([op, r]) => `${op} ${r.attempted} sent${r.failed > 0 ? ` (${r.failed} failed)` : ''}`)
    .join(', ');
}

/** A copy of a run's count of requests per operation (for queries and the manifest). */
export function copyAttempts(table: Record<string, OperationAttempts>): Record<string, OperationAttempts> {
  return Object.fromEntries(Object.entries(table).map(([op, row]) => [op, { ...row }]));
}

export const progressQuery = defineQuery<RunProgress>('progress');
export const pageDoneSignal = defineSignal<[PageDone]>('pageDone');

/** A paging child waiting for the daily limit (until: the reset, ISO) or done waiting (null). */
export interface DailyLimitWait {
  label: string;
  until: string | null;
}
export const dailyLimitWaitSignal = defineSignal<[DailyLimitWait]>('dailyLimitWait');

/** The patch of paging children that tell their parent about their daily-limit waits. */
export const PAGING_WAIT_PROGRESS = 'paging-wait-progress';

/** Seconds left at the observed pace, or null before anything was measured. */
export function estimateEta(p: RunProgress, nowMs: number): number | null {
  const elapsed = (nowMs - Date.parse(p.startedAt)) / 1000;
  if (p.callsMade === 0 || elapsed <= 0) return null;
  const left = Math.max(0, p.callsPlanned - p.callsMade);
  return Math.round((elapsed / p.callsMade) * left);
}

/** A new run's progress. */
export function initialProgress(creditsBudget: number, startedAt: string): RunProgress {
  return {
    phase: PHASE_STARTING,
    callsMade: 0,
    callsPlanned: 0,
    pages: 0,
    records: 0,
    creditsSpent: 0,
    creditsBudget,
    etaSeconds: null,
    partial: false,
    reasons: [],
    waitingUntil: null,
    startedAt,
  };
}

/** The phase as a person reads it: the daily-limit wait wins over the phase's name. */
export function describePhase(p: Pick<RunProgress, 'phase' | 'waitingUntil'>): string {
  return p.waitingUntil ? `waiting for the daily limit until ${p.waitingUntil}` : p.phase;
}
