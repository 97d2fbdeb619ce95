/**
 * Paging throughput on the cluster with 1, 2 and 3 worker processes against a scaled-up limit:
 * calls per minute during the paging phase as a share of the limit, and the 429s, both from the
 * sandbox's own request log; the target is >= 95% with 0 x 429 whatever the worker count. Each
 * worker count pages on a fresh sandbox (a fresh account window).
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { startJobRun } from '../cli/run-job.js';
import type { Cluster } from '../runtime/cluster.js';
import type { WorkerStoreSettings } from '../runtime/worker-processes.js';
import type { SandboxRequest } from '../sandbox/index.js';
import { progressQuery } from '../workflows/index.js';
import type { JobRunResult } from '../workflows/engine.js';
import { pct, ratio } from './pacing.js';
import { benchSandbox, KEY, PAGING_COUNTRIES, pagingJob, type PagingBenchOptions } from './paging.js';
import { contention, startWorkerFleet, type WorkerFleet } from './worker-fleet.js';

/** The service's 60 calls a minute scaled up 10x: 100 calls per 10-second window. */
const LIMIT_PER_WINDOW = 100;
const WINDOW_MS = 10_000;
const CAPS = { investors: 3000, startups: 5000 };
const WORKER_COUNTS = [1, 2, 3];
/** A paging run still going after this is terminated and reported as such (about 3x its time at the limit). */
const RUN_DEADLINE_MS = 180_000;
/** Target share of the limit during paging. */
const TARGET_SHARE = 0.95;
/** The S3 bucket the worker processes share. */
export const STORE_BUCKET = 'vir-store';

/** A duration in seconds, one decimal ("12.3 s"). */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const PASS = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

export interface ClusterPagingFigures {
  workers: number;
  /** Calls the service took during the paging phase (429s not counted). */
  calls: number;
  /** Length of the paging phase (ms), from the run's progress. */
  ms: number;
  callsPerMinute: number;
  share: number;
  /** 429s the sandbox answered during the whole run. */
  rateLimited: number;
  /** Calls of the whole run, and its wall time (ms). */
  runCalls: number;
  runMs: number;
  /** The sandbox's windows that held paging calls (the last, where paging ran out, left out). */
  windows: number[];
  /** How the run ended: ok, partial, failed, terminated at the deadline. */
  outcome: string;
  /** Whether the run got past its paging phase (what is measured), however it ended after. */
  pagingDone: boolean;
  /** Workers' log lines: account updates refused by the server (in-flight limit), workflow tasks lost, activities failed. */
  updatesRefused: number;
  tasksLost: number;
  activityFailures: number;
}

/**
 * Polls the run's progress until it finishes or `deadlineMs` passes (then the run is
 * terminated); returns when the paging phase started and ended (its end the deadline when the
 * run did not get past paging), and how the run ended.
 */
