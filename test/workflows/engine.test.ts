/**
 * The engine's building blocks alone, without a server: budget arithmetic, prices and paging
 * plans from api/'s catalog, progress and ETA, and how failures are classified (once, from the
 * client's error classes).
 */
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { describe, expect, test } from 'vitest';
import { toActivityFailure } from '../../activities/api.js';
import { DAILY_LIMIT_FAILURE, type DailyLimitDetails } from '../../shared/types.js';
import { CATALOG, creditsOf, pageSizeOf } from '../../api/catalog.js';
import {
  InsufficientCreditsError,
  InvalidInputError,
  MalformedResponseError,
  ParamValidationError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../../api/errors.js';
import { OPERATIONS, OPERATION_NAMES } from '../../api/operations.js';
import { CreditBudget } from '../../workflows/budget.js';
import { failureMessage, failureType, stopsRun } from '../../workflows/calls.js';
import { maxPagesOf } from '../../workflows/engine.js';
import { describePhase, estimateEta, initialProgress } from '../../workflows/progress.js';

describe('credit budget', () => {
  test('reserves before a call and settles what was charged; never past the budget', () => {
    const b = new CreditBudget(5);
    expect(b.reserve(3)).toBe(true);
    expect(b.available).toBe(2);
    expect(b.refusal(3)).toMatch(/credit budget of 5 reached \(0 spent, 3 reserved\)/);
    expect(b.reserve(3)).toBe(false);
    b.settle(3, 3, null);
    expect(b.spent).toBe(3);
    expect(b.available).toBe(2);
    // A failed call releases its reservation and spends nothing.
    expect(b.reserve(2)).toBe(true);
    b.settle(2, 0, null);
    expect(b.spent).toBe(3);
    expect(b.available).toBe(2);
  });

  test("the account's balance bounds it too, and the service's figure wins", () => {
    const b = new CreditBudget(100);
    b.setBalance(4);
    expect(b.reserve(3)).toBe(true);
    expect(b.refusal(3)).toMatch(/account balance too low \(4 credits left\)/);
    b.settle(3, 3, 1);
    expect(b.balance).toBe(1);
    expect(b.available).toBe(1);
    b.setBalance(null);
    expect(b.balance).toBe(1);
    expect(new CreditBudget(0).refusal(0)).toBeNull();
  });

  test('answers settled out of order keep the latest balance, the lowest the service reported', () => {
    const b = new CreditBudget(10);
    b.setBalance(100);
    expect(b.reserve(1) && b.reserve(1)).toBe(true);
    // The service charged A (99 left), then B (98 left); B's answer is settled first.
    b.settle(1, 1, 98);
    b.settle(1, 1, 99);
    expect(b.balance).toBe(98);
    expect(b.spent).toBe(2);
    // Without a reported balance, the charge is taken off the last one known.
    expect(b.reserve(1)).toBe(true);
    b.settle(1, 1, null);
    expect(b.balance).toBe(97);
  });
});

describe('prices and pages from the catalog', () => {
  test("the catalog is the spec's summary table and names every operation", () => {
    expect(Object.keys(CATALOG).sort()).toEqual([...OPERATION_NAMES].sort());
    expect(creditsOf('ask')).toBe(1);
    for (const op of [
      'find_investors',
      'analyze_deck',
      'find_startups_for_fund',
      'find_customers',
    ] as const) {
      expect(creditsOf(op)).toBe(3);
    }
    for (const op of OPERATION_NAMES) expect(OPERATIONS[op].credits).toBe(CATALOG[op].credits);
    expect(OPERATION_NAMES.filter((n) => CATALOG[n].credits === 0)).toHaveLength(7);
  });

  test('a paged operation pages at its largest limit; the plan bounds the pages by the cap', () => {
    expect(pageSizeOf('search_investors')).toBe(100);
    expect(pageSizeOf('search_startups')).toBe(100);
    expect(maxPagesOf({ operation: 'search_startups', cap: 1 })).toBe(1);
    expect(maxPagesOf({ operation: 'search_startups', cap: 100 })).toBe(1);
    expect(maxPagesOf({ operation: 'search_investors', cap: 250 })).toBe(3);
    // The params schema's bound is the catalog's.
    expect(OPERATIONS.search_startups.params.safeParse({ limit: 100 }).success).toBe(true);
    expect(OPERATIONS.search_startups.params.safeParse({ limit: 101 }).success).toBe(false);
    expect(OPERATIONS.find_startups_for_fund.params.safeParse({ limit: 31 }).success).toBe(false);
  });
});

describe('progress', () => {
  test('ETA at the observed pace, none before the first call', () => {
    const p = { ...initialProgress(10, '2026-11-23T10:00:00.000Z'), callsPlanned: 40 };
    expect(estimateEta(p, Date.parse('2026-11-23T10:00:10Z'))).toBeNull();
    p.callsMade = 10;
    expect(estimateEta(p, Date.parse('2026-11-23T10:00:10Z'))).toBe(30);
    p.callsMade = 40;
    expect(estimateEta(p, Date.parse('2026-11-23T10:01:00Z'))).toBe(0);
  });

  test('a new run starts with nothing done; a daily-limit wait shows instead of the phase', () => {
    const p = initialProgress(7, '2026-11-23T10:00:00.000Z');
    expect(p).toMatchObject({
      phase: 'starting',
      callsMade: 0,
      creditsBudget: 7,
      partial: false,
      reasons: [],
    });
    expect(describePhase({ phase: 'paging', waitingUntil: null })).toBe('paging');
    expect(describePhase({ phase: 'paging', waitingUntil: '2026-11-24T00:00:00Z' })).toBe(
      'waiting for the daily limit until 2026-11-24T00:00:00Z',
    );
  });
});

describe('failure classification', () => {
  const now = new Date('2026-11-23T10:00:00Z');
  const classify = (err: unknown) => toActivityFailure(err, 'search_startups', now, 120_000);

  test("a failure is retryable exactly when the client's error class says so; its type is the code", () => {
    for (const [err, type, retryable] of [
      [new InvalidInputError('bad'), 'invalid_input', false],
      [new UnauthorizedError('no key'), 'unauthorized', false],
      [new InsufficientCreditsError('broke'), 'insufficient_credits', false],
      [new MalformedResponseError('not json', '<html>'), 'malformed_response', false],
      [
        new ParamValidationError([{ field: 'limit', message: 'limit must be at most 100' }]),
        'invalid_params',
        false,
      ],
      [new ServiceUnavailableError('status', '503'), 'service_unavailable', true],
    ] as const) {
      const f = classify(err);
      expect(f.type).toBe(type);
      expect(f.nonRetryable).toBe(!retryable);
      expect(f.message).toBe(err.message);
    }
    const odd = classify(new Error('disk full'));
    expect(odd.type).toBe('unexpected_error');
    expect(odd.nonRetryable).toBe(true);
  });

  test('a 429 retries after its reset; a reset past the threshold is the daily limit', () => {
    const soon = classify(
      new RateLimitedError('slow down', {
        rateLimit: { limit: 60, remaining: 0, resetAt: new Date(now.getTime() + 5_000) },
      }),
    );
    expect(soon.nonRetryable).toBe(false);
    expect(soon.type).toBe('rate_limited');
    expect(Number(soon.nextRetryDelay)).toBeGreaterThanOrEqual(5_000);
    const tomorrow = new Date(now.getTime() + 14 * 3_600_000);
    const daily = classify(
      new RateLimitedError('daily', { rateLimit: { limit: 5000, remaining: 0, resetAt: tomorrow } }),
    );
    expect(daily.type).toBe(DAILY_LIMIT_FAILURE);
    expect(daily.nonRetryable).toBe(true);
    expect(daily.details?.[0] as DailyLimitDetails).toEqual({
      resetAt: tomorrow.toISOString(),
      operation: 'search_startups',
    });
  });

  test('a refused key or parameters the client refused stop the run; the rest make it partial', () => {
    const wrapped = (type: string) =>
      new ActivityFailure(
        'activity failed',
        'callApi',
        '1',
        RetryState.NON_RETRYABLE_FAILURE,
        'worker',
        ApplicationFailure.create({ message: `${type} happened`, type, nonRetryable: true }),
      );
    expect(stopsRun(wrapped('unauthorized'))).toBe(true);
    expect(stopsRun(wrapped('invalid_params'))).toBe(true);
    for (const type of ['invalid_input', 'insufficient_credits', 'service_unavailable', 'not_found']) {
      expect(stopsRun(wrapped(type))).toBe(false);
    }
    expect(failureType(wrapped('not_found'))).toBe('not_found');
    expect(failureMessage(wrapped('not_found'))).toBe('not_found happened');
    expect(stopsRun(new Error('plain'))).toBe(false);
  });
});
