/**
 * A run's books alone (workflows/run-books.ts), without Temporal: the budget's reservations and
 * refusals, the reconciliation of a paid call whose answer was lost, the counts per operation,
 * the plan as paging streams learn their totals, partial reasons, daily-limit waits, and the
 * figures of the manifest and of the result. The engine's Temporal shell around them is proved
 * by the workflow tests and the replay of frozen histories.
 */
import { describe, expect, test } from 'vitest';
import { pageSizeOf } from '../../api/catalog.js';
import {
  MAX_PAID_ATTEMPTS,
  RunBooks,
  type PaidCallRef,
  type RunBooksInit,
} from '../../workflows/run-books.js';

const STARTED = Date.parse('2026-12-01T09:00:00.000Z');

function books(init: Partial<RunBooksInit> = {}): RunBooks {
  return new RunBooks({
    workflowId: 'market-report-x',
    runId: 'run-1',
    startedAt: new Date(STARTED).toISOString(),
    creditsBudget: 10,
    ...init,
  });
}

const BATCH: PaidCallRef = {
  operation: 'find_startups_for_fund',
  name: 'batch',
  what: 'find_startups_for_fund',
  cost: 3,
};
const BRIEF: PaidCallRef = {
  operation: 'find_customers',
  name: 'briefs/1',
  what: 'find_customers brief 1',
  cost: 3,
};
const LOST = 'socket hang up (the service may have charged for it)';

describe('the budget', () => {
  test('reserves a paid call, refuses one past the budget with the reason, and settles known charges', () => {
    const b = books({ creditsBudget: 5 });
    expect(b.reservePaid(3)).toBeNull();
    expect(b.budget.available).toBe(2);
    expect(b.reservePaid(3)).toBe('credit budget of 5 reached (0 spent, 3 reserved)');
    b.settlePaid('batch', 3, 3, 97);
    expect(b.budget.spent).toBe(3);
    expect(b.budget.balance).toBe(97);
    expect(b.paidCredits('batch')).toBe(3);
    expect(b.progressAt(STARTED).creditsSpent).toBe(3);
    // A call that failed known not charged frees its reservation and costs nothing.
    expect(b.reservePaid(1)).toBeNull();
    b.settlePaid('ask/1', 1, 0, null);
    expect(b.budget.spent).toBe(3);
    expect(b.budget.available).toBe(2);
    expect(b.paidCredits('ask/1')).toBe(0);
  });

  test("the account's balance refuses too, once it is known", () => {
    const b = books({ creditsBudget: 100 });
    b.budget.setBalance(2);
    expect(b.reservePaid(3)).toBe('account balance too low (2 credits left)');
    expect(b.reservePaid(1)).toBeNull();
    expect(b.budget.available).toBe(1);
  });
});

