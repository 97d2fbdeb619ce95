/**
 * The service restarted in the middle of a run, as a real one may be: the sandbox (its state
 * persisted in a state file) is stopped while the run pages and started again on the same port
 * and file. The balances and the free plan's used run are what they were before the restart,
 * the run completes, the account paid what the manifest says, and the manifest counts every
 * request the two sandboxes logged (the ones that found no server were not sent; one the closing
 * server dropped unread is counted as a failed attempt, as the runner cannot tell it was not read).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { freePort } from '../../runtime/temporal-server.js';
import { startSandbox, type RunningSandbox, type SandboxRequest } from '../../sandbox/index.js';
import { progressQuery } from '../../workflows/index.js';
import { attemptsSeen, manifestAttempts } from '../helpers/attempts.js';
import { runHistories } from '../helpers/histories.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { callSandbox, KEYS } from '../helpers/sandbox.js';
import { eventually } from '../cli/helpers.js';

let dir: string;
let port: number;
let sandbox: RunningSandbox | null = null;
let h: RunnerHarness;

const start = async () =>
  startSandbox({
    host: '127.0.0.1',
    port,
    rateLimitPerMinute: 10_000,
    stateFile: join(dir, 'sandbox-state.sqlite'),
  });

/** Every account's balance and the free plan's runs used, as the sandbox's state holds them. */
function stateOf(s: RunningSandbox) {
  return {
    balances: Object.fromEntries([...s.state.accounts.values()].map((a) => [a.id, a.credits])),
    freeRuns: Object.fromEntries(s.state.freeFinderRunsUsed),
  };
}

/** Whether an activity of the run or of one of its paging children failed and waits to be tried again. */
async function callFoundNoServer(workflowId: string): Promise<boolean> {
  const run = await h.client.workflow.getHandle(workflowId).describe();
  const ids = [workflowId, ...(run.raw.pendingChildren ?? []).map((c) => c.workflowId!)];
  for (const id of ids) {
    const d = await h.client.workflow.getHandle(id).describe();
    if ((d.raw.pendingActivities ?? []).some((a) => (a.attempt ?? 1) > 1 || a.lastFailure)) return true;
  }
  return false;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vir-sandbox-restart-'));
  port = await freePort();
  sandbox = await start();
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.vc, name: 'restart' });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a sandbox restarted mid-run keeps balances and the free plan, and the run completes', async () => {
  const first = sandbox!;
  // The free plan's one find_investors run, used before the run.
  const INVESTORS = {
    description: 'Payments API for cross-border merchants',
    raising_stage: 'seed',
    limit: 5,
  };
  expect((await callSandbox(first, 'find_investors', { key: KEYS.free, params: INVESTORS })).status).toBe(
    200,
  );
  const balanceBefore = stateOf(first).balances.acct_vc!;

  const job = parseMarketReportJob({
    id: 'sandbox-restart',
    title: 'Germany and France across a service restart',
    countries: ['Germany', 'France'],
    top: { investors: 5, startups: 5 },
    paging: { maxInvestorsPerCountry: 600, maxStartupsPerCountry: 300 },
    enrich: { investors: 2, startups: 1 },
    questions: ['largest rounds of the last 7 days in {country}'],
    budget: { credits: 5 },
    outputs: ['pdf', 'xlsx'],
    destination: join(h.dir, 'reports'),
  });
  const handle = await startJobRun(h.client, h.settings, job);
  // Restart while the run pages.
  for (let i = 0; i < 2400; i++) {
    const p = await handle.query(progressQuery).catch(() => null);
    if (p?.phase === 'paging' && p.pages >= 2) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const log: SandboxRequest[] = [];
  await first.close();
  log.push(...first.requestLog());
  const stopped = stateOf(first);
  sandbox = null;
  // The service stays down until a call of the run found no server (an activity failed and
  // waits for its next attempt), as Temporal's server shows the run and its paging children.
  await eventually(
    async () => ((await callFoundNoServer(handle.workflowId)) ? true : undefined),
    60_000,
    'a call of the run that found no server',
  );
  const second = await start();
  sandbox = second;

  // The restart is invisible: the same balances and free-plan runs.
  expect(stateOf(second)).toEqual(stopped);

  const result = await followRun(handle, QUIET);
  expect(result.partial, result.reasons.join('; ')).toBe(false);
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
  // Calls found no server during the restart and were retried (the second attempt went out).
  const histories = await runHistories(h.client, handle.workflowId);
  const retried = histories
    .flatMap((r) => r.history.events ?? [])
    .filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1);
  expect(retried.length).toBeGreaterThan(0);
  // The account paid what the manifest says, across both sandboxes.
  const balanceAfter = stateOf(second).balances.acct_vc!;
  expect(balanceBefore - balanceAfter).toBe(manifest.credits.charged);
  expect(manifest.credits.charged).toBe(2);
  // Every request either sandbox saw is counted (the test's own find_investors is not the run's).
  // A request written on a kept-alive connection the stopping server closed as idle may never have
  // been read: the runner cannot know, so it counts it as attempted and failed, never as succeeded.
  const runLog = [...log.filter((r) => r.operation !== 'find_investors'), ...second.requestLog()];
  const counted = manifestAttempts(manifest);
  const seen = attemptsSeen(runLog);
  expect(Object.keys(counted).sort()).toEqual(Object.keys(seen).sort());
  let unseen = 0;
  for (const [operation, row] of Object.entries(counted)) {
    const saw = seen[operation]!;
    expect(row.succeeded, operation).toBe(saw.succeeded);
    expect(row.attempted - saw.attempted, operation).toBe(row.failed - saw.failed);
    expect(row.attempted, operation).toBeGreaterThanOrEqual(saw.attempted);
    unseen += row.attempted - saw.attempted;
  }
  // Only the calls the restart broke, each retried afterwards.
  expect(unseen).toBeLessThanOrEqual(retried.length);

  // The new sandbox still knows the free plan's run is used, as a client sees it.
  const free = await callSandbox(second, 'my_account', { key: KEYS.free });
  expect(free.body.data).toMatchObject({ plan: 'free', free_find_investors_runs_used: 1 });
  const again = await callSandbox(second, 'find_investors', { key: KEYS.free, params: INVESTORS });
  expect(again.status).toBe(402);
}, 300_000);
