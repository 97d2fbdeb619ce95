/**
 * A worker killed (SIGKILL) while a paid call is in flight at the service, after the service
 * charged for it: the run learns it within the activity's heartbeat timeout, reads the balance
 * again, counts the charge, and does not ask again beyond its budget. Workers run as separate
 * OS processes (`vir worker`); the account's balance in the sandbox's books is the witness.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { loadSettings, type Settings } from '../../config/settings.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET } from '../helpers/runner.js';
import { attemptsSeen, manifestAttempts } from '../helpers/attempts.js';
import { killGroup, startWorkerProcess, workerEnv } from '../helpers/worker-process.js';

const KEY = 'vis_live_sandbox_vc';

let sandbox: RunningSandbox;
let connection: Connection;
let client: Client;
let settings: Settings;
let dir: string;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  dir = mkdtempSync(join(tmpdir(), 'vir-kill-'));
  const suffix = `kill-${process.pid}`;
  settings = loadSettings({
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: KEY,
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
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) killGroup(w, 'SIGKILL');
  await connection?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `vir worker` in its own process group; resolves once it says it runs. */
async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(workerEnv(settings, KEY));
  workers.push(child);
  return child;
}

function balance(): number {
  return sandbox.state.accounts.get(sandbox.state.keys.get(KEY)!.account_id)!.credits;
}
const askResults = () => [...sandbox.state.results.values()].filter((r) => r.operation === 'ask').length;

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a worker killed with a charged paid call in flight: the run counts the charge and stays in budget', async () => {
  const job = parseMarketReportJob({
    id: 'paid-kill',
    title: 'Paid call in flight when the worker dies',
    countries: ['Germany'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
    enrich: { investors: 0, startups: 0 },
    questions: ['which countries raised the most in 2025', 'median series A size in Germany'],
    budget: { credits: 2 },
    outputs: ['xlsx'],
    destination: join(dir, 'reports'),
  });
  // The first ask is charged and saved, then its answer never finishes: the call stays in
  // flight at the service until the worker dies.
  sandbox.setFaults({ afterCharge: { hangRate: 1, operations: ['ask'], times: 1 } });
  const first = await startWorker();
  const before = balance();
  const asked = askResults();
  const from = sandbox.requestLog().length;
  const handle = await startJobRun(client, settings, job);
  await until('the charged ask in flight', () => askResults() > asked, 90_000);
  expect(balance()).toBe(before - 1);
  killGroup(first, 'SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const second = await startWorker();
  try {
    const started = Date.now();
    const result = await followRun(handle, QUIET);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
      credits: { charged: number };
      reasons: string[];
    };
    const paid = before - balance();
    // The account paid what the manifest says, and no more than the budget.
    expect(manifest.credits.charged).toBe(paid);
    expect(paid).toBeLessThanOrEqual(2);
    expect(paid).toBe(2);
    expect(manifest.reasons.join('\n')).toMatch(
      /charged 1 credit for an answer that was lost; not asked again/,
    );
    // Every request the service saw is counted, the killed worker's charged ask included.
    expect(manifestAttempts(manifest)).toEqual(attemptsSeen(sandbox.requestLog().slice(from)));
    expect(manifestAttempts(manifest).ask).toEqual({ attempted: 2, succeeded: 1, failed: 1 });
    // Learnt within the heartbeat timeout, not the call's 150 s timeout.
    expect(Date.now() - started).toBeLessThan(90_000);
  } finally {
    sandbox.setFaults({});
    killGroup(second, 'SIGTERM');
    await new Promise((r) => (second.exitCode !== null ? r(null) : second.once('exit', r)));
  }
}, 240_000);
