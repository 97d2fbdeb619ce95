/**
 * A rolling upgrade on the cluster: a market report and a prospect list start on two workers of
 * the current workflow code; while they page, both workers are stopped (SIGTERM: they drain) and
 * replaced by two workers of the next code (VIR_WORKFLOWS_MODULE=fixtures/workflows-next.ts: the
 * market report upserts a memo first, behind `patched()`). The runs in flight complete on the
 * new workers: their histories show workflow tasks completed by the old workers, then by the new
 * ones, and no patch marker (they replayed the old branch). A market report started after the
 * upgrade takes the new branch (the marker and the memo). The same change without `patched()`
 * (fixtures/workflows-next-unpatched.ts) does not replay the old run's history: nondeterminism.
 */
import { fileURLToPath } from 'node:url';
import { DeterminismViolationError } from '@temporalio/workflow';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { workflowBundle } from '../../runtime/workflow-bundle.js';
import { QUIET } from '../helpers/runner.js';
import {
  marketJob,
  startClusterBed,
  startScenario,
  waitFor,
  workflowTaskIdentities,
  type ClusterBed,
  type Scenario,
} from './bed.js';

const NEXT = fileURLToPath(new URL('./fixtures/workflows-next.ts', import.meta.url));
const NEXT_UNPATCHED = fileURLToPath(new URL('./fixtures/workflows-next-unpatched.ts', import.meta.url));
const PATCH = 'cluster-rolling-upgrade-test';

let bed: ClusterBed;
let scenario: Scenario | undefined;

beforeAll(async () => {
  bed = await startClusterBed();
});

afterAll(async () => {
  await scenario?.close().catch((err: unknown) => console.error(err));
  await bed?.close();
});

test('runs started on the current workflow code complete on workers of the next code; new runs take its branch', async () => {
  const t0 = Date.now();
  const step = (what: string) => console.log(`[rolling] ${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
  const s = (scenario = await startScenario(bed, 'rolling'));
  const v1 = await Promise.all(['v1-a', 'v1-b'].map((label) => s.startWorker(label)));
  step('two workers of the current code poll');
  const runs = await s.startRuns();
  const ids = [runs.market.workflowId, runs.prospects.workflowId];
  const following = Promise.all([followRun(runs.market, QUIET), followRun(runs.prospects, QUIET)]);
  following.catch(() => undefined);

  // In flight: the runs page (the sandbox has answered paging requests).
  await waitFor('paging requests', async () =>
    s.sandbox.requestLog().filter((r) => r.operation.startsWith('search_')).length >= 4 ? true : null,
  );
  // Replace the workers: the old ones drain and stop, then the new code's start.
  const upgradeStarted = Date.now();
  step('the runs page; stopping the old workers');
  await Promise.all(v1.map((w) => w.stop()));
  step('old workers stopped');
  const requestsAtStop = s.sandbox.requestLog().length;
  for (const id of ids) {
    const d = await bed.client.workflow.getHandle(id).describe();
    expect(d.status.name, `${id} is in flight when the old workers are gone`).toBe('RUNNING');
  }
  const v2 = await Promise.all(
    ['v2-a', 'v2-b'].map((label) => s.startWorker(label, { VIR_WORKFLOWS_MODULE: NEXT })),
  );
  const upgradeMs = Date.now() - upgradeStarted;
  step('two workers of the next code poll');

  // A run started after the upgrade.
  const after = await startJobRun(bed.client, s.settings, marketJob(), 'rolling-market-after');
  const [market, prospects] = await following;
  step('the runs in flight completed');
  const next = await followRun(after, QUIET);
  step('the run started after the upgrade completed');
  for (const r of [market, prospects, next]) expect(r.partial, r.workflowId).toBe(false);

  // The runs in flight: tasks of the old workers, then of the new ones; the old branch (no marker).
  const old = new Set(v1.map((w) => w.identity));
  const nu = new Set(v2.map((w) => w.identity));
  for (const id of ids) {
    const { identities, markers } = await workflowTaskIdentities(bed.client, id);
    const firstNew = identities.findIndex((i) => nu.has(i));
    expect(firstNew, `${id}: tasks on the new workers`).toBeGreaterThan(0);
    expect(
      identities.slice(0, firstNew).every((i) => old.has(i)),
      `${id}: ${identities.join(' ')}`,
    ).toBe(true);
    expect(
      identities.slice(firstNew).every((i) => nu.has(i)),
      `${id}: ${identities.join(' ')}`,
    ).toBe(true);
    expect(
      markers.filter((m) => m.includes(PATCH)),
      id,
    ).toEqual([]);
    console.log(
      `[rolling] ${id}: ${firstNew} workflow tasks on the old workers, ${identities.length - firstNew} on the new`,
    );
  }
  expect((await runs.market.describe()).memo?.workflowCode).toBeUndefined();
  // The run started after the upgrade: the new branch.
  const newRun = await workflowTaskIdentities(bed.client, next.workflowId);
  expect(newRun.identities.every((i) => nu.has(i))).toBe(true);
  expect(
    newRun.markers.some((m) => m.includes(PATCH)),
    newRun.markers.join(' '),
  ).toBe(true);
  expect((await after.describe()).memo?.workflowCode).toBe('next');
  const log = s.sandbox.requestLog();
  expect(log.filter((r) => r.status === 429)).toEqual([]);

  // Without patched(), the old run's history does not replay on the next code: the memo command
  // comes first, so every command after it is out of place (core names the first mismatch it
  // meets). With patched() the same history replays cleanly: the only difference is patched().
  step('replaying the first market report on the next code, without and with patched()');
  const history = await runs.market.fetchHistory();
  await expect(
    Worker.runReplayHistory(workflowBundle(NEXT_UNPATCHED), history, runs.market.workflowId),
  ).rejects.toBeInstanceOf(DeterminismViolationError);
  await Worker.runReplayHistory(workflowBundle(NEXT), history, runs.market.workflowId);

  console.log(
    `[rolling] upgrade (stop 2 old workers, start 2 new) ${upgradeMs} ms; ${log.length} requests (${requestsAtStop} before the old workers stopped), 0 x 429; whole test ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}, 480_000);
