/**
 * A run's books, as plain data and decisions (no Temporal here, so tests drive them with any
 * clock): the progress and the phases the job names; the calls planned (the plan's bound, each
 * paging stream counted at its cap until its child knows the total); the calls made and the
 * requests sent per operation; the pages and records the paging children report; the partial
 * reasons; the daily-limit waits; the credit budget and what each paid call paid; the run's
 * clock, its stats (the manifest's figures) and its result's figures. The engine (engine.ts,
 * run-calls.ts) is their Temporal shell: its handlers read and feed them, it makes the calls and
 * reports each outcome here.
 *
 * The rules the books keep:
 * - one call is one activity: a call counts once, when its activity answers, and every request
 *   its activity sent (retries included) counts in `attempts`, as the service's log shows it;
 * - paid calls are reserved before they are made and settled after, with what the service
 *   charged; an attempt whose outcome is unknown counts as charged until the balance shows
 *   otherwise, so no call is charged twice without the run knowing;
 * - credits are money: nothing is reserved past the run's budget or the account's balance, and
 *   what the books say was spent is what the account lost.
 */
import { pageSizeOf, repeatCreditsOf, type PagedOperation, type PaidOperation } from '../api/catalog.js';
import type { OperationName } from '../api/operations.js';
import type { CallAttempts, OperationAttempts, RunStats } from '../shared/types.js';
import { CreditBudget } from './budget.js';
import {
  addAttempts,
  copyAttempts,
  estimateEta,
  initialProgress,
  PHASE_DONE,
  type PageDone,
  type RunProgress,
} from './progress.js';

/** Attempts of one paid call at most (each after a reconciliation). */
export const MAX_PAID_ATTEMPTS = 3;

/** Most pages a stream takes: its cap at the operation's largest page. */
export function maxPagesOf(stream: { operation: PagedOperation; cap: number }): number {
  return Math.ceil(stream.cap / pageSizeOf(stream.operation));
}

/** Who the run is and what it may do, as the engine starts it. */
export interface RunBooksInit {
  workflowId: string;
  runId: string;
  /** When the run started (ISO). */
  startedAt: string;
  /** The job's credit budget. */
  creditsBudget: number;
  /** The most calls the run makes, before paging knows its totals (the plan's bound). */
  plannedCalls?: number;
}

/** A paid call as the books know it: its operation, its name in the run, what the reasons call it, its price. */
export interface PaidCallRef {
  operation: PaidOperation;
  name: string;
  what: string;
  /** The operation's price, reserved for its first attempt. */
  cost: number;
}

/** The figures of a run's result (`JobRunResult` without its files and deliveries). */
export interface RunFigures {
  partial: boolean;
  reasons: string[];
  callsMade: number;
  /** Pages fetched by paging, and the records on them. */
  pages: number;
  records: number;
  creditsSpent: number;
  creditsBudget: number;
}

/** A paging stream's most pages, and how many it takes once its child knows the total. */
interface StreamPlan {
  operation: OperationName;
  maxPages: number;
  planned: number | null;
}

/** The books of one run. Methods that need the time take it (ms). */
export class RunBooks {
  /** The run's credit budget: reservations against it and the account's balance, and what was spent. */
  readonly budget: CreditBudget;
  readonly #init: RunBooksInit;
  readonly #progress: RunProgress;
  readonly #callsByOperation: Record<string, number> = {};
  /** Requests sent per operation, retries included, as the service saw them. */
  readonly #attempts: Record<string, OperationAttempts> = {};
  #basePlanned: number;
  readonly #streams = new Map<string, StreamPlan>();
  /** Daily-limit waits in progress: the run's own (label '') and its paging children's. */
  readonly #waits = new Map<string, string>();
  /** Credits settled for each paid call by its name: every attempt's, answers lost after the charge included. */
  readonly #paidByName = new Map<string, number>();
  /** When the run's clock stopped (`stopClock`), or null while it runs. */
  #stoppedAt: string | null = null;

  constructor(init: RunBooksInit) {
    this.#init = init;
    this.budget = new CreditBudget(init.creditsBudget);
    this.#progress = initialProgress(init.creditsBudget, init.startedAt);
    this.#progress.attempts = this.#attempts;
    this.#basePlanned = init.plannedCalls ?? 0;
    this.#replan();
  }

