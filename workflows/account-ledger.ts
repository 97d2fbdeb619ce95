/**
 * The account's ledger, as plain state and decisions (no Temporal here, so tests drive it with
 * any clock): the credits each job spent per UTC day, the credits reserved by paid calls in
 * flight, the caps per day, week (ISO, from Monday) and calendar month; and the calls the
 * service allows: the minute window its headers report, the calls in flight, the calls of the
 * service's day and the calls runs reserved of it. The account workflow (account.ts) holds one
 * ledger per account and answers every worker and run from it.
 */

import {
  CAP_PERIODS,
  type CallDecision,
  type CallReport,
  type CapPeriod,
  type CreditCaps,
  type CreditDecision,
  type DayCallsDecision,
  type AcquirePermitsRequest,
  type LeaseReport,
  type PermitsDecision,
  type PermitsReport,
} from '../shared/account.js';

/** Credits a paid call holds until it is settled. */
export interface CreditReservation {
  jobId: string;
  /** The run (workflow id) that reserved. */
  runId: string;
  credits: number;
  at: number;
  expiresAt: number;
  /** The account's balance as the ledger knew it when the reservation was granted (null: unknown). */
  balanceAtReserve?: number | null;
}

/** A call let through to the service and not answered yet. */
interface Grant {
  runId: string;
  expiresAt: number;
}

/** Permits granted to a worker in one block, until it reports them done or gives them back. */
interface Lease {
  runId: string;
  granted: number;
  /** Calls of the lease reported answered (or failed). */
  done: number;
  /** Of those, refused as rate-limited (counted in the day when granted, given back on report). */
  uncounted: number;
  expiresAt: number;
}

/** Calls a run reserved of the service's day before starting them. */
interface DayReservation {
  calls: number;
  used: number;
  expiresAt: number;
}

export interface LedgerState {
  /** Credits spent per UTC day (YYYY-MM-DD) and job. Days older than {@link KEEP_DAYS} are dropped. */
  spent: Record<string, Record<string, number>>;
  reservations: Record<string, CreditReservation>;
  /** Ids of the latest settlements, so a settlement sent twice counts once. */
  settled: string[];
  /** The caps the latest reservation was checked against. */
  caps: CreditCaps;
  /** The account's balance after the latest settled paid call (null: none reported yet). */
  balance?: number | null;
  calls: {
    /** The minute window as the latest answer reported it (null: none known). */
    window: { resetAt: number; remaining: number } | null;
    /** X-RateLimit-Limit as last reported. */
    limit: number | null;
    /** Whether the latest answer carried the rate-limit headers (null: no answer yet). */
    headers: boolean | null;
    grants: Record<string, Grant>;
    /** Blocks of permits held by workers (absent in ledgers from before leases). */
    leases?: Record<string, Lease>;
    /** Without headers, calls are spread evenly: the next one may start at this time. */
    nextSmoothAt: number;
    /** The service's day: when it ends, calls counted in it, and what the service said is left. */
    day: { endsAt: number; used: number; remaining: number | null };
    dayReservations: Record<string, DayReservation>;
  };
}

/** Days of spending kept: enough for a calendar month and the week across its start. */
export const KEEP_DAYS = 40;
/** Settlement ids remembered for idempotency. */
const KEEP_SETTLED = 2000;
/** A call let through and never reported back (its worker died) stops counting in flight after this. */
export const GRANT_TTL_MS = 180_000;
/** A call waiting only for the answers of calls in flight looks again after this. */
export const IN_FLIGHT_RETRY_MS = 100;
/** Margin after a reported reset before the next window is used (reset values are rounded). */
export const RESET_MARGIN_MS = 250;
/** Without rate-limit headers, calls go at this share of the per-minute limit, evenly spread. */
export const SMOOTH_SHARE = 0.95;

export function emptyLedger(): LedgerState {
  return {
    spent: {},
    reservations: {},
    settled: [],
    caps: {},
    calls: {
      window: null,
      limit: null,
      headers: null,
      grants: {},
      nextSmoothAt: 0,
      day: { endsAt: 0, used: 0, remaining: null },
      dayReservations: {},
    },
  };
}