async function pagingPhase(
  handle: WorkflowHandle,
  deadlineMs: number,
): Promise<{ start: number | null; end: number | null; pagingDone: boolean; outcome: string }> {
  let start: number | null = null;
  let end: number | null = null;
  let finished = false;
  const deadline = Date.now() + deadlineMs;
  const done = handle.result().finally(() => (finished = true));
  done.catch(() => undefined);
  while (!finished && end === null && Date.now() < deadline) {
    const p = await handle.query(progressQuery).catch(() => null);
    const t = Date.now();
    if (p && p.phase === 'paging' && start === null) start = t;
    if (p && start !== null && p.phase !== 'paging') end = t;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (end === null && !finished) {
    await handle.terminate('cluster benchmark: past its deadline').catch(() => undefined);
    return {
      start,
      end: Date.now(),
      pagingDone: false,
      outcome: `terminated after ${seconds(deadlineMs)} (paging not done)`,
    };
  }
  const remaining = Math.max(1, deadline - Date.now());
  const outcome = await Promise.race([
    done.then(
      (r) => ((r as JobRunResult).partial ? `partial: ${(r as JobRunResult).reasons.join('; ')}` : 'ok'),
      (err: unknown) => `failed: ${failureChain(err)}`,
    ),
    new Promise<string>((r) => setTimeout(() => r('timeout'), remaining)),
  ]);
  if (outcome === 'timeout') {
    await handle.terminate('cluster benchmark: past its deadline').catch(() => undefined);
    return {
      start,
      end,
      pagingDone: end !== null,
      outcome: `terminated after ${seconds(deadlineMs)} (after paging)`,
    };
  }
  return { start, end, pagingDone: end !== null, outcome };
}

/** An error's message and its causes' ("Workflow execution failed: Activity task timed out: ..."). */
function failureChain(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.join(': ');
}

/** The sandbox's windows (a window starts with the first call at or after the previous one's end). */
function windowsOf(log: SandboxRequest[], windowMs: number): { start: number; calls: number }[] {
  const out: { start: number; calls: number }[] = [];
  for (const r of log) {
    if (r.status === 429) continue;
    const last = out.at(-1);
    if (last && r.at < last.start + windowMs) last.calls += 1;
    else out.push({ start: r.at, calls: 1 });
  }
  return out;
}

async function pagingWith(
  workers: number,
  client: Client,
  cluster: Cluster,
  store: Omit<WorkerStoreSettings, 'url'>,
): Promise<ClusterPagingFigures> {
  const o: PagingBenchOptions = {
    temporalAddress: cluster.address,
    countries: PAGING_COUNTRIES,
    limitPerWindow: LIMIT_PER_WINDOW,
    windowMs: WINDOW_MS,
    caps: CAPS,
  };
  const { sandbox, perMinute } = await benchSandbox(o);
  const tag = `${process.pid}-${workers}w`;
  const queues = {
    jobs: `bench-cluster-jobs-${tag}`,
    api: `bench-cluster-api-${tag}`,
    accounts: `bench-cluster-accounts-${tag}`,
  };
  let fleet: WorkerFleet | null = null;
  try {
    fleet = await startWorkerFleet(workers, {
      temporalAddress: cluster.address,
      namespace: cluster.namespace,
      serviceUrl: sandbox.url,
      apiKey: KEY,
      queues,
      rateLimitPerMinute: perMinute,
      store: { ...store, url: `s3://${STORE_BUCKET}/paging-${tag}` },
    });
    const settings = { taskQueue: queues.jobs, apiTaskQueue: queues.api };
    const started = Date.now();
    const handle = await startJobRun(client, settings, pagingJob(o));
    const phase = await pagingPhase(handle, RUN_DEADLINE_MS);
    const runMs = Date.now() - started;
    const log = sandbox.requestLog();
    const taken = log.filter((r) => r.status !== 429);
    // A run that never reported its paging phase: the sandbox's first and last call.
    const pStart = phase.start ?? taken[0]?.at ?? started;
    const pEnd = phase.end ?? taken.at(-1)?.at ?? Date.now();
    const calls = taken.filter((r) => r.at >= pStart && r.at <= pEnd).length;
    const ms = pEnd - pStart;
    const callsPerMinute = (calls / ms) * 60_000;
    const pagingCalls = taken.filter((r) => r.operation.startsWith('search_'));
    const lastPaging = pagingCalls.at(-1)?.at ?? 0;
    const windows = windowsOf(log, WINDOW_MS)
      .filter((w) => pagingCalls.some((r) => r.at >= w.start && r.at < w.start + WINDOW_MS))
      .filter((w) => lastPaging >= w.start + WINDOW_MS)
      .map((w) => w.calls);
    if (process.env.VIR_BENCH_DEBUG === '1') {
      const t0 = log[0]?.at ?? 0;
      console.log(
        `  [${workers}w] paging ${pStart - t0}..${pEnd - t0} ms; windows ${windowsOf(log, WINDOW_MS)
          .map((w) => `${w.start - t0}:${w.calls}`)
          .join(' ')}`,
      );
    }
    return {
      workers,
      calls,
      ms,
      callsPerMinute,
      share: callsPerMinute / perMinute,
      rateLimited: log.length - taken.length,
      runCalls: taken.length,
      runMs,
      windows,
      outcome: phase.outcome,
      pagingDone: phase.pagingDone,
      ...contention(fleet),
    };
  } finally {
    await fleet?.stop();
    await sandbox.close();
  }
}

/**
 * Pages with 1, 2 and 3 worker processes on the cluster, each count on a fresh sandbox, and
 * prints the figures and whether each met the target. `store`: the S3 store the worker
 * processes share (in the bucket {@link STORE_BUCKET}).
 */
export async function reportPaging(
  client: Client,
  cluster: Cluster,
  store: Omit<WorkerStoreSettings, 'url'>,
): Promise<void> {
  console.log(
    `\n== Paging on the cluster with 1, 2 and 3 workers (${PAGING_COUNTRIES.length} countries; sandbox limit ${LIMIT_PER_WINDOW} calls per ${WINDOW_MS / 1000} s = ${(LIMIT_PER_WINDOW * 60_000) / WINDOW_MS}/min) ==`,
  );
  const paging: ClusterPagingFigures[] = [];
  for (const n of WORKER_COUNTS) {
    const f = await pagingWith(n, client, cluster, store);
    paging.push(f);
    if (process.env.VIR_BENCH_DEBUG === '1') console.log(`  [${n}w] done: ${JSON.stringify(f)}`);
  }
  console.log(
    `(workers: vir worker processes, each in a folder of its own, sharing the S3 store; calls and 429s from the sandbox's request log; seconds: the paging phase, from the run's progress)`,
  );
  console.log(
    "workers   calls   seconds   calls/min   share of limit   429s   paging   run     account updates refused / workflow tasks lost / activities failed (workers' logs)",
  );
  for (const f of paging) {
    console.log(
      `${String(f.workers).padStart(7)}   ${String(f.calls).padStart(5)}   ${(f.ms / 1000).toFixed(1).padStart(7)}   ${f.callsPerMinute.toFixed(0).padStart(9)}   ${pct(f.share).padStart(14)}   ${String(f.rateLimited).padStart(4)}   ${(f.pagingDone ? 'done' : 'NOT done').padEnd(8)} ${(f.outcome === 'ok' ? 'ok' : 'NOT ok').padEnd(7)} ${f.updatesRefused} / ${f.tasksLost} / ${f.activityFailures}`,
    );
  }
  for (const f of paging) {
    if (f.outcome !== 'ok') console.log(`  ${f.workers} worker(s): the run ${f.outcome}`);
  }
  const base = paging[0]!;
  for (const f of paging) {
    const ok = f.share >= TARGET_SHARE && f.rateLimited === 0 && f.pagingDone;
    console.log(
      `${PASS(ok)}  ${f.workers} worker${f.workers > 1 ? 's' : ' '}: share ${pct(f.share)} (target >= ${pct(TARGET_SHARE)}), ${f.rateLimited} x 429 (target 0), paging ${f.pagingDone ? 'done' : 'NOT done'}; share against 1 worker ${ratio(f.share, base.share)}`,
    );
  }
}
