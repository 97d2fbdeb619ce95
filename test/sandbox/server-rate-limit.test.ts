/**
 * Per-key rate limits over real HTTP, with shortened windows: headers on every response,
 * countdown, 429 with a reset, recovery, the daily limit, what counts and what does not.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter, callsPerWindow, nextUtcMidnight } from '../../sandbox/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { KEYS, callSandbox, startTestSandbox } from '../helpers/sandbox.js';

const MINUTE_MS = 1500;
const DAY_MS = 3000;

function header(r: { headers: Headers }, name: string): number {
  const value = r.headers.get(name);
  expect(value, name).toMatch(/^\d+$/);
  return Number(value);
}

describe('per-minute limit', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({
      rateLimitPerMinute: 3,
      rateLimitPerDay: 1000,
      minuteWindowMs: MINUTE_MS,
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('counts down, refuses with 429 and a reset, then recovers after the window', async () => {
    // Unauthenticated and unknown-operation calls carry the headers but do not count.
    const anonymous = await callSandbox(sandbox, 'my_account', {});
    expect(anonymous.status).toBe(401);
    expect(header(anonymous, 'x-ratelimit-remaining')).toBe(3);
    const missing = await callSandbox(sandbox, 'nope', { key: KEYS.vc });
    expect(missing.status).toBe(404);
    expect(header(missing, 'x-ratelimit-remaining')).toBe(3);

    const started = Date.now();
    const remaining: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const r = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
      expect(r.status).toBe(200);
      expect(header(r, 'x-ratelimit-limit')).toBe(3);
      remaining.push(header(r, 'x-ratelimit-remaining'));
      const reset = header(r, 'x-ratelimit-reset');
      expect(reset * 1000).toBeGreaterThanOrEqual(started);
      expect(reset * 1000).toBeLessThanOrEqual(started + MINUTE_MS + 1000 + 200);
    }
    expect(remaining).toEqual([2, 1, 0]);

    const refused = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('rate_limited');
    expect(refused.body.error?.message).toMatch(
      /rate limit exceeded \(3 calls per minute per key\); retry after \d{4}-\d\d-\d\dT/,
    );
    expect(header(refused, 'x-ratelimit-remaining')).toBe(0);
    const reset = header(refused, 'x-ratelimit-reset');
    expect(header(refused, 'retry-after')).toBeGreaterThanOrEqual(1);
    expect(refused.body.credits).toEqual({
      charged: 0,
      remaining: sandbox.state.accounts.get('acct_vc')?.credits,
    });

    // Another key has its own window.
    const other = await callSandbox(sandbox, 'my_account', { key: KEYS.startup });
    expect(other.status).toBe(200);
    expect(header(other, 'x-ratelimit-remaining')).toBe(2);

    // Wait until the announced reset; refused calls did not count, so the window is full again.
    // The window's reset is a time, not an event: wait for the time the sandbox announced.
    await sleep(Math.max(0, reset * 1000 - Date.now()) + 50);
    const again = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
    expect(again.status).toBe(200);
    expect(header(again, 'x-ratelimit-remaining')).toBe(2);
  });

  it('counts calls refused after authentication (400, 403) and carries headers on them', async () => {
    const bad = await callSandbox(sandbox, 'search_investors', { key: KEYS.readonly, params: { limit: 0 } });
    expect(bad.status).toBe(400);
    expect(header(bad, 'x-ratelimit-remaining')).toBe(2);
    const scope = await callSandbox(sandbox, 'ask', { key: KEYS.readonly, params: { query: 'abc' } });
    expect(scope.status).toBe(403);
    expect(header(scope, 'x-ratelimit-remaining')).toBe(1);
  });
});

describe('per-day limit', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({
      rateLimitPerMinute: 100,
      rateLimitPerDay: 4,
      minuteWindowMs: 60_000,
      dayWindowMs: DAY_MS,
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('refuses after the daily count with the day reset, then recovers', async () => {
    const days: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const r = await callSandbox(sandbox, 'my_account', { key: KEYS.org });
      expect(r.status).toBe(200);
      expect(header(r, 'x-ratelimit-limit-day')).toBe(4);
      days.push(header(r, 'x-ratelimit-remaining-day'));
    }
    expect(days).toEqual([3, 2, 1, 0]);
    const refused = await callSandbox(sandbox, 'my_account', { key: KEYS.org });
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toMatch(/4 calls per day/);
    expect(header(refused, 'x-ratelimit-remaining')).toBe(0);
    const reset = header(refused, 'x-ratelimit-reset');
    expect(reset).toBe(header(refused, 'x-ratelimit-reset-day'));
    // The window's reset is a time, not an event: wait for the time the sandbox announced.
    await sleep(Math.max(0, reset * 1000 - Date.now()) + 50);
    const again = await callSandbox(sandbox, 'my_account', { key: KEYS.org });
    expect(again.status).toBe(200);
    expect(header(again, 'x-ratelimit-remaining-day')).toBe(3);
  });
});

describe('callsPerWindow', () => {
  it("counts a request log's calls per window as the limiter does: 429s neither count nor open a window", () => {
    const log = [
      { at: 0, status: 200 },
      { at: 400, status: 200 },
      { at: 999, status: 429 },
      { at: 1000, status: 429 },
      { at: 1200, status: 402 },
      { at: 2100, status: 200 },
      { at: 3200, status: 200 },
    ];
    expect(callsPerWindow(log, 1000)).toEqual([2, 2, 1]);
    expect(callsPerWindow([], 1000)).toEqual([]);
  });
});

describe('RateLimiter', () => {
  it('ends the default day window at the next UTC midnight', () => {
    const limiter = new RateLimiter({ perMinute: 60, perDay: 5000, minuteWindowMs: 60_000 });
    const now = Date.UTC(2026, 10, 20, 23, 59, 30);
    const r = limiter.consume('k', now);
    expect(r.snapshot.resetDayMs).toBe(Date.UTC(2026, 10, 21));
    expect(nextUtcMidnight(Date.UTC(2026, 11, 31, 12))).toBe(Date.UTC(2027, 0, 1));
    expect(r.snapshot).toMatchObject({
      limit: 60,
      remaining: 59,
      limitDay: 5000,
      remainingDay: 4999,
      resetMs: now + 60_000,
    });
  });

  it('does not count refused calls', () => {
    const limiter = new RateLimiter({ perMinute: 1, perDay: 10, minuteWindowMs: 1000 });
    expect(limiter.consume('k', 0).allowed).toBe(true);
    expect(limiter.consume('k', 10).allowed).toBe(false);
    expect(limiter.consume('k', 20).allowed).toBe(false);
    expect(limiter.peek('k', 30).remainingDay).toBe(9);
    expect(limiter.consume('k', 1000).allowed).toBe(true);
  });
});
