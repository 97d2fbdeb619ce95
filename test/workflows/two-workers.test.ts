/**
 * Two worker processes (separate OS processes, the same queues) page more than 500 calls
 * against a sandbox at its limit of 60 calls a window, its window scaled from 60 to 15 seconds
 * (the sandbox's `minuteWindowMs`; the runner paces by the service's own rate-limit headers, so
 * the window's length changes nothing it decides, and the test takes a quarter of the time). They
 * share one view of the window through the account workflow, so the service answers no 429 and
 * none of its windows takes more than 60 calls. The witness is the sandbox's request log: every call the
 * service took, when, and the status it answered; and each worker's identity in the histories.
 */
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import { callsPerWindow, type RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET } from '../helpers/runner.js';
import { workerTestBed, type WorkerTestBed } from '../helpers/worker-process.js';

const KEY = 'vis_live_sandbox_vc';
const LIMIT = 60;
const WINDOW_MS = 15_000;

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

test('two worker processes page 500+ calls at 60 calls a window: no 429, no window over the limit', async () => {
  // Seven runs paging all of one country's startups: 74 pages each, 76 calls a run.
  const jobs = Array.from({ length: 7 }, (_, i) =>
    parseSmokeJob({
      id: `two-workers-${i + 1}`,
      title: `Two workers ${i + 1}`,
      country: 'United States',
      records: 10_000,
      destination: join(bed.dir, 'reports'),
    }),
  );
  const started = Date.now();
  const handles = await Promise.all(jobs.map((job) => startJobRun(bed.client, bed.settings, job)));
  const results = await Promise.all(handles.map((h) => followRun(h, QUIET)));
  const seconds = (Date.now() - started) / 1000;
  expect(results.every((r) => !r.partial)).toBe(true);

  const log = sandbox.requestLog();
  const counts = callsPerWindow(log, WINDOW_MS);
  const calls = log.length;
  console.log(`${calls} calls in ${seconds.toFixed(0)} s; windows ${counts.join(', ')}`);
  expect(calls).toBeGreaterThanOrEqual(500);
  expect(log.filter((r) => r.status === 429)).toEqual([]);
  expect(Math.max(...counts)).toBeLessThanOrEqual(LIMIT);
  // Not slower than the limit allows: full windows but the last, and one more for a window a
  // loaded machine leaves part-used (seconds of work, in a window of 15 s).
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
}, 300_000);
