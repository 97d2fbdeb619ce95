/**
 * A worker killed (SIGKILL) at any moment of a run costs seconds, not minutes: every activity
 * heartbeats, so Temporal sees the dead worker within its heartbeat timeout and hands the work to
 * the next one. The worker process is killed while the run pages, enriches, builds its model and
 * renders, each in turn, and a new one started; each run completes with the same report (PDF
 * text and workbook cells) as a run without faults, in less than 30 s more plus the work lost,
 * and its manifest counts every request the service's log shows.
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
import { progressQuery } from '../../workflows/index.js';
import { attemptsSeen, manifestAttempts } from '../helpers/attempts.js';
import { maskClock, reportDigest } from '../helpers/report-digest.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET } from '../helpers/runner.js';
import { killGroup, startWorkerProcess, stopWorkerProcess, workerEnv } from '../helpers/worker-process.js';

const KEY = 'vis_live_sandbox_vc';
let sandbox: RunningSandbox;
let connection: Connection;
let client: Client;
let settings: Settings;
let dir: string;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  dir = mkdtempSync(join(tmpdir(), 'vir-kill-phases-'));
  const suffix = `kill-phases-${process.pid}`;
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
  });
  connection = await Connection.connect({ address: settings.temporalAddress });
  client = new Client({ connection, namespace: settings.temporalNamespace });
});

afterAll(async () => {
  await Promise.all(workers.map((w) => stopWorkerProcess(w, 5000).catch(() => killGroup(w, 'SIGKILL'))));
  await connection?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(workerEnv(settings, KEY));
  workers.push(child);
  return child;
}

/** The job, under an id of its own per run (each a first run: no comparison with a previous one). */
const job = (id: string) =>
  parseMarketReportJob({
    id,
    title: 'Germany under worker crashes',
    countries: ['Germany'],
    top: { investors: 5, startups: 5 },
    paging: { maxInvestorsPerCountry: 300, maxStartupsPerCountry: 300 },
    enrich: { investors: 2, startups: 2 },
    questions: [],
    outputs: ['pdf', 'xlsx'],
    destination: join(dir, 'reports'),
  });

/** Runs the job; kills the worker once the run is in `phase` (none: no fault), then starts another. */
async function run(id: string, phase: string | null) {
  const last = workers.at(-1);
  const worker = last && last.exitCode === null && last.signalCode === null ? last : await startWorker();
  const started = Date.now();
  const from = sandbox.requestLog().length;
  const handle = await startJobRun(client, settings, job(id));
  let killedAt: number | null = null;
  if (phase) {
    for (let i = 0; i < 2400 && killedAt === null; i++) {
      const p = await handle.query(progressQuery).catch(() => null);
      if (p?.phase === phase) {
        killGroup(worker, 'SIGKILL');
        killedAt = Date.now();
      } else await new Promise((r) => setTimeout(r, 25));
    }
    expect(killedAt, `the run reached ${phase}`).not.toBeNull();
    if (worker.exitCode === null && worker.signalCode === null) {
      await new Promise((r) => worker.once('exit', r));
    }
    await startWorker();
  }
  const result = await followRun(handle, QUIET);
  const seconds = (Date.now() - started) / 1000;
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
  // The outside witness: every request the service saw is in the manifest's attempts, the
  // ones a killed worker sent and the new one's retries included, and no more.
  expect(manifestAttempts(manifest), `attempts of ${id}`).toEqual(
    attemptsSeen(sandbox.requestLog().slice(from)),
  );
  const digest = await reportDigest(result.files, {
    workflowId: result.workflowId,
    runDate: new Date(started).toISOString().slice(0, 10),
  });
  const unId = (lines: string[]) => lines.map((l) => maskClock(l.replaceAll(id, '<job>')));
  return { result, seconds, pdf: unId(digest.pdf), workbook: unId(digest.workbook) };
}

test('a worker killed while paging, enriching, building or rendering delays the run by seconds', async () => {
  const plain = await run('crash-none', null);
  expect(plain.result.partial).toBe(false);
  for (const phase of ['paging', 'enriching', 'building', 'rendering']) {
    const faulted = await run(`crash-${phase}`, phase);
    console.log(
      `killed while ${phase}: ${faulted.seconds.toFixed(1)} s against ${plain.seconds.toFixed(1)} s`,
    );
    expect(faulted.result.partial, phase).toBe(false);
    expect(faulted.pdf, phase).toEqual(plain.pdf);
    expect(faulted.workbook, phase).toEqual(plain.workbook);
    // The target: under 30 s more than a run without faults, plus the work lost (a few seconds here).
    expect(faulted.seconds - plain.seconds, phase).toBeLessThan(40);
  }
}, 600_000);
