/**
 * Runs never lose work: every worker stopped in the middle of a run's paging, new workers
 * started later, and the same run completes from where it was. The sandbox's request log is the
 * witness: each page the result sets need was fetched once, none twice.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { loadSettings, type Settings } from '../../config/settings.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { NativeConnection, Worker } from '@temporalio/worker';
import { startWorkers } from '../../runtime/workers.js';
import { workflowCode } from '../../runtime/workflow-bundle.js';
import { accountIdOf } from '../../activities/account.js';
import { accountViewQuery, type AccountView } from '../../shared/account.js';
import { VisClient } from '../../api/client.js';
import { readPage } from '../../api/read-page.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { captureRuntimeLogs, QUIET } from '../helpers/runner.js';

const KEY = 'vis_live_sandbox_vc';
const SEARCHES = ['search_investors', 'search_startups'];
let sandbox: RunningSandbox;
let dir: string;
let settings: Settings;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  // Pages answered 300 to 600 ms after they came: the paging is still going when the workers stop.
  sandbox.setFaults({ latencyMs: 300, jitterMs: 300 });
  captureRuntimeLogs();
  dir = mkdtempSync(join(tmpdir(), 'vir-resume-'));
  settings = loadSettings({
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: KEY,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    VIR_TASK_QUEUE: `jobs-resume-${process.pid}`,
    VIR_API_TASK_QUEUE: `api-resume-${process.pid}`,
    VIR_ACCOUNT_TASK_QUEUE: `accounts-resume-${process.pid}`,
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

/**
 * The account's view from its ledger, answered by a worker of the account queue alone (no worker
 * of the run's queues: the run stays where the stop left it).
 */
async function ledgerView(): Promise<AccountView> {
  const native = await NativeConnection.connect({ address: settings.temporalAddress });
  const worker = await Worker.create({
    connection: native,
    namespace: settings.temporalNamespace,
    taskQueue: settings.accountTaskQueue,
    ...(await workflowCode(settings.workflowsModule)),
  });
  const running = worker.run();
  try {
    const view = await client.workflow
      .getHandle(accountIdOf(settings.visBaseUrl, KEY))
      .query(accountViewQuery);
    return view;
  } finally {
    worker.shutdown();
    await running;
    await native.close();
  }
}

/** Resolves once the sandbox's log holds `n` requests of the searches after `from`. */
async function pagesLogged(from: number, n: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (
    sandbox
      .requestLog()
      .slice(from)
      .filter((r) => SEARCHES.includes(r.operation)).length < n
  ) {
    if (Date.now() > deadline) throw new Error(`fewer than ${n} pages fetched within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a run survives its workers stopping and completes on new ones', async () => {
  const job = parseMarketReportJob({
    id: 'resume-test',
    title: 'Resume test',
    countries: ['Germany', 'France'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 300, maxStartupsPerCountry: 300 },
    enrich: { investors: 1, startups: 1 },
    questions: [],
    destination: join(dir, 'reports'),
  });
  const first = await startWorkers(settings);
  const firstRunning = first.run();
  const from = sandbox.requestLog().length;
  const handle = await startJobRun(client, settings, job);
  // Every worker goes away in the middle of the paging: once two pages came back.
  try {
    await pagesLogged(from, 2, 60_000);
  } finally {
    // They stop polling at once; their calls in flight finish (within the shutdown grace).
    await first.shutdown();
  }
  await firstRunning;
  expect((await handle.describe()).status.name).toBe('RUNNING');
  // The stopped workers told the account what their calls did and gave back the permits they
  // never used: the ledger counts no call of theirs in flight (left unsaid, their leases would
  // hold the window's room for minutes, until they expire).
  expect((await ledgerView()).calls.inFlight).toBe(0);

  // New workers on the same queues pick the run up.
  const again = await startWorkers(settings);
  const running = again.run();
  try {
    const result = await followRun(handle, QUIET);
    expect(result.partial).toBe(false);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
    expect(manifest.status).toBe('complete');
    expect(manifest.calls.byOperation).toMatchObject({
      my_account: 1,
      country_overview: 2,
      get_investor: 2,
      get_startup: 2,
    });
    // Exactly the pages the result sets need (capped at 300 records): nothing fetched twice.
    sandbox.setFaults({});
    const client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY });
    let pages = 0;
    try {
      for (const country of job.countries) {
        const inv = await client.call('search_investors', { country, limit: 1 });
        const st = await client.call('search_startups', { countries: [country], limit: 1 });
        pages +=
          2 * Math.ceil(Math.min(readPage('search_investors', inv.data).total ?? 0, 300) / 100) +
          Math.ceil(Math.min(readPage('search_startups', st.data).total ?? 0, 300) / 100);
      }
    } finally {
      await client.close();
    }
    // The run's requests, as the service saw them: before the stop and after it.
    const runLog = sandbox.requestLog().slice(from, -4);
    const fetched = runLog.filter((r) => SEARCHES.includes(r.operation));
    expect(fetched.every((r) => r.status === 200)).toBe(true);
    expect(fetched).toHaveLength(pages);
    expect(manifest.calls.byOperation.search_investors + manifest.calls.byOperation.search_startups).toBe(
      pages,
    );
    expect(manifest.calls.pages).toBe(pages);
  } finally {
    await again.shutdown();
    await running;
  }
  // The old workers' stop lets their calls in flight finish (a second here); the new ones take
  // the run from the server at once.
}, 120_000);
