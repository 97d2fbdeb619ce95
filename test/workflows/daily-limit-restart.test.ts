/**
 * A run waiting for the daily limit waits durably: its paging child sleeps on a workflow timer
 * until the reset, the run's progress says "waiting for the daily limit until <time>" while it
 * pages, and the run goes on after its workers are stopped and new ones started during the wait.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { temporal } from '@temporalio/proto';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import { startWorkers } from '../../runtime/workers.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { describePhase, progressQuery, type RunProgress } from '../../workflows/index.js';
import { runHistories } from '../helpers/histories.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  // 6 calls a "day" of 20 seconds: the run needs 8, so it waits for the next day while paging.
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000, rateLimitPerDay: 6, dayWindowMs: 20_000 });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: 'vis_live_sandbox_vc',
    name: 'daily-restart',
    tuning: { dailyLimitThresholdMs: 2000 },
  });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

test('a run waiting for the daily limit keeps waiting across a worker restart and goes on after the reset', async () => {
  const job = parseSmokeJob({
    id: 'daily-restart',
    title: 'Daily limit across a restart',
    country: 'Germany',
    records: 600,
    destination: `${h.dir}/reports`,
  });
  const handle = await startJobRun(h.client, h.settings, job);
  let waiting: RunProgress | null = null;
  for (let i = 0; i < 400 && !waiting; i++) {
    const p = await handle.query(progressQuery).catch(() => null);
    if (p?.waitingUntil) waiting = p;
    else await new Promise((r) => setTimeout(r, 50));
  }
  expect(waiting).not.toBeNull();
  expect(waiting!.phase).toBe('paging');
  expect(describePhase(waiting!)).toBe(`waiting for the daily limit until ${waiting!.waitingUntil}`);
  const resetAt = Date.parse(waiting!.waitingUntil!);
  expect(resetAt).toBeGreaterThan(Date.now() + 5_000);

  // Every worker goes away during the wait; new ones come before the reset.
  await h.workers.shutdown();
  await new Promise((r) => setTimeout(r, 1000));
  expect((await handle.describe()).status.name).toBe('RUNNING');
  const again = await startWorkers(h.settings, { dailyLimitThresholdMs: 2000 });
  const running = again.run();
  try {
    const result = await followRun(handle, QUIET);
    expect(result.partial).toBe(false);
    // It went on only after the reset.
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
      status: string;
      finishedAt: string;
      calls: { byOperation: Record<string, number> };
    };
    expect(manifest.status).toBe('complete');
    expect(Date.parse(manifest.finishedAt)).toBeGreaterThanOrEqual(resetAt);
    expect(manifest.calls.byOperation).toEqual({ my_account: 1, search_startups: 6, get_startup: 1 });
    // The wait was a durable timer in the paging child's history.
    const E = temporal.api.enums.v1.EventType;
    const histories = await runHistories(h.client, handle.workflowId);
    const timers = histories
      .filter((x) => x.workflowId.includes('/paging/'))
      .flatMap((x) => x.history.events ?? [])
      .filter((e) => e.eventType === E.EVENT_TYPE_TIMER_STARTED);
    expect(timers.length).toBeGreaterThan(0);
  } finally {
    await again.shutdown();
    await running;
  }
}, 180_000);
