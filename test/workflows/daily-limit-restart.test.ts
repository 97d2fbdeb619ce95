/**
 * The daily limit end to end, at a scaled day: the sandbox's own day (6 calls, 10 seconds) runs
 * out while a run pages, and the run waits durably: its paging child sleeps on a workflow timer
 * until the reset, the run's progress says "waiting for the daily limit until <time>" while it
 * pages, and the run goes on after every worker is stopped and new ones are started during the
 * wait. The witness is the sandbox's request log: the service answered no 429, and no call
 * reached it between the day's end and the reset. The decisions themselves (a refused page or
 * call asked again after the reset, the wait in the progress) are proven on the time-skipping
 * server: test/workflows/skipping/daily-limit.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { temporal } from '@temporalio/proto';
import { loadSettings, type Settings } from '../../config/settings.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import { startWorkers, type RunningWorkers } from '../../runtime/workers.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { describePhase, progressQuery, type RunProgress } from '../../workflows/index.js';
import { runHistories } from '../helpers/histories.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { captureRuntimeLogs, QUIET } from '../helpers/runner.js';

/**
 * The sandbox's day: long enough for the run's first six calls, the stop of every worker and the
 * start of new ones (a few seconds on a loaded machine) before it ends.
 */
const DAY_MS = 10_000;
const DAY_CALLS = 6;
/** A day of 10 s, the workers' stop and start, and the run's end. */
const TEST_TIMEOUT_MS = 120_000;
const TUNING = { dailyLimitThresholdMs: 2000 };

let sandbox: RunningSandbox;
let settings: Settings;
let client: Client;
let connection: Connection;
let dir: string;

beforeAll(async () => {
  captureRuntimeLogs();
  // 6 calls a "day" of 10 seconds: the run needs 8, so it waits for the next day while paging.
  sandbox = await startTestSandbox({
    rateLimitPerMinute: 10_000,
    rateLimitPerDay: DAY_CALLS,
    dayWindowMs: DAY_MS,
  });
  dir = mkdtempSync(join(tmpdir(), 'vir-daily-restart-'));
  const suffix = `daily-restart-${process.pid}`;
  settings = loadSettings({
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: KEYS.vc,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    VIR_TASK_QUEUE: `jobs-${suffix}`,
    VIR_API_TASK_QUEUE: `api-${suffix}`,
    VIR_ACCOUNT_TASK_QUEUE: `accounts-${suffix}`,
    VIR_RATE_LIMIT_PER_MINUTE: '6000',
    VIR_STORE_DIR: join(dir, 'store'),
    VIR_REPORTS_DIR: join(dir, 'reports'),
    VIR_LOG_LEVEL: 'warn',
  });
  connection = await Connection.connect({ address: settings.temporalAddress });
  client = new Client({ connection, namespace: settings.temporalNamespace });
});

afterAll(async () => {
  await connection?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Workers of the test's settings, running; `stop` shuts them down and waits until they ended. */
async function workers(): Promise<{ w: RunningWorkers; stop: () => Promise<void> }> {
  const w = await startWorkers(settings, TUNING);
  const running = w.run();
  return {
    w,
    stop: async () => {
      await w.shutdown();
      await running;
    },
  };
}

test(
  'a run waiting for the daily limit keeps waiting across a worker restart and goes on after the reset',
  async () => {
    const first = await workers();
    let second: Awaited<ReturnType<typeof workers>> | null = null;
    try {
      const job = parseSmokeJob({
        id: 'daily-restart',
        title: 'Daily limit across a restart',
        country: 'Germany',
        records: 600,
        destination: join(dir, 'reports'),
      });
      const handle = await startJobRun(client, settings, job);
      let waiting: RunProgress | null = null;
      for (let i = 0; i < 400 && !waiting; i++) {
        const p = await handle.query(progressQuery).catch(() => null);
        if (p?.waitingUntil) waiting = p;
        // A poll of the progress, every 50 ms, until it shows the wait.
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(waiting).not.toBeNull();
      expect(waiting!.phase).toBe('paging');
      expect(describePhase(waiting!)).toBe(`waiting for the daily limit until ${waiting!.waitingUntil}`);
      const resetAt = Date.parse(waiting!.waitingUntil!);
      // The service's day is used up: its six calls, all answered.
      const dayLog = sandbox.requestLog();
      expect(dayLog.map((r) => r.status)).toEqual(Array(DAY_CALLS).fill(200));
      expect(resetAt).toBeGreaterThanOrEqual(dayLog[0]!.at + DAY_MS);

      // Every worker goes away during the wait (they have ended); new ones come before the reset.
      await first.stop();
      expect((await handle.describe()).status.name).toBe('RUNNING');
      second = await workers();
      expect(Date.now()).toBeLessThan(resetAt);
      const result = await followRun(handle, QUIET);
      expect(result.partial).toBe(false);
      const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
        status: string;
        calls: { byOperation: Record<string, number> };
      };
      expect(manifest.status).toBe('complete');
      expect(manifest.calls.byOperation).toEqual({ my_account: 1, search_startups: 6, get_startup: 1 });
      // The service's log: no 429, the run's eight calls, and the two after the day's six only
      // after the reset.
      const log = sandbox.requestLog();
      expect(log.filter((r) => r.status !== 200)).toEqual([]);
      expect(log).toHaveLength(8);
      for (const r of log.slice(DAY_CALLS)) expect(r.at).toBeGreaterThanOrEqual(resetAt);
      // The wait was a durable timer in the paging child's history.
      const E = temporal.api.enums.v1.EventType;
      const histories = await runHistories(client, handle.workflowId);
      const timers = histories
        .filter((x) => x.workflowId.includes('/paging/'))
        .flatMap((x) => x.history.events ?? [])
        .filter((e) => e.eventType === E.EVENT_TYPE_TIMER_STARTED);
      expect(timers.length).toBeGreaterThan(0);
    } finally {
      await first.stop();
      await second?.stop();
    }
  },
  TEST_TIMEOUT_MS,
);
