/**
 * Three worker processes on the local cluster, each in a folder of its own (no shared folder:
 * the store is the S3 bucket), run a market report and a prospect list at once against the
 * sandbox at a real rate limit (10 calls a second). One worker is killed (SIGKILL to its
 * process group) while it runs paging calls, another while it renders; a fresh worker replaces
 * each. Both runs complete with the same figures and the same files (PDF text, workbook cells,
 * CSV rows) as the same jobs on one worker against a fresh sandbox of the same data. The
 * sandbox's request log is the outside witness: no 429, every request in the runs' manifests
 * (the killed workers' included), no paid call sent twice, and no more requests than the runs
 * needed plus what the killed workers had in flight.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun } from '../../cli/run-job.js';
import type { JobRunResult } from '../../workflows/engine.js';
import type { WorkerProcess } from '../../runtime/worker-processes.js';
import { QUIET } from '../helpers/runner.js';
import {
  API_CALLS_PER_WORKER,
  creditsLeft,
  PAID_OPERATIONS,
  requestsByOperation,
  runFigures,
  startClusterBed,
  startedActivities,
  startScenario,
  storeKeys,
  sumAttempts,
  waitFor,
  type ClusterBed,
  type RunFigures,
  type Scenario,
} from './bed.js';

let bed: ClusterBed;
const scenarios: Scenario[] = [];

beforeAll(async () => {
  bed = await startClusterBed();
});

afterAll(async () => {
  for (const s of scenarios) await s.close().catch((err: unknown) => console.error(err));
  await bed?.close();
});

interface Outcome {
  market: RunFigures;
  prospects: RunFigures;
  results: JobRunResult[];
  requests: number;
  byOperation: Record<string, number>;
  status429: number;
  creditsLeft: number;
  seconds: number;
}

async function outcome(s: Scenario, results: JobRunResult[], started: number): Promise<Outcome> {
  const [market, prospects] = [await runFigures(bed, results[0]!), await runFigures(bed, results[1]!)];
  const log = s.sandbox.requestLog();
  return {
    market,
    prospects,
    results,
    requests: log.length,
    byOperation: requestsByOperation(log),
    status429: log.filter((r) => r.status === 429).length,
    creditsLeft: creditsLeft(s.sandbox),
    seconds: (Date.now() - started) / 1000,
  };
}

test('three workers, one killed while paging and one while rendering: both runs complete with the figures of one worker', async () => {
  const t0 = Date.now();
  // The baseline: the same two jobs on one worker, against a sandbox of its own (same data).
  const one = await startScenario(bed, 'one-worker');
  scenarios.push(one);
  await one.startWorker('solo');
  const baseStarted = Date.now();
  const baseRuns = await one.startRuns();
  const base = await outcome(
    one,
    await Promise.all([followRun(baseRuns.market, QUIET), followRun(baseRuns.prospects, QUIET)]),
    baseStarted,
  );
  await one.close();
  scenarios.splice(scenarios.indexOf(one), 1);
  const baseCalls = base.market.calls + base.prospects.calls;
  console.log(
    `[scale-out] one worker: ${base.requests} requests (${baseCalls} calls needed), ${base.status429} x 429, ${base.seconds.toFixed(1)} s`,
  );
  expect(base.status429).toBe(0);
  expect(base.byOperation).toEqual(sumAttempts(base.market.attempts, base.prospects.attempts));

  // Three workers, each in a folder of its own.
  const three = await startScenario(bed, 'three-workers');
  scenarios.push(three);
  const workersStarted = Date.now();
  await Promise.all(['a', 'b', 'c'].map((label) => three.startWorker(label)));
  const workersMs = Date.now() - workersStarted;
  const started = Date.now();
  const runs = await three.startRuns();
  const ids = [runs.market.workflowId, runs.prospects.workflowId];
  const following = Promise.all([followRun(runs.market, QUIET), followRun(runs.prospects, QUIET)]);
  following.catch(() => undefined);

  const byIdentity = (identity: string) => three.live().find((w) => w.identity === identity) ?? null;
  const kills: { worker: string; phase: string; inFlight: number; at: number }[] = [];

  // Kill -9 of a worker that runs paging calls: the sandbox has answered paging requests, and the
  // worker has a paging child's API activity started.
  const paging = await waitFor('a worker with paging calls in flight', async () => {
    const searches = three.sandbox.requestLog().filter((r) => r.operation.startsWith('search_')).length;
    if (searches < 2) return null;
    const started = (await startedActivities(bed.client, ids)).filter((a) =>
      a.workflowId.includes('/paging/'),
    );
    for (const a of started) {
      const w = byIdentity(a.identity);
      if (w) return { worker: w, inFlight: started.filter((x) => x.identity === a.identity).length };
    }
    return null;
  });
  await paging.worker.kill9();
  kills.push({
    worker: paging.worker.name,
    phase: 'paging',
    inFlight: paging.inFlight,
    at: Date.now() - started,
  });
  const replacements: Promise<WorkerProcess>[] = [three.startWorker('d')];

  // Kill -9 of the worker that renders (either run's render activity, whichever starts first).
  const rendering = await waitFor(
    'a worker rendering',
    async () => {
      const started = (await startedActivities(bed.client, ids)).filter((a) => /^render/.test(a.type));
      for (const a of started) {
        const w = byIdentity(a.identity);
        if (w) return { worker: w, type: a.type };
      }
      return null;
    },
    180_000,
  );
  await rendering.worker.kill9();
  kills.push({ worker: rendering.worker.name, phase: rendering.type, inFlight: 0, at: Date.now() - started });
  replacements.push(three.startWorker('e'));
  await Promise.all(replacements);

  const scaled = await outcome(three, await following, started);
  const scaledCalls = scaled.market.calls + scaled.prospects.calls;
  const stored = await storeKeys(bed, `${three.prefix}/reports/`);
  console.log(
    `[scale-out] three workers (started in ${workersMs} ms): ${scaled.requests} requests (${scaledCalls} calls needed), ${scaled.status429} x 429, kills ${JSON.stringify(kills)}, ${scaled.seconds.toFixed(1)} s; whole test ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );

  // Both runs complete, with the figures and files of the one-worker runs.
  for (const r of scaled.results) expect(r.partial, r.workflowId).toBe(false);
  expect(scaled.market.manifest).toEqual(base.market.manifest);
  expect(scaled.prospects.manifest).toEqual(base.prospects.manifest);
  expect(scaled.market.files).toEqual(base.market.files);
  expect(scaled.prospects.files).toEqual(base.prospects.files);
  // The balance checks beyond one a run: a paid call whose answer was lost with a killed worker
  // is reconciled with the balance (my_account) before it would be asked again.
  const reconciliations =
    scaled.market.accountChecks +
    scaled.prospects.accountChecks -
    base.market.accountChecks -
    base.prospects.accountChecks;
  const paidCalls = PAID_OPERATIONS.reduce((n, op) => n + (base.byOperation[op] ?? 0), 0);
  expect(reconciliations).toBeGreaterThanOrEqual(0);
  expect(reconciliations).toBeLessThanOrEqual(paidCalls);

  // The sandbox's log: no 429; every request is one of the runs' attempts (the killed workers'
  // included) or an account check; no paid call twice.
  expect(scaled.status429).toBe(0);
  const attempts = sumAttempts(scaled.market.attempts, scaled.prospects.attempts);
  for (const [op, n] of Object.entries(attempts)) expect(scaled.byOperation[op] ?? 0, op).toBe(n);
  // No credit spent twice: the account's balance ends where the one-worker runs left it (a paid
  // call whose answer was lost is reconciled first; a brief asked again is the free repeat).
  expect(scaled.creditsLeft).toBe(base.creditsLeft);
  // The bound: the requests of the one-worker runs, plus at most the API calls a killed worker
  // can have in flight (its maxConcurrentActivityTaskExecutions on the API queue) per kill.
  const bound = base.requests + kills.length * API_CALLS_PER_WORKER;
  expect(scaled.requests).toBeLessThanOrEqual(bound);
  console.log(
    `[scale-out] requests ${scaled.requests} <= ${base.requests} (one worker) + ${kills.length} kills x ${API_CALLS_PER_WORKER} = ${bound}; more than one worker's: ${scaled.requests - base.requests} (balance reconciliations ${reconciliations}); paid calls ${paidCalls} (sent: ${PAID_OPERATIONS.map((op) => `${op} ${scaled.byOperation[op] ?? 0}`).join(', ')}), credits left ${scaled.creditsLeft} = ${base.creditsLeft}`,
  );

  // The files and manifests are in the bucket.
  for (const r of scaled.results) {
    for (const url of [...Object.values(r.files), r.manifestPath]) {
      expect(stored, url).toContain(url.replace(/^s3:\/\/[^/]+\//, ''));
    }
  }
  expect(kills.map((k) => k.phase)).toEqual(['paging', expect.stringMatching(/^render/)]);
}, 300_000);
