/**
 * A worker's permits to call the service, obtained from the account workflow in blocks: one
 * update grants a lease of several permits for the calls a run has waiting on this worker (and a
 * few it expects), the calls take them here without asking again, and what their answers said
 * (the rate-limit headers, a 429 that used no call of the day, the permits never used, what paid
 * calls cost) goes back with the next ask, or in one signal once nothing more is asked. So a call
 * costs the account workflow a fraction of an update instead of an update and a signal, and the
 * ledger keeps the same guarantees: every permit counts as a call in flight until reported, a
 * lease of a worker that died stops counting after its expiry, and a paid call's credits are
 * reserved with its permit (one paid call of the account at a time).
 */
import { randomUUID } from 'node:crypto';
import { Mutex } from 'async-mutex';
import type {
  AcquirePermitsRequest,
  CallReport,
  CreditDecision,
  LeaseReport,
  PermitsDecision,
  PermitsReport,
  ReserveCreditsRequest,
  SettleCreditsRequest,
} from '../shared/account.js';

/** Permits asked beyond the calls waiting: the next calls of a run take them without an ask. */
export const PERMIT_PREFETCH = 16;
/** The most permits one lease holds. */
export const PERMIT_BLOCK_MAX = 32;
/** Permits of a lease not taken for this long are given back. */
export const PERMIT_IDLE_MS = 250;
/** Reports of answers wait this long for an ask to carry them before a signal does. */
export const REPORT_FLUSH_MS = 1_000;
/** Permits given back wait this long (other workers may be waiting for the window's room). */
export const RETURN_FLUSH_MS = 100;
/** A paid call's settlement waits this long (another paid call of the account may be waiting for it). */
export const SETTLE_FLUSH_MS = 150;

/** A permit taken: the call goes to the service, then reports to its lease. */
export interface Permit {
  leaseId: string;
}

/** Why no permit now: the window or the day (ask again at `retryAt`), or the credit reservation. */
export type PermitRefusal =
  { retryAt: number; dayLimit: boolean } | { credits: Exclude<CreditDecision, { granted: true }> };

/** How the blocks reach the account workflow (the link's update and signal). */
export interface PermitChannel {
  acquire(req: Omit<AcquirePermitsRequest, 'perMinute' | 'perDay'>): Promise<PermitsDecision>;
  report(report: PermitsReport): Promise<void>;
}

interface LocalLease {
  id: string;
  runId: string;
  granted: number;
  /** Permits handed to calls. */
  taken: number;
  /** Calls answered or failed. */
  done: number;
  uncounted: number;
  /** No more permits are taken from it (all taken, or given back when idle). */
  stopped: boolean;
  /** Headers of answers not reported yet. */
  reports: CallReport[];
  /** Something changed since the last report the ledger took. */
  dirty: boolean;
  idle: NodeJS.Timeout | null;
}

/** A lease is done with once stopped and every call it let through has answered. */
function closable(lease: LocalLease): boolean {
  return lease.stopped && lease.done >= lease.taken;
}

export class PermitBlocks {
  readonly #leases = new Map<string, LocalLease>();
  readonly #waiting = new Map<string, number>();
  readonly #asks = new Map<string, Mutex>();
  #settlements: SettleCreditsRequest[] = [];
  #flush: { timer: NodeJS.Timeout; at: number } | null = null;

  constructor(readonly channel: PermitChannel) {}

  /** A permit for a call of the run: from a lease held here, else from a new block. */
  async take(runId: string): Promise<Permit | PermitRefusal> {
    const held = this.#takeLocal(runId);
    if (held) return held;
    this.#waiting.set(runId, (this.#waiting.get(runId) ?? 0) + 1);
    try {
      return await this.#askLock(runId).runExclusive(async () => {
        // A block asked while this call waited for its turn may have a permit left for it.
        const left = this.#takeLocal(runId);
        if (left) return left;
        const want = Math.min(PERMIT_BLOCK_MAX, (this.#waiting.get(runId) ?? 1) + PERMIT_PREFETCH);
        return this.#ask(runId, want);
      });
    } finally {
      this.#waiting.set(runId, (this.#waiting.get(runId) ?? 1) - 1);
    }
  }

  /** A permit for a paid call, asked with its credit reservation (both or neither). */
  async takePaid(
    runId: string,
    credits: Omit<ReserveCreditsRequest, 'runId'>,
  ): Promise<Permit | PermitRefusal> {
    return this.#ask(runId, 1, credits);
  }

  /** A call of the permit was answered (or failed): `counted` false for a 429 (no call of the day used). */
  done(permit: Permit, report: CallReport | null, counted: boolean): void {
    const lease = this.#leases.get(permit.leaseId);
    if (!lease) return;
    lease.done += 1;
    if (!counted) lease.uncounted += 1;
    if (report) lease.reports.push(report);
    lease.dirty = true;
    this.#scheduleFlush(REPORT_FLUSH_MS);
  }

  /** What a paid call cost, told to the ledger with the next ask or soon after. */
  settle(settlement: SettleCreditsRequest): void {
    this.#settlements.push(settlement);
    this.#scheduleFlush(SETTLE_FLUSH_MS);
  }

