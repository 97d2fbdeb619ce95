/**
 * The account's ledger as plain decisions, on a chosen clock: caps per day, week and month over
 * every job and run, reservations that expire, settlements counted once; the calls the window
 * and the day allow.
 */
import { describe, expect, test } from 'vitest';
import {
  AccountLedger,
  BUSY_RETRY_MS,
  GRANT_TTL_MS,
  periodStart,
  RESET_MARGIN_MS,
} from '../../workflows/account-ledger.js';

const T = Date.parse('2026-11-25T10:00:00Z'); // a Wednesday
const caps = { day: 10, week: 25, month: 40 };

function reserve(l: AccountLedger, id: string, credits: number, now = T, jobId = 'a') {
  return l.reserveCredits({ id, jobId, runId: `run-${jobId}`, credits, caps, ttlMs: 60_000 }, now);
}

describe('credits', () => {
  test('periods: the UTC day, the ISO week from Monday, the calendar month', () => {
    expect(periodStart('day', T)).toBe('2026-11-25');
    expect(periodStart('week', T)).toBe('2026-11-23');
    expect(periodStart('week', Date.parse('2026-11-29T23:59:59Z'))).toBe('2026-11-23');
    expect(periodStart('week', Date.parse('2026-11-30T00:00:00Z'))).toBe('2026-11-30');
    expect(periodStart('month', T)).toBe('2026-11-01');
  });

  test('paid calls of the account go one at a time; together they never pass the day cap', () => {
    const l = new AccountLedger();
    expect(reserve(l, 'r1', 6, T, 'a')).toEqual({ granted: true });
    // Another run's paid call waits while r1 is in flight.
    expect(reserve(l, 'r2', 6, T, 'b')).toEqual({ granted: false, busy: true, retryAt: T + BUSY_RETRY_MS });
    l.settleCredits({ id: 'r1', jobId: 'a', credits: 6, remaining: 94 }, T);
    const refused = reserve(l, 'r2', 6, T, 'b');
    expect(refused).toMatchObject({ granted: false, period: 'day' });
    expect('reason' in refused && refused.reason).toBe(
      "the account's cap of 10 credits a day is reached (6 spent, 6 more needed)",
    );
    expect(reserve(l, 'r3', 4, T, 'b')).toEqual({ granted: true });
    // The balance the ledger knew when r3 was granted: what r1's answer said.
    expect(l.balanceAtReserve('r3')).toBe(94);
    l.settleCredits({ id: 'r3', jobId: 'b', credits: 4, remaining: 90 }, T);
    expect(l.spentIn('day', T)).toBe(10);
    expect(l.spentIn('day', T, 'b')).toBe(4);
    expect(reserve(l, 'r4', 1, T)).toMatchObject({ granted: false, period: 'day' });
    expect(l.state.balance).toBe(90);
  });

  test('the week and month caps count the days before today', () => {
    const l = new AccountLedger();
    const monday = Date.parse('2026-11-23T09:00:00Z');
    for (const [i, day] of [monday, monday + 86_400_000].entries()) {
      expect(reserve(l, `w${i}`, 10, day)).toEqual({ granted: true });
      l.settleCredits({ id: `w${i}`, jobId: 'a', credits: 10 }, day);
    }
    expect(reserve(l, 'w2', 6, T)).toMatchObject({ granted: false, period: 'week' });
    expect(reserve(l, 'w3', 5, T)).toEqual({ granted: true });
    // Last Sunday belongs to the month, not to this week.
    const sunday = Date.parse('2026-11-22T12:00:00Z');
    const m = new AccountLedger();
    for (let i = 0; i < 4; i++) {
      const at = sunday - i * 86_400_000;
      reserve(m, `m${i}`, 10, at);
      m.settleCredits({ id: `m${i}`, jobId: 'a', credits: 10 }, at);
    }
    expect(m.spentIn('week', T)).toBe(0);
    expect(reserve(m, 'm9', 1, T)).toMatchObject({ granted: false, period: 'month' });
  });

  test('a settlement sent twice counts once; an expired reservation is released, its late settlement still counts', () => {
    const l = new AccountLedger();
    reserve(l, 'x', 5);
    l.settleCredits({ id: 'x', jobId: 'a', credits: 5 }, T);
    l.settleCredits({ id: 'x', jobId: 'a', credits: 5 }, T);
    expect(l.spentIn('day', T)).toBe(5);
    expect(reserve(l, 'x', 5)).toEqual({ granted: true }); // the same call asking again: already done
    reserve(l, 'y', 5);
    expect(l.reserved(T)).toBe(5);
    expect(l.reserved(T + 60_000)).toBe(0);
    l.settleCredits({ id: 'y', jobId: 'a', credits: 5 }, T + 61_000);
    expect(l.spentIn('day', T + 61_000)).toBe(10);
  });

  test('a reservation released without a charge may be made again (a call that waited)', () => {
    const l = new AccountLedger();
    reserve(l, 'z', 5);
    l.settleCredits({ id: 'z', jobId: 'a', credits: 0 }, T);
    expect(l.reserved(T)).toBe(0);
    expect(reserve(l, 'z', 5)).toEqual({ granted: true });
    expect(l.reserved(T)).toBe(5);
  });
});

