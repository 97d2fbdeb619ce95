/**
 * A worker killed (SIGKILL) at any moment of a run costs seconds, not minutes: every activity
 * heartbeats, so Temporal sees the dead worker within its heartbeat timeout and hands the work to
 * the next one. The worker process is killed while the run pages, enriches, builds its model and
 * renders, each in turn, and a new one started; each run completes with the same report (PDF
 * text and workbook cells) as a run without faults, in less than 30 s more plus the work lost,
 * and its manifest counts every request the service's log shows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { progressQuery } from '../../workflows/index.js';
import { attemptsSeen, manifestAttempts } from '../helpers/attempts.js';
import { maskClock, reportDigest } from '../helpers/report-digest.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET } from '../helpers/runner.js';
import { killGroup, workerTestBed, type WorkerTestBed } from '../helpers/worker-process.js';

const KEY = 'vis_live_sandbox_vc';
let sandbox: RunningSandbox;
let bed: WorkerTestBed;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  bed = await workerTestBed({
    name: 'kill-phases',
    serviceUrl: sandbox.url,
    key: KEY,
    temporalAddress: inject('temporalAddress'),
  });
});

afterAll(async () => {
  await bed?.close(5000);
  await sandbox?.close();
});

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
    destination: join(bed.dir, 'reports'),
  });

/** Runs the job; kills the worker once the run is in `phase` (none: no fault), then starts another. */
async function run(id: string, phase: string | null) {
  const last = bed.workers.at(-1);
  const worker = last && last.exitCode === null && last.signalCode === null ? last : await bed.startWorker();
  const started = Date.now();
  const from = sandbox.requestLog().length;
  const handle = await startJobRun(bed.client, bed.settings, job(id));
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
    await bed.startWorker();
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
