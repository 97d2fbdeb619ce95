/**
 * No call into a window that is used up: against a service whose window is longer than 30 s,
 * the worker's gate holds calls until the window's reset (as long as it is), so the service
 * answers no 429. The proxy in front of the sandbox is the witness of every status it sent.
 * Real time on purpose: the wait is the API activity's own (heartbeating while it holds the
 * call), not a workflow timer a time-skipping server could skip.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';

/**
 * Longer than the 30 s the gate once capped a wait at (a cap would send the ninth call about
 * 32 s after the first: a 429) and than the API activity's 20 s heartbeat timeout.
 */
const WINDOW_MS = 35_000;
/** One window of 35 s and a few seconds of calls on either side. */
const TEST_TIMEOUT_MS = 120_000;
let sandbox: RunningSandbox;
let proxy: CountingProxy;
let h: RunnerHarness;

beforeAll(async () => {
  // 8 calls a 35-second window; the runner's queue allows far more (6,000 a minute).
  sandbox = await startTestSandbox({ rateLimitPerMinute: 8, minuteWindowMs: WINDOW_MS });
  proxy = await startCountingProxy(sandbox.url);
  h = await startRunner({ baseUrl: proxy.url, apiKey: 'vis_live_sandbox_vc', name: 'window' });
});

afterAll(async () => {
  await h?.close();
  await proxy?.close();
  await sandbox?.close();
});

test(
  'calls wait for a used-up window to reset, however far off, and get no 429',
  async () => {
    const job = parseSmokeJob({
      id: 'rate-window',
      title: 'Rate window',
      country: 'United States',
      records: 1000,
      destination: `${h.dir}/reports`,
    });
    const result = await followRun(await startJobRun(h.client, h.settings, job), QUIET);
    expect(result.partial).toBe(false);
    const calls = proxy.requests.filter((r) => r.path.startsWith('/v1/'));
    // my_account, 10 pages, get_startup: more than one window's calls.
    expect(calls.length).toBe(12);
    expect(calls.filter((r) => r.status === 429)).toEqual([]);
    // The ninth call waited for the next window: the service's window began with the first call.
    expect(calls[8]!.at - calls[0]!.at).toBeGreaterThanOrEqual(WINDOW_MS);
  },
  TEST_TIMEOUT_MS,
);
