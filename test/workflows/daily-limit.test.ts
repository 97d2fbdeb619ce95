/**
 * The daily limit: when the sandbox's (shortened) day window is used up, the run waits
 * durably until the reset (a workflow timer, not a retry loop) and then goes on.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { startJobRun } from '../../cli/run-job.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { followWatching, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { runHistories } from '../helpers/histories.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  // 8 calls a "day" of 6 seconds (the limit is reached while paging); the runner treats a reset
  // more than 2 s away as the daily limit.
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000, rateLimitPerDay: 8, dayWindowMs: 6000 });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: 'vis_live_sandbox_vc',
    name: 'daily',
    tuning: { dailyLimitThresholdMs: 2000 },
  });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

test('a daily limit reached makes the run wait until the reset and resume', async () => {
  const job = parseMarketReportJob({
    id: 'daily-limit',
    title: 'Daily limit test',
    countries: ['Germany', 'France'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 200, maxStartupsPerCountry: 200 },
    enrich: { investors: 2, startups: 2 },
    questions: [],
    destination: `${h.dir}/reports`,
  });
  const handle = await startJobRun(h.client, h.settings, job);
  const started = Date.now();
  const { result, seen } = await followWatching(handle);
  // 1 + 2 overviews + 2 * (2 + 2 + 2) pages + 8 profiles = 23 calls or more: several "days".
  expect(result.callsMade).toBeGreaterThan(16);
  expect(result.partial).toBe(false);
  expect(existsSync(result.files.pdf!)).toBe(true);
  expect(Date.now() - started).toBeGreaterThan(2000);
  expect(seen.some((p) => p.waitingUntil !== null)).toBe(true);
  // A paging child's wait reaches the run's progress too.
  expect(seen.some((p) => p.waitingUntil !== null && p.phase === 'paging')).toBe(true);
  // The wait is a durable timer in a workflow history: a paging child's here.
  const histories = await runHistories(h.client, handle.workflowId);
  const timers = histories
    .filter((r) => r.workflowId.includes('/paging/'))
    .flatMap((r) => r.history.events ?? [])
    .filter((e) => e.timerStartedEventAttributes).length;
  expect(timers).toBeGreaterThan(0);
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
  expect(manifest.status).toBe('complete');
});