  // ---- progress -------------------------------------------------------------------------------

  /** The progress as the `progress` query answers it at `now`: a copy, with the ETA. */
  progressAt(now: number): RunProgress {
    return {
      ...this.#progress,
      attempts: copyAttempts(this.#attempts),
      etaSeconds: estimateEta(this.#progress, now),
    };
  }

  /** Enters a phase the job names. */
  phase(name: string): void {
    this.#progress.phase = name;
  }

  /** The run is done: its phase says so and no more calls are planned. */
  done(): void {
    this.#progress.phase = PHASE_DONE;
    this.#progress.callsPlanned = this.#progress.callsMade;
  }

  get callsMade(): number {
    return this.#progress.callsMade;
  }

  get callsPlanned(): number {
    return this.#progress.callsPlanned;
  }

  // ---- calls and paging -----------------------------------------------------------------------

  /** Counts calls of an operation that answered. */
  countCall(operation: OperationName, calls = 1): void {
    this.#progress.callsMade += calls;
    this.#callsByOperation[operation] = (this.#callsByOperation[operation] ?? 0) + calls;
  }

  /** Counts the requests a call's activity sent, retries included. */
  countAttempts(operation: OperationName, attempts: CallAttempts): void {
    addAttempts(this.#attempts, operation, attempts);
  }

  /** Sets the most calls the run makes (before paging knows its totals). */
  planCalls(calls: number): void {
    this.#basePlanned = calls;
    this.#replan();
  }

  /** Registers a paging stream: it is planned at its cap until its child reports the total. */
  addStream(stream: { label: string; operation: PagedOperation; cap: number }): void {
    this.#streams.set(stream.label, {
      operation: stream.operation,
      maxPages: maxPagesOf(stream),
      planned: null,
    });
  }

  /** A page a paging child reported (`pageDone`): its calls, requests and records, and the pages it now plans. */
  pageDone(p: PageDone): void {
    const stream = this.#streams.get(p.label);
    const operation = p.operation ?? stream?.operation;
    if (operation) this.countCall(operation, p.calls);
    else this.#progress.callsMade += p.calls;
    // Children started before attempts were counted report one request per page.
    if (operation) this.countAttempts(operation, p.attempts ?? { sent: p.calls, failed: 0 });
    this.#progress.pages += 1;
    this.#progress.records += p.records;
    if (stream) stream.planned = p.plannedPages;
    this.#replan();
  }

  /** Planned calls: the plan's bound, with each stream's known page count instead of its cap. */
  #replan(): void {
    let planned = this.#basePlanned;
    for (const s of this.#streams.values()) planned += (s.planned ?? s.maxPages) - s.maxPages;
    this.#progress.callsPlanned = Math.max(this.#progress.callsMade, planned);
  }

  // ---- partial reasons and waits --------------------------------------------------------------

  /** Makes the run partial with a reason (each reason once). */
  partial(reason: string): void {
    this.#progress.partial = true;
    if (!this.#progress.reasons.includes(reason)) this.#progress.reasons.push(reason);
  }

  /**
   * A daily-limit wait until `until` (ISO) of the run itself (label '') or of a paging child, or
   * its end (null). The progress shows the latest of the waits in progress.
   */
  setWait(label: string, until: string | null): void {
    if (until === null) this.#waits.delete(label);
    else this.#waits.set(label, until);
    this.#progress.waitingUntil = [...this.#waits.values()].sort().at(-1) ?? null;
  }

  // ---- paid calls -----------------------------------------------------------------------------

  /** Reserves `cost` credits for a paid call: null when reserved, else why not (nothing is called). */
  reservePaid(cost: number): string | null {
    const refusal = this.budget.refusal(cost);
    if (refusal !== null || !this.budget.reserve(cost)) return refusal ?? 'credit budget reached';
    return null;
  }

  /**
   * Settles a paid call's reservation with what the service charged (0 when the call failed,
   * known not charged) and the balance it reported.
   */
  settlePaid(name: string, reserved: number, charged: number, remaining: number | null): void {
    this.budget.settle(reserved, charged, remaining);
    this.#addPaid(name, charged);
    this.#progress.creditsSpent = this.budget.spent;
  }

  /**
   * Settles an attempt whose outcome is unknown, once the balance was read again: it paid what
   * the account lost from `from` (the balance before it) to `seen` (after it), or its whole
   * reservation when either is unknown. `sent` is the requests its failure says it sent (null:
   * it says nothing): a charge proves the request reached the service even when that says 0.
   * Returns what it paid.
   */
  settleUnknownPaid(
    call: PaidCallRef,
    reserved: number,
    balances: { from: number | null; seen: number | null },
    sent: number | null,
  ): number {
    const { from, seen } = balances;
    const paid = from !== null && seen !== null ? Math.max(0, from - seen) : reserved;
    // A charge proves the request reached the service, even when its worker died before
    // the heartbeat that records the sending was delivered.
    if (paid > 0 && sent === 0) this.countAttempts(call.operation, { sent: 1, failed: 1 });
    this.budget.settleUnknown(reserved, paid, seen);
    this.#addPaid(call.name, paid);
    this.#progress.creditsSpent = this.budget.spent;
    return paid;
  }

  /**
   * Whether a paid call whose attempt `attempt` ended unknown (`failure` says how) and `paid`
   * credits is asked again: the credits reserved for the next attempt (the service's repeat
   * price after a charge, a free repeat costs nothing; the full price otherwise), or null when
   * it is not, after at most {@link MAX_PAID_ATTEMPTS} attempts or when the budget does not
   * cover the repeat; then the run is partial, saying what the lost answer cost.
   */
  askAgain(call: PaidCallRef, attempt: number, paid: number, failure: string): number | null {
    const again = paid > 0 ? repeatCreditsOf(call.operation) : call.cost;
    const lost = `${call.what}: ${failure}; ${
      paid > 0
        ? `the service charged ${paid} credit${paid === 1 ? '' : 's'} for an answer that was lost`
        : 'the service did not charge for it'
    }; not asked again`;
    if (attempt >= MAX_PAID_ATTEMPTS) {
      this.partial(`${lost} after ${attempt} attempts`);
      return null;
    }
    const refusal = this.reservePaid(again);
    if (refusal !== null) {
      this.partial(`${lost}: ${refusal}`);
      return null;
    }
    return again;
  }

  /**
   * Credits a paid call (by its name) cost so far: every attempt's, answers lost after the
   * charge included; once its result is in, what the account paid for it.
   */
  paidCredits(name: string): number {
    return this.#paidByName.get(name) ?? 0;
  }

  #addPaid(name: string, credits: number): void {
    if (credits > 0) this.#paidByName.set(name, (this.#paidByName.get(name) ?? 0) + credits);
  }

  // ---- the clock, stats and result ------------------------------------------------------------

  /**
   * Stops the run's clock at `now`, once: its data is in, and the report about to be built
   * states the run time up to now. The manifest's finishedAt and durationMs use the same
   * instant, so the two never differ. Returns it.
   */
  stopClock(now: number): string {
    this.#stoppedAt ??= new Date(now).toISOString();
    return this.#stoppedAt;
  }

  /** Where the run time ends: where the job stopped the clock (the one its report states), else `now`. */
  finishedAt(now: number): string {
    return this.#stoppedAt ?? new Date(now).toISOString();
  }

  /** What the run did, for its manifest and its report's methodology. */
  stats(): RunStats {
    const p = this.#progress;
    return {
      workflowId: this.#init.workflowId,
      runId: this.#init.runId,
      startedAt: this.#init.startedAt,
      callsByOperation: { ...this.#callsByOperation },
      callsMade: p.callsMade,
      attempts: copyAttempts(this.#attempts),
      pages: p.pages,
      records: p.records,
      creditsSpent: this.budget.spent,
      creditsBudget: this.#init.creditsBudget,
      accountBalance: this.budget.balance,
      partial: p.partial,
      reasons: [...p.reasons],
      ...(this.#stoppedAt ? { finishedAt: this.#stoppedAt } : {}),
    };
  }

  /** The figures of the run's result. */
  figures(): RunFigures {
    const p = this.#progress;
    return {
      partial: p.partial,
      reasons: [...p.reasons],
      callsMade: p.callsMade,
      pages: p.pages,
      records: p.records,
      creditsSpent: this.budget.spent,
      creditsBudget: this.#init.creditsBudget,
    };
  }
}