describe('a paid call whose outcome is unknown', () => {
  test('is settled from the balance before and after it, and asked again at its price', () => {
    const b = books({ creditsBudget: 10 });
    b.budget.setBalance(100);
    expect(b.reservePaid(3)).toBeNull();
    const paid = b.settleUnknownPaid(BATCH, 3, { from: 100, seen: 97 }, 1);
    expect(paid).toBe(3);
    expect(b.budget.spent).toBe(3);
    expect(b.budget.balance).toBe(97);
    expect(b.paidCredits('batch')).toBe(3);
    expect(b.askAgain(BATCH, 1, paid, LOST)).toBe(3);
    // The repeat is reserved: 3 spent, 3 reserved of 10.
    expect(b.budget.available).toBe(4);
    b.settlePaid('batch', 3, 3, 94);
    expect(b.paidCredits('batch')).toBe(6);
    expect(b.stats().creditsSpent).toBe(6);
    expect(b.stats().partial).toBe(false);
  });

  test('counts its whole reservation as paid when a balance cannot be read', () => {
    const b = books();
    b.budget.setBalance(50);
    expect(b.reservePaid(3)).toBeNull();
    expect(b.settleUnknownPaid(BATCH, 3, { from: 50, seen: null }, 1)).toBe(3);
    expect(b.budget.balance).toBe(47);
    expect(b.budget.spent).toBe(3);
  });

  test('a balance that did not move: not charged, asked again at the full price', () => {
    const b = books({ creditsBudget: 3 });
    expect(b.reservePaid(3)).toBeNull();
    const paid = b.settleUnknownPaid(BATCH, 3, { from: 40, seen: 40 }, 1);
    expect(paid).toBe(0);
    expect(b.paidCredits('batch')).toBe(0);
    expect(b.askAgain(BATCH, 1, paid, LOST)).toBe(3);
    expect(b.budget.available).toBe(0);
    // A balance that rose (credits bought meanwhile) is no charge either, never a negative one.
    expect(b.settleUnknownPaid(BATCH, 3, { from: 40, seen: 45 }, 1)).toBe(0);
    expect(b.budget.spent).toBe(0);
    expect(b.budget.balance).toBe(45);
  });

  test('a free repeat after a charge reserves nothing, even with the budget used up', () => {
    const b = books({ creditsBudget: 3 });
    expect(b.reservePaid(3)).toBeNull();
    const paid = b.settleUnknownPaid(BRIEF, 3, { from: 40, seen: 37 }, 1);
    expect(b.askAgain(BRIEF, 1, paid, LOST)).toBe(0);
    expect(b.stats().partial).toBe(false);
    expect(b.paidCredits('briefs/1')).toBe(3);
  });

  test('a charge proves the request was sent, even when its failure says none was', () => {
    const b = books();
    expect(b.reservePaid(3)).toBeNull();
    b.settleUnknownPaid(BATCH, 3, { from: 40, seen: 37 }, 0);
    expect(b.stats().attempts).toEqual({ find_startups_for_fund: { attempted: 1, succeeded: 0, failed: 1 } });
    // Uncharged, or a failure that says nothing: no request is added.
    expect(b.reservePaid(3)).toBeNull();
    b.settleUnknownPaid(BATCH, 3, { from: 37, seen: 37 }, 0);
    expect(b.reservePaid(3)).toBeNull();
    b.settleUnknownPaid(BATCH, 3, { from: 37, seen: 34 }, null);
    expect(b.stats().attempts!.find_startups_for_fund!.attempted).toBe(1);
  });

  test(`is not asked again after ${MAX_PAID_ATTEMPTS} attempts, however large the budget`, () => {
    const b = books({ creditsBudget: 100 });
    let balance = 1000;
    expect(b.reservePaid(3)).toBeNull();
    let reserved = 3;
    for (let attempt = 1; attempt <= MAX_PAID_ATTEMPTS; attempt += 1) {
      const paid = b.settleUnknownPaid(BATCH, reserved, { from: balance, seen: balance - 3 }, 1);
      balance -= 3;
      const again = b.askAgain(BATCH, attempt, paid, LOST);
      if (attempt < MAX_PAID_ATTEMPTS) expect(again).toBe(3);
      else expect(again).toBeNull();
      reserved = again ?? 0;
    }
    expect(MAX_PAID_ATTEMPTS).toBe(3);
    expect(b.stats().reasons).toEqual([
      `find_startups_for_fund: ${LOST}; the service charged 3 credits for an answer that was lost; not asked again after 3 attempts`,
    ]);
    expect(b.stats().creditsSpent).toBe(9);
    expect(b.paidCredits('batch')).toBe(9);
    // Nothing is left reserved.
    expect(b.budget.available).toBe(91);
  });

  test('is not asked again when the budget does not cover the repeat, and says why', () => {
    const b = books({ creditsBudget: 3 });
    expect(b.reservePaid(3)).toBeNull();
    const paid = b.settleUnknownPaid(BATCH, 3, { from: 40, seen: 37 }, 1);
    expect(b.askAgain(BATCH, 1, paid, LOST)).toBeNull();
    expect(b.stats().partial).toBe(true);
    expect(b.stats().reasons).toEqual([
      `find_startups_for_fund: ${LOST}; the service charged 3 credits for an answer that was lost; not asked again: credit budget of 3 reached (3 spent, 0 reserved)`,
    ]);
  });

  test('one credit lost, uncharged: the reason words each', () => {
    const ask: PaidCallRef = { operation: 'ask', name: 'answers/1', what: 'ask "why"', cost: 1 };
    const b = books({ creditsBudget: 1 });
    expect(b.reservePaid(1)).toBeNull();
    b.askAgain(ask, 1, b.settleUnknownPaid(ask, 1, { from: 10, seen: 9 }, 1), 'timed out');
    expect(b.stats().reasons.at(-1)).toBe(
      'ask "why": timed out; the service charged 1 credit for an answer that was lost; not asked again: credit budget of 1 reached (1 spent, 0 reserved)',
    );
    const c = books({ creditsBudget: 1 });
    expect(c.reservePaid(1)).toBeNull();
    c.askAgain(ask, MAX_PAID_ATTEMPTS, c.settleUnknownPaid(ask, 1, { from: 9, seen: 9 }, 1), 'timed out');
    expect(c.stats().reasons).toEqual([
      'ask "why": timed out; the service did not charge for it; not asked again after 3 attempts',
    ]);
  });
});