/** The UTC day of a moment, YYYY-MM-DD. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The next UTC midnight after `ms`. */
export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/** The first day (YYYY-MM-DD) of the period of `ms`: the day itself, its ISO week's Monday, its month's 1st. */
export function periodStart(period: CapPeriod, ms: number): string {
  const d = new Date(ms);
  if (period === 'day') return dayOf(ms);
  if (period === 'month') return `${dayOf(ms).slice(0, 7)}-01`;
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - sinceMonday));
}

const PERIOD_WORD: Record<CapPeriod, string> = { day: 'a day', week: 'a week', month: 'a month' };

/** How soon a paid call waiting for another one in flight asks again. */
export const BUSY_RETRY_MS = 200;

/** A per-account ledger of credits and calls. All methods take the time (ms) they act at. */
export class AccountLedger {
  readonly state: LedgerState;

  constructor(state?: LedgerState) {
    this.state = state ?? emptyLedger();
  }

  // ---- credits -------------------------------------------------------------------------------

  /** Credits spent since the start of `period` (UTC), all jobs or one. */
  spentIn(period: CapPeriod, now: number, jobId?: string): number {
    const from = periodStart(period, now);
    let total = 0;
    for (const [day, jobs] of Object.entries(this.state.spent)) {
      if (day < from) continue;
      for (const [job, credits] of Object.entries(jobs))
        if (jobId === undefined || job === jobId) total += credits;
    }
    return total;
  }

  /** Credits reserved by paid calls not settled yet. */
  reserved(now: number): number {
    this.#expire(now);
    return Object.values(this.state.reservations).reduce((sum, r) => sum + r.credits, 0);
  }

