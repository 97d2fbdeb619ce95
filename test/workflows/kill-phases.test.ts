/**
 * A worker killed (SIGKILL) at any moment of a run costs seconds, not minutes: every activity
 * heartbeats, so Temporal sees the dead worker within its heartbeat timeout and hands the work to
 * the next one. One run's worker process is killed while it pages, again while it enriches and
 * while it renders, a new one started after each kill; the run completes with the
 * same report (PDF text and workbook cells) as a run without faults, in less than 40 s more per
 * kill (the heartbeat timeout plus the work lost), and its manifest counts every request the
 * service's log shows.
 *
 * Each kill comes at the event: the phase's first request in the sandbox's log (paging,
 * enriching), or, for rendering (which calls no service), Temporal showing the render activity
 * started on the worker (a progress that says the phase only proves the activity is scheduled: a
 * kill before a worker took it costs nothing and proves nothing). The sandbox answers each call
 * after 200 to 800 ms, so a phase's calls are still in flight when its first is logged; a render
 * takes seconds. The model's build is not aimed at: it lasts a few milliseconds, so no event
 * comes early enough to kill inside it every time (a full run once saw it start and end between
 * two looks); what a kill there would prove (a job activity cut off is seen by its heartbeat
 * timeout and run again on the next worker) is proven by the render's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import type { WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import { attemptsSeen, manifestAttempts } from '../helpers/attempts.js';
import { runHistories } from '../helpers/histories.js';
import { maskClock, reportDigest } from '../helpers/report-digest.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET } from '../helpers/runner.js';
import { killGroup, workerTestBed, type WorkerTestBed } from '../helpers/worker-process.js';

const KEY = 'vis_live_sandbox_vc';
const STARTED = proto.temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;
let sandbox: RunningSandbox;
let bed: WorkerTestBed;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  // Calls in flight at every kill: each answered 200 to 800 ms after it came.
  sandbox.setFaults({ latencyMs: 200, jitterMs: 600 });
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
    // One page per list: paging lasts one round of calls, enough to be killed in.
    paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
    enrich: { investors: 2, startups: 2 },
    questions: [],
    outputs: ['pdf', 'xlsx'],
    destination: join(bed.dir, 'reports'),
  });

/** The calls of each phase that calls the service: its first one in the log is the phase's start. */
const PHASE_CALLS: Record<string, string[]> = {
  paging: ['country_overview', 'search_investors', 'search_startups'],
  enriching: ['get_investor', 'get_startup'],
};

/** The activity of each phase that calls no service: the kill comes once a worker has started it. */
const PHASE_ACTIVITY: Record<string, string> = {
  rendering: 'renderMarketReport',
};

/** How long a phase may take to come (a worker's start and the phases before it, under load). */
const PHASE_WITHIN_MS = 120_000;

/**
 * Resolves once the run is in `phase`: its first call in the sandbox's log, or Temporal's view of
 * the run (its pending activities) shows the phase's activity started by a worker.
 */
