/**
 * The account workflow's grants and waits on the time-skipping server, driven through its
 * updates and signals as the workers' API activities drive it: the minute window the service's
 * headers report is used as fast as it allows and a used-up one is refused until its reset;
 * the service's day refuses with `dayLimit` until it ends; a run needing more of the day than is
 * left is told to come back the next day. The windows are the real ones (a minute, three hours):
 * the server's clock skips them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import {
  ACCOUNT_WORKFLOW_TYPE,
  accountViewQuery,
  acquireCallUpdate,
  callDoneSignal,
  releaseDayCallsSignal,
  reserveDayCallsUpdate,
} from '../../../shared/account.js';
import { accountWorkflow } from '../../../workflows/account.js';
import { type CallDecision, type CallReport } from '../../../shared/account.js';
import { RESET_MARGIN_MS } from '../../../workflows/account-ledger.js';
import { skippingWorker, startTimeSkipping } from '../../helpers/time-skipping.js';

/** The time-skipping test server's start (and the sandbox's), with margin for a loaded machine. */
const SERVER_START_MS = 120_000;
const QUEUE = 'accounts';
const PER_MINUTE = 3;
const PER_DAY = 6;
const MINUTE = 60_000;
const HOUR = 3_600_000;

describe('the account workflow on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  beforeAll(async () => {
    env = await startTimeSkipping();
    worker = await skippingWorker(env, { taskQueue: QUEUE });
    running = worker.run();
  }, SERVER_START_MS);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  it('is started by the type name the link uses (activities never import workflow code)', () => {
    expect(accountWorkflow.name).toBe(ACCOUNT_WORKFLOW_TYPE);
  });

  const start = (id: string) =>
    env.client.workflow.start(accountWorkflow, { taskQueue: QUEUE, workflowId: id, args: [{}] });
  const acquire = (h: WorkflowHandle, grantId: string, runId = 'run-a'): Promise<CallDecision> =>
    h.executeUpdate(acquireCallUpdate, {
      args: [{ grantId, runId, perMinute: PER_MINUTE, perDay: PER_DAY }],
    });
  const done = (h: WorkflowHandle, grantId: string, report: CallReport) =>
    h.signal(callDoneSignal, { grantId, report, counted: true });
  /** Moves the server's clock past `at` (ms): a timer-free skip, as a run's durable wait does. */
  const skipTo = async (at: number) => {
    const now = await env.currentTimeMs();
    if (at > now) await env.sleep(at - now + 1);
  };

  it('uses the window as fast as its headers allow, refuses a used-up one until its reset, and the day until it ends', async () => {
    const h = await start(`acct-window-${randomUUID()}`);
    const t0 = await env.currentTimeMs();
    const dayEnd = t0 + 3 * HOUR;
    const minuteEnd = t0 + MINUTE;
    const report = (remaining: number, resetAt: number, dayRemaining: number): CallReport => ({
      limit: PER_MINUTE,
      remaining,
      resetAt,
      dayRemaining,
      dayResetAt: dayEnd,
    });

    // Nothing known of the window yet: one call at a time.
    expect(await acquire(h, 'g1')).toEqual({ granted: true });
    const second = await acquire(h, 'g2');
    expect(second).toMatchObject({ granted: false, dayLimit: false });
    expect((second as { retryAt: number }).retryAt).toBeLessThan(minuteEnd);
    // The answer tells the window: two calls left of it, both go at once.
    await done(h, 'g1', report(2, minuteEnd, PER_DAY - 1));
    expect(await acquire(h, 'g2')).toEqual({ granted: true });
    expect(await acquire(h, 'g3')).toEqual({ granted: true });
    // The window's room is taken by the calls in flight: ask again shortly, not at the reset.
    const inFlight = await acquire(h, 'g4');
    expect(inFlight).toMatchObject({ granted: false, dayLimit: false });
    expect((inFlight as { retryAt: number }).retryAt).toBeLessThan(minuteEnd);
    await done(h, 'g2', report(1, minuteEnd, PER_DAY - 2));
    await done(h, 'g3', report(0, minuteEnd, PER_DAY - 3));
    // Used up: no call until the window's reset.
    expect(await acquire(h, 'g4')).toEqual({
      granted: false,
      retryAt: minuteEnd + RESET_MARGIN_MS,
      dayLimit: false,
    });
    await skipTo(minuteEnd - 1_000);
    expect(await acquire(h, 'g4')).toMatchObject({ granted: false, retryAt: minuteEnd + RESET_MARGIN_MS });
    await skipTo(minuteEnd + RESET_MARGIN_MS);
    expect(await acquire(h, 'g4')).toEqual({ granted: true });
    const next = (await env.currentTimeMs()) + MINUTE;
    await done(h, 'g4', report(2, next, PER_DAY - 4));
    expect(await acquire(h, 'g5')).toEqual({ granted: true });
    expect(await acquire(h, 'g6')).toEqual({ granted: true });
    // The day's six calls are granted: the seventh waits for the service's day to end, however
    // much of the minute's window is left.
    const day = await acquire(h, 'g7');
    expect(day).toEqual({ granted: false, retryAt: dayEnd + RESET_MARGIN_MS, dayLimit: true });
    await done(h, 'g5', report(1, next, 1));
    await done(h, 'g6', report(0, next, 0));
    await skipTo(next + RESET_MARGIN_MS);
    expect(await acquire(h, 'g7')).toMatchObject({ granted: false, dayLimit: true });
    const view = await h.query(accountViewQuery);
    expect(view.calls).toMatchObject({ dayUsed: PER_DAY, dayEndsAt: dayEnd, inFlight: 0 });
    await skipTo(dayEnd + RESET_MARGIN_MS);
    expect(await acquire(h, 'g7')).toEqual({ granted: true });
    expect((await h.query(accountViewQuery)).calls.dayUsed).toBe(1);
    await h.terminate('test over');
  });

  it("tells a run needing more of the day than is left to come back when the day ends, and holds a run's calls from the others", async () => {
    const h = await start(`acct-day-${randomUUID()}`);
    const t0 = await env.currentTimeMs();
    const dayEnd = t0 + 3 * HOUR;
    const reserve = (runId: string, calls: number) =>
      h.executeUpdate(reserveDayCallsUpdate, {
        args: [{ runId, calls, perDay: PER_DAY, ttlMs: 6 * HOUR }],
      });
    // A first call tells the service's day (its end and what is left).
    expect(await acquire(h, 'd1', 'run-a')).toEqual({ granted: true });
    await done(h, 'd1', {
      limit: 100,
      remaining: 99,
      resetAt: t0 + MINUTE,
      dayRemaining: PER_DAY - 1,
      dayResetAt: dayEnd,
    });
    // Run A reserves 3 of the 5 left; run B needs 3 and gets told to come back at the day's end.
    expect(await reserve('run-a', 3)).toEqual({ granted: true });
    expect(await reserve('run-b', 3)).toEqual({ granted: false, retryAt: dayEnd + RESET_MARGIN_MS, left: 2 });
    // B's calls meanwhile: the two not held by A go, the third would take one of A's.
    expect(await acquire(h, 'b1', 'run-b')).toEqual({ granted: true });
    expect(await acquire(h, 'b2', 'run-b')).toEqual({ granted: true });
    expect(await acquire(h, 'b3', 'run-b')).toMatchObject({ granted: false, dayLimit: true });
    // A's own calls still go: they are its reservation's.
    expect(await acquire(h, 'a1', 'run-a')).toEqual({ granted: true });
    // A run that ended frees the rest of its reservation.
    await h.signal(releaseDayCallsSignal, { runId: 'run-a' });
    expect(await acquire(h, 'b3', 'run-b')).toEqual({ granted: true });
    expect(await reserve('run-b', 3)).toMatchObject({ granted: false, left: 1 });
    // The next day: the reservation is granted.
    await skipTo(dayEnd + RESET_MARGIN_MS);
    expect(await reserve('run-b', 3)).toEqual({ granted: true });
    expect(await reserve('run-c', 4)).toEqual({ granted: false, retryAt: expect.any(Number), left: 3 });
    await h.terminate('test over');
  });
});