  #expire(now: number): void {
    for (const [id, r] of Object.entries(this.state.reservations)) {
      if (r.expiresAt <= now) delete this.state.reservations[id];
    }
  }

  /**
   * Reserves `credits` for a paid call, unless spent plus reserved plus it would pass a cap of
   * the account. Asking again with the same id answers the same (a retried activity). Paid calls
   * of the account go one at a time, across runs: while another one is reserved and not settled,
   * the answer is to ask again shortly. So the balance before and after a call of unknown outcome
   * brackets that one call only, and what the account lost is what it cost.
   */
  reserveCredits(
    req: { id: string; jobId: string; runId: string; credits: number; caps: CreditCaps; ttlMs: number },
    now: number,
  ): CreditDecision {
    if (this.state.settled.includes(req.id) || this.state.reservations[req.id]) return { granted: true };
    this.reserved(now); // releases the expired ones
    if (Object.keys(this.state.reservations).length > 0) {
      return { granted: false, busy: true, retryAt: now + BUSY_RETRY_MS };
    }
    this.state.caps = { ...req.caps };
    for (const period of CAP_PERIODS) {
      const cap = req.caps[period];
      if (cap === undefined) continue;
      const spent = this.spentIn(period, now);
      if (spent + req.credits > cap) {
        return {
          granted: false,
          period,
          reason: `the account's cap of ${cap} credits ${PERIOD_WORD[period]} is reached (${spent} spent, ${req.credits} more needed)`,
        };
      }
    }
    this.state.reservations[req.id] = {
      jobId: req.jobId,
      runId: req.runId,
      credits: req.credits,
      at: now,
      expiresAt: now + req.ttlMs,
      balanceAtReserve: this.state.balance ?? null,
    };
    return { granted: true };
  }

  /** The balance the ledger knew when a reservation was granted (null: unknown, or no such reservation). */
  balanceAtReserve(id: string): number | null {
    return this.state.reservations[id]?.balanceAtReserve ?? null;
  }

  /**
   * Records what a paid call cost (0 when the service did not charge) and frees its reservation.
   * A settlement of an expired reservation still counts: the service charged it.
   */
  settleCredits(
    req: { id: string; jobId: string; credits: number; remaining?: number | null },
    now: number,
  ): void {
    delete this.state.reservations[req.id];
    if (req.remaining != null) this.state.balance = req.remaining;
    // Nothing charged: only the reservation goes (the same call may reserve again, after a wait).
    if (req.credits <= 0 || this.state.settled.includes(req.id)) return;
    this.state.settled.push(req.id);
    if (this.state.settled.length > KEEP_SETTLED)
      this.state.settled.splice(0, this.state.settled.length - KEEP_SETTLED);
    const day = (this.state.spent[dayOf(now)] ??= {});
    day[req.jobId] = (day[req.jobId] ?? 0) + req.credits;
    const oldest = dayOf(now - KEEP_DAYS * 86_400_000);
    for (const d of Object.keys(this.state.spent)) if (d < oldest) delete this.state.spent[d];
  }

  // ---- calls ---------------------------------------------------------------------------------

  #rollDay(now: number): void {
    const day = this.state.calls.day;
    if (now < day.endsAt) return;
    day.endsAt = nextUtcMidnight(now);
    day.used = 0;
    day.remaining = null;
    this.state.calls.dayReservations = {};
  }

  /**
   * Calls in flight: single grants not answered, and the permits of each lease not reported done
   * (used or not yet). Expired grants and leases (their worker died) stop counting.
   */
  #pruneGrants(now: number): number {
    const grants = this.state.calls.grants;
    for (const [id, g] of Object.entries(grants)) if (g.expiresAt <= now) delete grants[id];
    const leases = this.state.calls.leases ?? {};
    for (const [id, l] of Object.entries(leases)) if (l.expiresAt <= now) delete leases[id];
    return this.callsInFlight(now);
  }

  /**
   * Calls in flight at `now` as the ledger counts them (single grants not answered, permits of
   * leases not reported done), without pruning: for queries, which must not change the state.
   */
  callsInFlight(now: number): number {
    const { grants, leases = {} } = this.state.calls;
    const single = Object.values(grants).filter((g) => g.expiresAt > now).length;
    return Object.values(leases)
      .filter((l) => l.expiresAt > now)
      .reduce((n, l) => n + l.granted - l.done, single);
  }

  /** Calls of the service's day left: what it said, or the day's limit less the calls counted. */
  dayLeft(perDay: number, now: number): number {
    this.#rollDay(now);
    const { used, remaining } = this.state.calls.day;
    const counted = Math.max(0, perDay - used);
    return remaining === null ? counted : Math.min(counted, remaining);
  }

  /**
   * Lets one call through to the service, or says when to ask again. With the service's
   * headers the window is used as fast as it allows: while it has room beyond the calls in
   * flight, calls go at once; a used-up window waits for its reset. Without headers, calls are
   * spread evenly at {@link SMOOTH_SHARE} of `perMinute`.
   */
  acquireCall(
    req: { grantId: string; runId: string; perMinute: number; perDay: number },
    now: number,
  ): CallDecision {
    const calls = this.state.calls;
    if (calls.grants[req.grantId]) return { granted: true };
    const room = this.#room(req, now);
    if (typeof room !== 'number') return room;
    if (room <= 0) return { granted: false, retryAt: now + IN_FLIGHT_RETRY_MS, dayLimit: false };
    calls.grants[req.grantId] = { runId: req.runId, expiresAt: now + GRANT_TTL_MS };
    this.#countDay(req.runId, 1);
    return { granted: true };
  }

  /**
   * How many calls may go now (at most the room beyond the calls in flight), or when to ask
   * again. With the service's headers the window is used as fast as it allows; without them,
   * calls are spread evenly at {@link SMOOTH_SHARE} of `perMinute`, one at a time.
   */
  #room(
    req: { runId: string; perMinute: number; perDay: number },
    now: number,
  ): number | { granted: false; retryAt: number; dayLimit: boolean } {
    const calls = this.state.calls;
    const inFlight = this.#pruneGrants(now);
    // Calls let through were counted in the day when granted; calls other runs reserved of the
    // day are theirs.
    const dayRoom = this.dayLeft(req.perDay, now) - this.#heldByOthers(req.runId, now);
    if (dayRoom <= 0) {
      return { granted: false, retryAt: calls.day.endsAt + RESET_MARGIN_MS, dayLimit: true };
    }
    const window = calls.window && now < calls.window.resetAt + RESET_MARGIN_MS ? calls.window : null;
    let room: number;
    if (calls.headers === false) {
      if (now < calls.nextSmoothAt) return { granted: false, retryAt: calls.nextSmoothAt, dayLimit: false };
      calls.nextSmoothAt = now + 60_000 / (req.perMinute * SMOOTH_SHARE);
      room = 1;
    } else if (calls.headers === null) {
      // Nothing known yet: one call at a time until an answer tells the window.
      room = inFlight === 0 ? 1 : 0;
    } else if (window) {
      if (window.remaining <= 0) {
        const retryAt = window.resetAt + RESET_MARGIN_MS;
        return { granted: false, retryAt, dayLimit: this.dayLeft(req.perDay, now) <= 0 };
      }
      room = window.remaining - inFlight;
    } else {
      room = Math.min(calls.limit ?? req.perMinute, req.perMinute) - inFlight;
    }
    return Math.min(room, dayRoom);
  }

  /** Counts calls let through in the service's day and in the run's reservation of it. */
  #countDay(runId: string, calls: number): void {
    this.state.calls.day.used += calls;
    const reservation = this.state.calls.dayReservations[runId];
    if (reservation) reservation.used += calls;
  }

  /**
   * Lets a block of calls through to the service as one lease (at most `want`, at most the room
   * beyond the calls in flight, at most a quarter of the window), after taking in what the worker reported of its earlier leases
   * and paid calls. A paid call's credit reservation is asked first: refused or busy, no permit
   * is granted. Asking again with the same lease id answers the same (an update sent again).
   */
  acquirePermits(req: AcquirePermitsRequest, now: number): PermitsDecision {
    this.takeReport(req, now);
    const leases = (this.state.calls.leases ??= {});
    const known = leases[req.leaseId];
    if (known) return { granted: known.granted };
    if (req.credits) {
      const credit = this.reserveCredits({ ...req.credits, runId: req.runId }, now);
      if (!credit.granted) return { granted: 0, credits: credit };
    }
    const room = this.#room(req, now);
    if (typeof room !== 'number') return { granted: 0, retryAt: room.retryAt, dayLimit: room.dayLimit };
    // A lease holds at most a quarter of the window, so the other workers' calls find room.
    const share = Math.max(
      1,
      Math.ceil(Math.min(this.state.calls.limit ?? req.perMinute, req.perMinute) / 4),
    );
    const granted = Math.min(Math.max(1, Math.floor(req.want)), room, share);
    if (granted <= 0) return { granted: 0, retryAt: now + IN_FLIGHT_RETRY_MS, dayLimit: false };
    leases[req.leaseId] = { runId: req.runId, granted, done: 0, uncounted: 0, expiresAt: now + GRANT_TTL_MS };
    this.#countDay(req.runId, granted);
    return { granted };
  }

  /**
   * What a worker reports of its leases (calls answered, refused as rate-limited, permits given
   * back) and of its paid calls (settlements). Counts are cumulative per lease, so a report sent
   * twice counts once.
   */
  takeReport(report: PermitsReport, now: number): void {
    for (const s of report.settlements ?? []) this.settleCredits(s, now);
    for (const l of report.leases ?? []) this.#takeLease(l, now);
  }

  #takeLease(report: LeaseReport, now: number): void {
    this.#rollDay(now);
    for (const r of report.reports) this.#takeHeaders(r, now);
    const leases = (this.state.calls.leases ??= {});
    const lease = leases[report.leaseId];
    if (!lease) return;
    const day = this.state.calls.day;
    const refused = Math.max(0, report.uncounted - lease.uncounted);
    lease.uncounted += refused;
    lease.done = Math.min(lease.granted, Math.max(lease.done, report.done));
    let notUsed = refused;
    if (report.closed) {
      notUsed += lease.granted - lease.done;
      delete leases[report.leaseId];
    }
    day.used = Math.max(0, day.used - notUsed);
    const reservation = this.state.calls.dayReservations[lease.runId];
    if (reservation) reservation.used = Math.max(0, reservation.used - notUsed);
  }

  /**
   * A call's answer came (or none did: `report` null). Its headers tell the window: a new reset
   * replaces the window, the same reset keeps the lowest remaining (answers come out of order).
   * A refused call (`counted` false: 429) did not use a call of the day.
   */
  callDone(req: { grantId: string; report: CallReport | null; counted: boolean }, now: number): void {
    const calls = this.state.calls;
    const known = calls.grants[req.grantId] !== undefined;
    delete calls.grants[req.grantId];
    this.#rollDay(now);
    if (known && !req.counted) calls.day.used = Math.max(0, calls.day.used - 1);
    if (req.report) this.#takeHeaders(req.report, now);
  }

  /**
   * An answer's rate-limit headers: a new reset replaces the window, the same reset keeps the
   * lowest remaining (answers come out of order).
   */
  #takeHeaders(r: CallReport, now: number): void {
    const calls = this.state.calls;
    const hasHeaders = r.remaining !== null && r.resetAt !== null;
    calls.headers = hasHeaders;
    if (r.limit !== null) calls.limit = r.limit;
    if (hasHeaders) {
      const w = calls.window;
      if (w && r.resetAt === w.resetAt) {
        w.remaining = Math.min(w.remaining, r.remaining!);
      } else if (!w || r.resetAt! > w.resetAt) {
        calls.window = { resetAt: r.resetAt!, remaining: r.remaining! };
      } else if (r.resetAt! > now) {
        // An earlier reset not passed yet: the day's, ending before the minute's window (the
        // service tells it once the day has no calls left), or the same window read with another
        // rounding. It limits now, and can only lower what is left.
        calls.window = { resetAt: r.resetAt!, remaining: Math.min(w.remaining, r.remaining!) };
      }
      // Else the answer is of a window that has ended, come back after the answers of the window
      // now (answers come out of order): it says nothing of the window now. Taking it made the
      // window look fresh, and more calls than it had room for went out: a 429.
    }
    // The service's own day, where it tells it (else the UTC day).
    if (r.dayResetAt != null && r.dayResetAt > now) calls.day.endsAt = r.dayResetAt;
    if (r.dayRemaining != null) {
      calls.day.remaining =
        calls.day.remaining === null ? r.dayRemaining : Math.min(calls.day.remaining, r.dayRemaining);
    }
  }

  /**
   * Reserves `calls` of the service's day for a run before it starts them. A run that needs more
   * than the day has left (after other runs' reservations) is told to wait for the next day; a
   * run needing more than a whole day gets what a day holds when the day is fresh.
   */
  reserveDayCalls(
    req: { runId: string; calls: number; perDay: number; ttlMs: number },
    now: number,
  ): DayCallsDecision {
    const calls = this.state.calls;
    this.#rollDay(now);
    if (calls.dayReservations[req.runId]) return { granted: true };
    const left = Math.max(0, this.dayLeft(req.perDay, now) - this.#heldByOthers(req.runId, now));
    const wanted = Math.min(req.calls, req.perDay);
    if (wanted > left) return { granted: false, retryAt: calls.day.endsAt + RESET_MARGIN_MS, left };
    calls.dayReservations[req.runId] = { calls: wanted, used: 0, expiresAt: now + req.ttlMs };
    return { granted: true };
  }

  /** Calls of the day reserved by runs other than `runId` and not made yet. */
  #heldByOthers(runId: string | null, now: number): number {
    let held = 0;
    for (const [id, r] of Object.entries(this.state.calls.dayReservations)) {
      if (r.expiresAt <= now) delete this.state.calls.dayReservations[id];
      else if (id !== runId) held += Math.max(0, r.calls - r.used);
    }
    return held;
  }

  /** A run ended: its reservation of the day's calls is freed. */
  releaseDayCalls(runId: string): void {
    delete this.state.calls.dayReservations[runId];
  }
}
