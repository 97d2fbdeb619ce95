/**
 * Replay: the recorded histories of the market-report job (committed fixtures, and a fresh
 * run's) replay through the current workflow code without nondeterminism.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseMarketReportJob } from '../../config/jobs.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { workflowsPath } from '../../cli/worker-runtime.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { loadHistories, runHistories, saveHistories, type RecordedHistory } from '../helpers/histories.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/histories/market-report', import.meta.url));

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc', name: 'replay' });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

async function replay(histories: RecordedHistory[]) {
  const results: { workflowId: string; error?: unknown }[] = [];
  for await (const r of Worker.runReplayHistories({ workflowsPath }, histories)) results.push(r);
  return results;
}

test('the committed histories of the job replay without nondeterminism', async () => {
  expect(existsSync(FIXTURES)).toBe(true);
  const histories = loadHistories(FIXTURES);
  // The run itself and its paging children, some of them continued as new.
  expect(histories.length).toBeGreaterThan(3);
  const results = await replay(histories);
  expect(results.length).toBe(histories.length);
  for (const r of results) expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
});

test("a fresh run's histories replay, including budget skips and comparisons", async () => {
  const job = parseMarketReportJob({
    id: 'replay-test',
    title: 'Replay test',
    countries: ['Germany', 'Israel'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 250, maxStartupsPerCountry: 150 },
    enrich: { investors: 1, startups: 1 },
    questions: ['largest rounds of the last 7 days in {country}', 'which countries raised the most in 2025'],
    budget: { credits: 2 },
    destination: `${h.dir}/reports`,
  });
  const handle = await startJobRun(h.client, h.settings, job);
  const result = await followRun(handle, QUIET);
  expect(result.partial).toBe(true);
  const histories = await runHistories(h.client, handle.workflowId);
  expect(histories.length).toBeGreaterThan(3);
  if (process.env.VIR_RECORD_HISTORIES === '1') saveHistories(FIXTURES, histories);
  const results = await replay(histories);
  for (const r of results) expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
});