  /** Sends what is not reported yet at once (a worker stopping), giving back every permit not taken. */
  async close(): Promise<void> {
    for (const lease of this.#leases.values()) this.#stop(lease);
    if (this.#flush) clearTimeout(this.#flush.timer);
    this.#flush = null;
    await this.#sendReport();
  }

  #askLock(runId: string): Mutex {
    let lock = this.#asks.get(runId);
    if (!lock) this.#asks.set(runId, (lock = new Mutex()));
    return lock;
  }

  #takeLocal(runId: string): Permit | null {
    for (const lease of this.#leases.values()) {
      if (lease.runId !== runId || lease.stopped || lease.taken >= lease.granted) continue;
      lease.taken += 1;
      if (lease.taken === lease.granted) this.#stop(lease);
      else this.#armIdle(lease);
      return { leaseId: lease.id };
    }
    return null;
  }

  async #ask(
    runId: string,
    want: number,
    credits?: Omit<ReserveCreditsRequest, 'runId'>,
  ): Promise<Permit | PermitRefusal> {
    const report = this.#pending();
    const leaseId = randomUUID();
    const d = await this.channel.acquire({
      leaseId,
      runId,
      want,
      ...report,
      ...(credits ? { credits } : {}),
    });
    this.#taken(report);
    if ('credits' in d) return { credits: d.credits };
    if (d.granted <= 0) {
      return 'retryAt' in d
        ? { retryAt: d.retryAt, dayLimit: d.dayLimit }
        : { retryAt: Date.now(), dayLimit: false };
    }
    const lease: LocalLease = {
      id: leaseId,
      runId,
      granted: d.granted,
      taken: 0,
      done: 0,
      uncounted: 0,
      stopped: false,
      reports: [],
      dirty: false,
      idle: null,
    };
    this.#leases.set(leaseId, lease);
    return this.#takeLocal(runId) ?? { leaseId };
  }

  /** No more permits from the lease; the ones not taken go back with its next report. */
  #stop(lease: LocalLease): void {
    if (lease.idle) clearTimeout(lease.idle);
    lease.idle = null;
    if (lease.stopped) return;
    lease.stopped = true;
    if (lease.taken < lease.granted) {
      lease.dirty = true;
      this.#scheduleFlush(RETURN_FLUSH_MS);
    }
  }

  #armIdle(lease: LocalLease): void {
    if (lease.idle) clearTimeout(lease.idle);
    lease.idle = setTimeout(() => this.#stop(lease), PERMIT_IDLE_MS);
    lease.idle.unref();
  }

  /** The report of everything changed: leases (cumulative counts) and settlements. */
  #pending(): PermitsReport & { closing: string[] } {
    const leases: LeaseReport[] = [];
    const closing: string[] = [];
    for (const lease of this.#leases.values()) {
      if (!lease.dirty) continue;
      // Closed once stopped and every call it let through has answered: what was never taken
      // is given back (the ledger counts granted less done as not used).
      const closed = closable(lease);
      if (closed) closing.push(lease.id);
      leases.push({
        leaseId: lease.id,
        done: lease.done,
        uncounted: lease.uncounted,
        closed,
        reports: [...lease.reports],
      });
    }
    return { leases, settlements: [...this.#settlements], closing };
  }

  /** The ledger took `report`: its leases are clean, closed ones forgotten, settlements sent. */
  #taken(report: PermitsReport & { closing: string[] }): void {
    for (const l of report.leases) {
      const lease = this.#leases.get(l.leaseId);
      if (!lease) continue;
      const sent = new Set(l.reports);
      lease.reports = lease.reports.filter((r) => !sent.has(r));
      // Whatever changed while the report was on its way is still to be told: answers, and a
      // lease that stopped meanwhile (left unsaid, the ledger would count its permits in flight
      // until the lease expires, minutes of the window lost).
      lease.dirty =
        lease.reports.length > 0 ||
        lease.done !== l.done ||
        lease.uncounted !== l.uncounted ||
        closable(lease) !== l.closed;
    }
    for (const id of report.closing) this.#leases.delete(id);
    const sent = new Set(report.settlements);
    this.#settlements = this.#settlements.filter((x) => !sent.has(x));
  }

  #scheduleFlush(ms: number): void {
    const at = Date.now() + ms;
    if (this.#flush && this.#flush.at <= at) return;
    if (this.#flush) clearTimeout(this.#flush.timer);
    const timer = setTimeout(() => {
      this.#flush = null;
      void this.#sendReport().catch(() => undefined);
    }, ms);
    timer.unref();
    this.#flush = { timer, at };
  }

  async #sendReport(): Promise<void> {
    const report = this.#pending();
    if (report.leases.length === 0 && report.settlements.length === 0) return;
    try {
      await this.channel.report({ leases: report.leases, settlements: report.settlements });
      this.#taken(report);
    } catch {
      // Sent again by the next ask or flush; an unreported lease expires in the ledger.
      this.#scheduleFlush(REPORT_FLUSH_MS);
    }
  }
}