async function reached(handle: WorkflowHandle, phase: string, from: number): Promise<void> {
  const deadline = Date.now() + PHASE_WITHIN_MS;
  const calls = PHASE_CALLS[phase];
  for (;;) {
    let pollMs = 5;
    if (calls) {
      if (
        sandbox
          .requestLog()
          .slice(from)
          .some((r) => calls.includes(r.operation))
      )
        return;
    } else {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      if (pending.some((a) => a.activityType?.name === PHASE_ACTIVITY[phase] && a.state === STARTED)) return;
      // While an earlier activity is pending (one the last kill cut off waits for its heartbeat
      // timeout), the phase is seconds away: ask Temporal ten times a second, not two hundred.
      if (pending.some((a) => a.activityType?.name !== PHASE_ACTIVITY[phase])) pollMs = 100;
    }
    if (Date.now() > deadline) throw new Error(`the run did not reach ${phase} within ${PHASE_WITHIN_MS} ms`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Runs the job; kills the worker in each of `phases` (none: no fault), starting another after each. */
async function run(id: string, phases: string[]) {
  const last = bed.workers.at(-1);
  let worker = last && last.exitCode === null && last.signalCode === null ? last : await bed.startWorker();
  const started = Date.now();
  const from = sandbox.requestLog().length;
  const handle = await startJobRun(bed.client, bed.settings, job(id));
  for (const phase of phases) {
    await reached(handle, phase, from);
    killGroup(worker, 'SIGKILL');
    if (worker.exitCode === null && worker.signalCode === null) {
      await new Promise((r) => worker.once('exit', r));
    }
    worker = await bed.startWorker();
  }
  const result = await followRun(handle, QUIET);
  const seconds = (Date.now() - started) / 1000;
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
  const counted = manifestAttempts(manifest);
  const seen = attemptsSeen(sandbox.requestLog().slice(from));
  const digest = await reportDigest(result.files, {
    workflowId: result.workflowId,
    runDate: new Date(started).toISOString().slice(0, 10),
  });
  const unId = (lines: string[]) => lines.map((l) => maskClock(l.replaceAll(id, '<job>')));
  // Temporal's histories: the activities started again (attempt 2 and later) after a kill.
  const retried: string[] = [];
  for (const { history } of await runHistories(bed.client, handle.workflowId)) {
    const types = new Map<string, string>();
    for (const e of history.events ?? []) {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled) types.set(String(e.eventId), scheduled.activityType?.name ?? '?');
      const startedAttrs = e.activityTaskStartedEventAttributes;
      if (startedAttrs && (startedAttrs.attempt ?? 1) > 1)
        retried.push(types.get(String(startedAttrs.scheduledEventId)) ?? '?');
    }
  }
  return { result, seconds, retried, counted, seen, pdf: unId(digest.pdf), workbook: unId(digest.workbook) };
}

test('a worker killed while paging, enriching and rendering delays the run by seconds', async () => {
  const plain = await run('crash-none', []);
  expect(plain.result.partial).toBe(false);
  // The outside witness: every request the service saw is in the manifest's attempts, and no more.
  expect(plain.counted).toEqual(plain.seen);
  const phases = ['paging', 'enriching', 'rendering'];
  const faulted = await run('crash-all', phases);
  console.log(
    `killed while ${phases.join(', ')}: ${faulted.seconds.toFixed(1)} s against ${plain.seconds.toFixed(1)} s`,
  );
  expect(faulted.result.partial).toBe(false);
  console.log(`started again after the kills: ${faulted.retried.join(', ')}`);
  expect(plain.retried).toEqual([]);
  // Each kill hit work in flight, started again by the next worker: the calls of paging and
  // enriching, the rendering.
  expect(faulted.retried.filter((t) => t === 'callApi').length).toBeGreaterThanOrEqual(2);
  expect(faulted.retried).toContain('renderMarketReport');
  // Every request the service saw is in the manifest's attempts, the ones a killed worker sent
  // and the new one's retries included, and no more. An answer the service sent to a worker
  // killed before it read it is counted as attempted and failed, never as succeeded (the runner
  // cannot tell it was sent), and its call was started again.
  expect(Object.keys(faulted.counted).sort()).toEqual(Object.keys(faulted.seen).sort());
  let lost = 0;
  for (const [operation, row] of Object.entries(faulted.counted)) {
    const saw = faulted.seen[operation]!;
    expect(row.attempted, operation).toBe(saw.attempted);
    expect(row.succeeded, operation).toBeLessThanOrEqual(saw.succeeded);
    expect(row.failed - saw.failed, operation).toBe(saw.succeeded - row.succeeded);
    lost += saw.succeeded - row.succeeded;
  }
  expect(lost).toBeLessThanOrEqual(faulted.retried.filter((t) => t === 'callApi').length);
  expect(faulted.pdf).toEqual(plain.pdf);
  expect(faulted.workbook).toEqual(plain.workbook);
  // The target: under 30 s more per kill than a run without faults, plus the work lost (a few
  // seconds here) and the new worker's start.
  expect(faulted.seconds - plain.seconds).toBeLessThan(40 * phases.length);
  // Two runs of a few calls, three kills each seen within a heartbeat timeout (15-20 s).
}, 400_000);
