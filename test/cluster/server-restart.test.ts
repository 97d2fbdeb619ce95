/**
 * The Temporal server process restarts (scripts/cluster.sh restart-server; PostgreSQL keeps
 * running) while a market report and a prospect list page on two worker processes. The workers
 * reconnect by themselves, the runs complete, and the sandbox's log shows no 429, every request
 * among the runs' attempts, and no credit charged that the runs' books do not count (the
 * account's balance moved by exactly the credits the manifests say were charged).
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { followRun } from '../../cli/run-job.js';
import { restartClusterServer } from '../../runtime/cluster.js';
import { QUIET } from '../helpers/runner.js';
import {
  creditsLeft,
  PAID_OPERATIONS,
  requestsByOperation,
  runFigures,
  startClusterBed,
  startScenario,
  sumAttempts,
  waitFor,
  type ClusterBed,
  type Scenario,
} from './bed.js';

let bed: ClusterBed;
let scenario: Scenario | undefined;

beforeAll(async () => {
  bed = await startClusterBed();
});

afterAll(async () => {
  await scenario?.close().catch((err: unknown) => console.error(err));
  await bed?.close();
});

test('the Temporal server restarted mid-run: both runs complete, no credit charged twice', async () => {
  const t0 = Date.now();
  const cluster = inject('cluster');
  const s = (scenario = await startScenario(bed, 'restart'));
  const workers = await Promise.all(['a', 'b'].map((label) => s.startWorker(label)));
  const creditsBefore = creditsLeft(s.sandbox);
  const runs = await s.startRuns();
  const following = Promise.all([followRun(runs.market, QUIET), followRun(runs.prospects, QUIET)]);
  following.catch(() => undefined);

  await waitFor('paging requests', async () =>
    s.sandbox.requestLog().filter((r) => r.operation.startsWith('search_')).length >= 4 ? true : null,
  );
  const requestsAtRestart = s.sandbox.requestLog().length;
  const restarted = await restartClusterServer({
    dir: cluster.dir,
    pgPort: cluster.pgPort,
    temporalPort: cluster.temporalPort,
  });
  const results = await following;
  for (const r of results) expect(r.partial, r.workflowId).toBe(false);
  // The workers lived through it.
  for (const w of workers) expect(w.running(), w.name).toBe(true);

  const [market, prospects] = [await runFigures(bed, results[0]), await runFigures(bed, results[1])];
  const log = s.sandbox.requestLog();
  const byOperation = requestsByOperation(log);
  expect(log.filter((r) => r.status === 429)).toEqual([]);
  expect(byOperation).toEqual(sumAttempts(market.attempts, prospects.attempts));
  const charged = (m: Record<string, unknown>) => (m.credits as { charged: number }).charged;
  expect(creditsBefore - creditsLeft(s.sandbox)).toBe(charged(market.manifest) + charged(prospects.manifest));
  const needed = market.calls + prospects.calls;
  console.log(
    `[server-restart] restart-server ${restarted.ms} ms at request ${requestsAtRestart}; ${log.length} requests, ${needed} calls needed (repeated ${log.length - needed}), paid ${PAID_OPERATIONS.map((op) => `${op} ${byOperation[op] ?? 0}`).join(', ')}, credits charged ${creditsBefore - creditsLeft(s.sandbox)}, 0 x 429; whole test ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}, 300_000);