describe('counts', () => {
  test('calls and requests per operation', () => {
    const b = books();
    b.countCall('country_overview');
    b.countCall('get_investor', 2);
    b.countAttempts('country_overview', { sent: 3, failed: 2 });
    b.countAttempts('get_investor', { sent: 2, failed: 0 });
    const s = b.stats();
    expect(s.callsMade).toBe(3);
    expect(s.callsByOperation).toEqual({ country_overview: 1, get_investor: 2 });
    expect(s.attempts).toEqual({
      country_overview: { attempted: 3, succeeded: 1, failed: 2 },
      get_investor: { attempted: 2, succeeded: 2, failed: 0 },
    });
    // The stats are a copy: the books go on counting.
    b.countCall('get_investor');
    expect(s.callsByOperation.get_investor).toBe(2);
    expect(b.stats().callsByOperation.get_investor).toBe(3);
  });

  test('pages and records from the paging children, and the plan as streams learn their totals', () => {
    const b = books({ plannedCalls: 20 });
    expect(b.callsPlanned).toBe(20);
    const size = pageSizeOf('search_investors');
    // Two streams planned at their caps: 5 and 3 pages.
    b.addStream({ label: 'fr/investors', operation: 'search_investors', cap: 5 * size });
    b.addStream({
      label: 'fr/startups',
      operation: 'search_startups',
      cap: 3 * pageSizeOf('search_startups'),
    });
    b.pageDone({
      label: 'fr/investors',
      operation: 'search_investors',
      records: size,
      total: 120,
      calls: 1,
      plannedPages: 2,
    });
    // The first stream takes 2 pages, not 5: 3 calls fewer.
    expect(b.callsPlanned).toBe(17);
    b.pageDone({
      label: 'fr/investors',
      records: 20,
      total: 120,
      calls: 1,
      plannedPages: 2,
      attempts: { sent: 2, failed: 1 },
    });
    b.pageDone({
      label: 'fr/startups',
      operation: 'search_startups',
      records: 7,
      total: 7,
      calls: 1,
      plannedPages: 1,
    });
    expect(b.callsPlanned).toBe(15);
    const s = b.stats();
    expect(s.pages).toBe(3);
    expect(s.records).toBe(size + 27);
    expect(s.callsMade).toBe(3);
    expect(s.callsByOperation).toEqual({ search_investors: 2, search_startups: 1 });
    // A page without attempts counts one request per call.
    expect(s.attempts).toEqual({
      search_investors: { attempted: 3, succeeded: 2, failed: 1 },
      search_startups: { attempted: 1, succeeded: 1, failed: 0 },
    });
    // The job's own plan changes the bound; the streams' known totals still count.
    b.planCalls(10);
    expect(b.callsPlanned).toBe(5);
  });

  test('never plans fewer calls than were made; done plans none more', () => {
    const b = books({ plannedCalls: 1 });
    b.countCall('get_startup', 4);
    b.planCalls(2);
    expect(b.callsPlanned).toBe(4);
    b.planCalls(9);
    expect(b.callsPlanned).toBe(9);
    b.done();
    expect(b.callsPlanned).toBe(4);
    expect(b.progressAt(STARTED).phase).toBe('done');
  });
});

