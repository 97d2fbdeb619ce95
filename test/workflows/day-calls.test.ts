/**
 * The day's calls are shared by the account's runs: a run that needs more calls than the day
 * has left waits durably for the next day before it starts them (a timer in its history, its
 * progress saying until when), instead of starting and stopping halfway. The witness is the
 * sandbox's request log: the second run's first call comes after the service's day ended, and
 * the service answered no 429.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { temporal } from '@temporalio/proto';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { describePhase, progressQuery, type RunProgress } from '../../workflows/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';

/**
 * The sandbox's day: long enough for the first run (5 calls) and the second run's reservation
 * before it ends, on a loaded machine. The decisions themselves are proven on the time-skipping
 * server (test/workflows/skipping/account.test.ts, skipping/daily-limit.test.ts); this test is
 * their outside witness: two real runs sharing the service's real day.
 */
const DAY_MS = 10_000;
/** Two runs and a day of 10 s between them, with margin for a loaded machine. */
const TEST_TIMEOUT_MS = 120_000;
let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  // 12 calls a "day" of 10 seconds.
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000, rateLimitPerDay: 12, dayWindowMs: DAY_MS });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: 'vis_live_sandbox_vc',
    name: 'day-calls',
    env: { VIR_RATE_LIMIT_PER_DAY: '12' },
    tuning: { dailyLimitThresholdMs: 2000 },
  });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

const smoke = (id: string, records: number) =>
  parseSmokeJob({ id, title: id, country: 'Germany', records, destination: `${h.dir}/reports` });

test(
  'a run needing more calls than the day has left waits for the next day before it starts them',
  async () => {
    // The first run: my_account, 3 pages, get_startup: 5 of the day's 12 calls.
    const first = await followRun(await startJobRun(h.client, h.settings, smoke('day-first', 300)), QUIET);
    expect(first.callsMade).toBe(5);
    const dayStart = sandbox.requestLog()[0]!.at;

    // The second needs 10 (my_account, 8 pages, get_startup): more than the 7 left.
    const handle = await startJobRun(h.client, h.settings, smoke('day-second', 800));
    let waiting: RunProgress | null = null;
    for (let i = 0; i < 200 && !waiting; i++) {
      const p = await handle.query(progressQuery).catch(() => null);
      if (p?.waitingUntil) waiting = p;
      // A poll of the progress, every 50 ms, until it shows the wait.
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(waiting).not.toBeNull();
    expect(waiting!.callsMade).toBe(0);
    expect(describePhase(waiting!)).toBe(`waiting for the daily limit until ${waiting!.waitingUntil}`);
    expect(sandbox.requestLog()).toHaveLength(5);

    const second = await followRun(handle, QUIET);
    expect(second.partial).toBe(false);
    expect(second.callsMade).toBe(10);
    const log = sandbox.requestLog();
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    // Its first call came when the service's day had ended.
    expect(log[5]!.at).toBeGreaterThanOrEqual(dayStart + DAY_MS);

    // The wait was a durable timer, before the run's first service call.
    const E = temporal.api.enums.v1.EventType;
    const events = (await handle.fetchHistory()).events ?? [];
    const timer = events.findIndex((e) => e.eventType === E.EVENT_TYPE_TIMER_STARTED);
    const firstCall = events.findIndex(
      (e) =>
        e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
        e.activityTaskScheduledEventAttributes?.activityType?.name === 'callApi',
    );
    expect(timer).toBeGreaterThan(-1);
    expect(timer).toBeLessThan(firstCall);
  },
  TEST_TIMEOUT_MS,
);