describe('calls', () => {
  const req = (grantId: string, runId = 'run') => ({ grantId, runId, perMinute: 60, perDay: 5000 });
  const headers = (remaining: number, resetAt: number) => ({ limit: 60, remaining, resetAt });

  test('one call at a time until an answer tells the window; then as many as the window has room for', () => {
    const l = new AccountLedger();
    expect(l.acquireCall(req('g0'), T)).toEqual({ granted: true });
    expect(l.acquireCall(req('g1'), T)).toMatchObject({ granted: false, dayLimit: false });
    l.callDone({ grantId: 'g0', report: headers(59, T + 60_000), counted: true }, T + 5);
    let granted = 0;
    for (let i = 1; i <= 70; i++) if (l.acquireCall(req(`g${i}`), T + 10).granted) granted += 1;
    expect(granted).toBe(59);
    // Answers of the same window keep the lowest remaining; a used-up window waits for its reset.
    for (let i = 1; i <= 59; i++)
      l.callDone({ grantId: `g${i}`, report: headers(59 - i, T + 60_000), counted: true }, T + 20);
    expect(l.acquireCall(req('late'), T + 30)).toEqual({
      granted: false,
      retryAt: T + 60_000 + RESET_MARGIN_MS,
      dayLimit: false,
    });
    // After the reset: the limit, at once.
    let next = 0;
    for (let i = 0; i < 70; i++)
      if (l.acquireCall(req(`n${i}`), T + 60_000 + RESET_MARGIN_MS).granted) next += 1;
    expect(next).toBe(60);
  });

  test("an answer of an ended window that comes after the next window's answers does not make the window look fresh", () => {
    const l = new AccountLedger();
    const W1 = T + 60_000;
    const W2 = T + 120_000;
    l.acquireCall(req('g0'), T);
    l.callDone({ grantId: 'g0', report: headers(59, W1), counted: true }, T + 5);
    for (let i = 1; i <= 59; i++) expect(l.acquireCall(req(`g${i}`), T + 10).granted).toBe(true);
    // Every answer but the last of the first window; that one is slow to come back.
    for (let i = 1; i <= 58; i++)
      l.callDone({ grantId: `g${i}`, report: headers(59 - i, W1), counted: true }, T + 20);
    // The next window: ten calls answered, 50 left of it.
    const after = W1 + RESET_MARGIN_MS;
    for (let i = 0; i < 10; i++) expect(l.acquireCall(req(`n${i}`), after).granted).toBe(true);
    for (let i = 0; i < 10; i++)
      l.callDone({ grantId: `n${i}`, report: headers(59 - i, W2), counted: true }, after + 50);
    // The first window's last answer, late: it tells nothing of the window now.
    l.callDone({ grantId: 'g59', report: headers(0, W1), counted: true }, after + 100);
    let granted = 0;
    for (let i = 0; i < 70; i++) if (l.acquireCall(req(`m${i}`), after + 150).granted) granted += 1;
    expect(granted).toBe(50);
  });

  test("an earlier reset not passed yet (another rounding, the day's end) limits now and only lowers what is left", () => {
    const l = new AccountLedger();
    l.acquireCall(req('a'), T);
    l.callDone({ grantId: 'a', report: headers(30, T + 60_000), counted: true }, T + 5);
    l.acquireCall(req('b'), T + 10);
    l.callDone({ grantId: 'b', report: headers(20, T + 59_000), counted: true }, T + 20);
    l.acquireCall(req('c'), T + 30);
    l.callDone({ grantId: 'c', report: headers(25, T + 59_000), counted: true }, T + 40);
    let granted = 0;
    for (let i = 0; i < 40; i++) if (l.acquireCall(req(`x${i}`), T + 50).granted) granted += 1;
    expect(granted).toBe(20);
    // The day's reset, before the minute's, once the day has no calls left: it limits now.
    l.callDone({ grantId: 'x0', report: headers(0, T + 5_000), counted: true }, T + 100);
    expect(l.acquireCall(req('y'), T + 200)).toMatchObject({
      granted: false,
      retryAt: T + 5_000 + RESET_MARGIN_MS,
    });
  });

  test('without headers, calls are spread evenly at 95 % of the limit', () => {
    const l = new AccountLedger();
    l.acquireCall(req('a'), T);
    l.callDone({ grantId: 'a', report: { limit: null, remaining: null, resetAt: null }, counted: true }, T);
    expect(l.acquireCall(req('b'), T)).toEqual({ granted: true });
    const d = l.acquireCall(req('c'), T);
    expect(d.granted).toBe(false);
    expect(d.granted === false && d.retryAt - T).toBeCloseTo(60_000 / 57, 0);
  });

  test('a call let through whose worker died stops counting in flight after its time to live', () => {
    const l = new AccountLedger();
    l.acquireCall(req('lost'), T);
    expect(l.acquireCall(req('next'), T + 1).granted).toBe(false);
    expect(l.acquireCall(req('next'), T + GRANT_TTL_MS + 1).granted).toBe(true);
  });

  test("the day: runs reserve their calls; one needing more than is left waits for the day's end", () => {
    const l = new AccountLedger();
    const perDay = 10;
    const day = (grantId: string, runId: string) =>
      l.acquireCall({ grantId, runId, perMinute: 60, perDay }, T);
    expect(l.reserveDayCalls({ runId: 'A', calls: 6, perDay, ttlMs: 3_600_000 }, T)).toEqual({
      granted: true,
    });
    const refused = l.reserveDayCalls({ runId: 'B', calls: 5, perDay, ttlMs: 3_600_000 }, T);
    expect(refused).toEqual({
      granted: false,
      retryAt: Date.parse('2026-11-26T00:00:00Z') + RESET_MARGIN_MS,
      left: 4,
    });
    // B's calls without a reservation may use only what A did not reserve.
    for (let i = 0; i < 4; i++) {
      expect(day(`b${i}`, 'B').granted).toBe(true);
      l.callDone({ grantId: `b${i}`, report: null, counted: true }, T);
    }
    expect(day('b4', 'B')).toMatchObject({ granted: false, dayLimit: true });
    for (let i = 0; i < 6; i++) {
      expect(day(`a${i}`, 'A').granted).toBe(true);
      l.callDone({ grantId: `a${i}`, report: null, counted: true }, T);
    }
    expect(day('a6', 'A')).toMatchObject({ granted: false, dayLimit: true });
    // The next day everything is free again.
    const tomorrow = Date.parse('2026-11-26T00:00:01Z');
    expect(l.reserveDayCalls({ runId: 'B', calls: 5, perDay, ttlMs: 3_600_000 }, tomorrow)).toEqual({
      granted: true,
    });
  });

  test("a refused call (429) gives its call of the day back; the service's day headers end the day early", () => {
    const l = new AccountLedger();
    l.acquireCall(req('a'), T);
    l.callDone(
      {
        grantId: 'a',
        report: { ...headers(0, T + 10_000), dayRemaining: 0, dayResetAt: T + 30_000 },
        counted: false,
      },
      T,
    );
    expect(l.dayLeft(5000, T)).toBe(0);
    expect(l.acquireCall(req('b'), T + 1)).toEqual({
      granted: false,
      retryAt: T + 30_000 + RESET_MARGIN_MS,
      dayLimit: true,
    });
    expect(l.dayLeft(5000, T + 30_000)).toBe(5000);
  });
});