describe('progress', () => {
  test('phases, and the ETA at the pace so far', () => {
    const b = books({ plannedCalls: 10 });
    expect(b.progressAt(STARTED + 1000).phase).toBe('starting');
    b.phase('paging');
    b.countCall('get_investor', 2);
    // 2 calls in 10 s: 8 left take 40 s.
    const p = b.progressAt(STARTED + 10_000);
    expect(p).toMatchObject({ phase: 'paging', callsMade: 2, callsPlanned: 10, etaSeconds: 40 });
  });

  test('partial reasons are kept once each, in order', () => {
    const b = books();
    expect(b.stats().partial).toBe(false);
    b.partial('overview France: timed out');
    b.partial('get_investor i-1: not found');
    b.partial('overview France: timed out');
    expect(b.stats().partial).toBe(true);
    expect(b.stats().reasons).toEqual(['overview France: timed out', 'get_investor i-1: not found']);
    expect(b.progressAt(STARTED).reasons).toEqual(b.stats().reasons);
  });

  test("daily-limit waits: the latest of the run's own and its children's, until each ends", () => {
    const b = books();
    b.setWait('', '2026-12-02T00:00:00.000Z');
    b.setWait('fr/investors', '2026-12-02T00:05:00.000Z');
    b.setWait('de/investors', '2026-12-01T23:59:00.000Z');
    expect(b.progressAt(STARTED).waitingUntil).toBe('2026-12-02T00:05:00.000Z');
    b.setWait('fr/investors', null);
    expect(b.progressAt(STARTED).waitingUntil).toBe('2026-12-02T00:00:00.000Z');
    b.setWait('', null);
    b.setWait('de/investors', null);
    expect(b.progressAt(STARTED).waitingUntil).toBeNull();
  });
});

describe('stats and the result', () => {
  test("the manifest's figures, finishedAt from the stopped clock", () => {
    const b = books({ creditsBudget: 10 });
    b.budget.setBalance(50);
    b.countCall('my_account');
    b.countAttempts('my_account', { sent: 1, failed: 0 });
    expect(b.reservePaid(1)).toBeNull();
    b.settlePaid('answers/1', 1, 1, 49);
    b.countCall('ask');
    b.partial('ask "b": failed');
    expect(b.stats()).not.toHaveProperty('finishedAt');
    const stopped = b.stopClock(STARTED + 60_000);
    expect(stopped).toBe('2026-12-01T09:01:00.000Z');
    // The clock stops once.
    expect(b.stopClock(STARTED + 90_000)).toBe(stopped);
    expect(b.finishedAt(STARTED + 90_000)).toBe(stopped);
    expect(b.stats()).toEqual({
      workflowId: 'market-report-x',
      runId: 'run-1',
      startedAt: '2026-12-01T09:00:00.000Z',
      callsByOperation: { my_account: 1, ask: 1 },
      callsMade: 2,
      attempts: { my_account: { attempted: 1, succeeded: 1, failed: 0 } },
      pages: 0,
      records: 0,
      creditsSpent: 1,
      creditsBudget: 10,
      accountBalance: 49,
      partial: true,
      reasons: ['ask "b": failed'],
      finishedAt: '2026-12-01T09:01:00.000Z',
    });
    expect(b.figures()).toEqual({
      partial: true,
      reasons: ['ask "b": failed'],
      callsMade: 2,
      pages: 0,
      records: 0,
      creditsSpent: 1,
      creditsBudget: 10,
    });
  });

  test('without a stopped clock the run time ends when asked', () => {
    const b = books();
    expect(b.finishedAt(STARTED + 5000)).toBe('2026-12-01T09:00:05.000Z');
    expect(b.stats().finishedAt).toBeUndefined();
  });
});
