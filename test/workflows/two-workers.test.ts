/**
 * Two worker processes (separate OS processes, the same queues) page 40 calls against a sandbox
 * at its limit of 10 calls a window, its window scaled from 60 to 4 seconds
 * (the sandbox's `minuteWindowMs`). The scaled window tests the real thing: the runner paces by
 * the service's own rate-limit headers (X-RateLimit-Remaining and -Reset, read by the API
 * activity and kept by the account workflow's ledger), never by a minute of its own; the API
 * queue's rate limit (`apiQueueRate`: a window's calls a second) is only a backstop and lets 40
 * calls through in a 4-second window. The limit is low enough that even a loaded machine asks
 * for more calls than a window takes (four runs paging at once). The two processes share one view of the window
 * through the account workflow, so the service answers no 429 and none of its windows takes more
 * than 10 calls. The witness is the sandbox's request log: every call the service took, when,
 * and the status it answered; and each worker's identity in the histories.
 */
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, expect, inject, onTestFailed, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import { callsPerWindow, type RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET } from '../helpers/runner.js';
import { workerTestBed, type WorkerTestBed } from '../helpers/worker-process.js';

const KEY = 'vis_live_sandbox_vc';
const LIMIT = 10;
const WINDOW_MS = 4_000;
const RUNS = 4;
/** Startups of the country each run pages: 8 pages of 100, so 10 calls a run with my_account and get_startup. */
const RECORDS = 800;
const CALLS_PER_RUN = 10;
/** Four runs of 10 calls at 10 calls a window of 4 s: four windows, about 16 s; the rest is margin for a loaded machine. */
const TEST_TIMEOUT_MS = 180_000;

let sandbox: RunningSandbox;
let bed: WorkerTestBed;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: LIMIT, minuteWindowMs: WINDOW_MS });
  bed = await workerTestBed({
    name: 'two',
    serviceUrl: sandbox.url,
    key: KEY,
    temporalAddress: inject('temporalAddress'),
    rateLimitPerMinute: LIMIT,
  });
  for (let i = 0; i < 2; i++) await bed.startWorker();
});

afterAll(async () => {
  await bed?.close();
  await sandbox?.close();
});

test(
  'two worker processes page 40 calls at 10 calls a window of 4 s: no 429, no window over the limit',
  async () => {
    // Four runs paging one country's startups at once: more calls asked for than a window takes.
    const jobs = Array.from({ length: RUNS }, (_, i) =>
      parseSmokeJob({
        id: `two-workers-${i + 1}`,
        title: `Two workers ${i + 1}`,
        country: 'United States',
        records: RECORDS,
        destination: join(bed.dir, 'reports'),
      }),
    );
    const started = Date.now();
    const handles = await Promise.all(jobs.map((job) => startJobRun(bed.client, bed.settings, job)));
    // A clean-clone CI run once timed out here with no clue why (issue 28 names an account
    // update that once held a run for 10 minutes): on failure, say where each run stood and
    // what the workers and the service saw last.
    onTestFailed(async () => {
      for (const h of handles) {
        const d = await h.describe().catch((err: unknown) => ({ raw: null, err }));
        const pending = (d.raw?.pendingActivities ?? []).map(
          (a) => `${a.activityType?.name} attempt ${a.attempt} ${a.lastFailure?.message ?? ''}`,
        );
        const children = (d.raw?.pendingChildren ?? []).map((c) => c.workflowId);
        console.error(
          `${h.workflowId}: pending ${JSON.stringify(pending)}, children ${JSON.stringify(children)}`,
        );
      }
      const log = sandbox.requestLog();
      console.error(`the service took ${log.length} calls; the last: ${JSON.stringify(log.slice(-3))}`);
      for (const [i, w] of bed.workers.entries()) {
        const out = (w as { output?: () => string }).output?.() ?? '';
        console.error(
          `worker ${i + 1} (exit ${w.exitCode ?? w.signalCode ?? 'running'}), its last output:\n${out.slice(-3000)}`,
        );
      }
    });
    const results = await Promise.all(handles.map((h) => followRun(h, QUIET)));
    const seconds = (Date.now() - started) / 1000;
    expect(results.every((r) => !r.partial)).toBe(true);

    const log = sandbox.requestLog();
    const counts = callsPerWindow(log, WINDOW_MS);
    const calls = log.length;
    console.log(`${calls} calls in ${seconds.toFixed(0)} s; windows ${counts.join(', ')}`);
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(RUNS * CALLS_PER_RUN);
    expect(Math.max(...counts)).toBeLessThanOrEqual(LIMIT);
    // Not slower than the limit allows: full windows but the last, and one more for a window a
    // loaded machine leaves part-used (the account's round trips take a while on a loaded machine).
    expect(counts.length).toBeLessThanOrEqual(Math.ceil(calls / LIMIT) + 2);

    // Both processes made calls: the identities that ran the paging children's API activities.
    const E = temporal.api.enums.v1.EventType;
    const identities = new Set<string>();
    for (const r of results) {
      const paging = bed.client.workflow.getHandle(`${r.workflowId}/paging/startups-united-states`);
      for (const e of (await paging.fetchHistory()).events ?? []) {
        if (e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
          identities.add(e.activityTaskStartedEventAttributes?.identity ?? '');
        }
      }
    }
    expect(identities.size).toBe(2);
  },
  TEST_TIMEOUT_MS,
);