describe('permits in blocks', () => {
  const limits = { perMinute: 60, perDay: 5000 };
  const ask = (l: AccountLedger, leaseId: string, want: number, now = T, extra: object = {}) =>
    l.acquirePermits(
      { leaseId, runId: 'run-a', want, leases: [], settlements: [], ...limits, ...extra },
      now,
    );
  const headers = (remaining: number, resetAt = T + 30_000) => ({ limit: 60, remaining, resetAt });
  /** A ledger that has seen one answer: 10 calls left in the window. */
  function withWindow(remaining = 10): AccountLedger {
    const l = new AccountLedger();
    expect(ask(l, 'first', 5)).toEqual({ granted: 1 }); // nothing known yet: one call at a time
    l.takeReport(
      {
        leases: [{ leaseId: 'first', done: 1, uncounted: 0, closed: true, reports: [headers(remaining)] }],
        settlements: [],
      },
      T,
    );
    return l;
  }

  test('a block grants what the window has room for beyond the permits held, once per lease id', () => {
    const l = withWindow(10);
    expect(ask(l, 'a', 6)).toEqual({ granted: 6 });
    expect(ask(l, 'a', 6)).toEqual({ granted: 6 }); // the same ask sent again
    expect(ask(l, 'b', 6)).toEqual({ granted: 4 }); // 10 left, 6 held
    expect(ask(l, 'c', 1)).toEqual({ granted: 0, retryAt: expect.any(Number), dayLimit: false });
    expect(l.state.calls.day.used).toBe(11);
  });

  test('a lease closed gives back its permits never used; a report sent twice counts once', () => {
    const l = withWindow(10);
    expect(ask(l, 'a', 8)).toEqual({ granted: 8 });
    const report = { leaseId: 'a', done: 3, uncounted: 1, closed: true, reports: [headers(7)] };
    l.takeReport({ leases: [report], settlements: [] }, T);
    l.takeReport({ leases: [report], settlements: [] }, T);
    // 1 + 8 granted; 5 never used and one 429 given back: 3 calls of the day.
    expect(l.state.calls.day.used).toBe(3);
    expect(l.state.calls.leases).toEqual({});
    // Nothing held now: the window's 7 left are all grantable.
    expect(ask(l, 'b', 20)).toEqual({ granted: 7 });
  });

  test('permits held count as in flight until reported, even past the window they came from', () => {
    const l = withWindow(10);
    expect(ask(l, 'a', 10)).toEqual({ granted: 10 });
    // The window ends: without a new answer the room is the limit less the 10 held, a quarter of
    // the window (15) a lease at most.
    const later = T + 31_000;
    const granted = ['b', 'c', 'd', 'e', 'f'].map((id) => ask(l, id, 60, later));
    expect(granted.map((d) => d.granted)).toEqual([15, 15, 15, 5, 0]);
    // A worker that died never reports: its leases stop counting after their expiry.
    expect(ask(l, 'g', 60, later + GRANT_TTL_MS)).toEqual({ granted: 15 });
  });

  test('a paid call asks with its reservation: busy or refused grants no permit, a settlement carried first frees it', () => {
    const l = withWindow(10);
    const credits = (id: string, n: number) => ({ id, jobId: 'a', credits: n, caps, ttlMs: 60_000 });
    expect(ask(l, 'p1', 1, T, { credits: credits('r1', 6) })).toEqual({ granted: 1 });
    expect(ask(l, 'p2', 1, T, { credits: credits('r2', 1) })).toEqual({
      granted: 0,
      credits: { granted: false, busy: true, retryAt: T + BUSY_RETRY_MS },
    });
    // The next ask carries r1's settlement: taken before r2's reservation.
    const settled = { settlements: [{ id: 'r1', jobId: 'a', credits: 6, remaining: 94 }] };
    expect(ask(l, 'p3', 1, T, { credits: credits('r2', 5), ...settled })).toMatchObject({
      granted: 0,
      credits: { granted: false, period: 'day' },
    });
    expect(ask(l, 'p4', 1, T, { credits: credits('r3', 4), ...settled })).toEqual({ granted: 1 });
    expect(l.spentIn('day', T)).toBe(6);
    expect(l.balanceAtReserve('r3')).toBe(94);
  });

  test("the day's calls bound a block, and the calls other runs reserved of it", () => {
    const l = new AccountLedger();
    const day = { perMinute: 60, perDay: 20 };
    expect(l.reserveDayCalls({ runId: 'run-b', calls: 15, perDay: 20, ttlMs: 60_000 }, T)).toEqual({
      granted: true,
    });
    expect(ask(l, 'a', 1, T, day)).toEqual({ granted: 1 });
    l.takeReport(
      {
        leases: [{ leaseId: 'a', done: 1, uncounted: 0, closed: true, reports: [headers(59)] }],
        settlements: [],
      },
      T,
    );
    expect(ask(l, 'b', 10, T, day)).toEqual({ granted: 4 }); // 20 - 1 used - 15 held by run-b
    expect(ask(l, 'c', 1, T, day)).toMatchObject({ granted: 0, dayLimit: true });
  });
});
