/**
 * The runner on the local cluster (PostgreSQL and the Temporal server, scripts/cluster.sh):
 *  1. paging throughput with 1, 2 and 3 worker processes against a scaled-up limit: calls per
 *     minute during the paging phase as a share of the limit, and the 429s, both from the
 *     sandbox's own request log; the target is >= 95% with 0 x 429 whatever the worker count;
 *  2. orchestration overhead per API call (p50, p95) on the cluster beside the embedded dev
 *     server, from the workflow histories: schedule-to-start (queue latency), start-to-close
 *     minus the HTTP call's own duration (the account workflow's grant and report, the store
 *     write), and schedule-to-close minus the HTTP time (the whole overhead).
 *
 * The cluster comes up on free ports in a temporary folder; the worker processes share only
 * the claim-check store, an S3 bucket on a local versitygw (VIR_STORE_URL=s3://...), as
 * scaled-out workers do. Each worker count pages on a fresh sandbox (a fresh account window).
 *
 * Run alone: npm run bench:cluster (about 12 minutes on a loaded 2-core machine; a paging run
 * past 180 s is terminated, the overhead measurement stops at 240 s a server); also section 7
 * of npm run bench, which passes its embedded Temporal server for the comparison. Alone, the
 * embedded dev server is started here (runtime/local-stack.ts, the Temporal CLI's start-dev).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import proto from '@temporalio/proto';
import { startJobRun } from '../cli/run-job.js';
import { parseSmokeJob } from '../jobs/smoke/index.js';
import { clusterDown, clusterUp, findFreeClusterPorts, type Cluster } from '../runtime/cluster.js';
import { startDevS3, type DevS3 } from '../runtime/dev-s3.js';
import {
  startWorkerProcess,
  type WorkerProcess,
  type WorkerProcessOptions,
  type WorkerStoreSettings,
} from '../runtime/worker-processes.js';
import { startSandbox, type SandboxRequest } from '../sandbox/index.js';
import { progressQuery } from '../workflows/index.js';
import type { JobRunResult } from '../workflows/engine.js';
import { quietEmbeddedTemporal, withBenchRunner } from './harness.js';
import { pct, ratio } from './pacing.js';
import { benchSandbox, KEY, PAGING_COUNTRIES, pagingJob, type PagingBenchOptions } from './paging.js';

/** The service's 60 calls a minute scaled up 10x: 100 calls per 10-second window. */
const LIMIT_PER_WINDOW = 100;
const WINDOW_MS = 10_000;
const CAPS = { investors: 3000, startups: 5000 };
const WORKER_COUNTS = [1, 2, 3];
/** A paging run still going after this is terminated and reported as such (about 3x its time at the limit). */
const RUN_DEADLINE_MS = 180_000;
/** Target share of the limit during paging. */
const TARGET_SHARE = 0.95;
/** API calls whose overhead is measured on each server (after a warm-up run). */
const OVERHEAD_CALLS = 200;
/** The overhead measurement stops here with the calls it has (a stalled server still reports). */
const OVERHEAD_DEADLINE_MS = 240_000;
/** Records paged by each smoke run of the overhead measurement: 13 pages, 15 calls a run. */
const SMOKE_RECORDS = 1300;
/** The S3 bucket the worker processes share. */
const STORE_BUCKET = 'vir-store';

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const PASS = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/* ------------------------------------------------------------------------------------------ */
/* Worker processes                                                                            */
/* ------------------------------------------------------------------------------------------ */

/** N worker processes of the same settings, started and stopped together. */
interface WorkerFleet {
  workers: WorkerProcess[];
  stop(): Promise<void>;
}

/**
 * Starts `n` `vir worker` processes (runtime/worker-processes.ts: each in a folder of its own,
 * sharing only the S3 store) at once; resolves once all of them poll.
 */
async function startWorkerFleet(
  n: number,
  options: Omit<WorkerProcessOptions, 'name'>,
): Promise<WorkerFleet> {
  const starts = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => startWorkerProcess({ ...options, name: `w${i + 1}` })),
  );
  const workers = starts.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stop = async () => {
    await Promise.all(workers.map((w) => w.stop(20_000)));
    for (const w of workers) w.remove();
  };
  const failed = starts.find((r) => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { workers, stop };
}

/* ------------------------------------------------------------------------------------------ */
/* Paging throughput with 1, 2, 3 workers                                                      */
/* ------------------------------------------------------------------------------------------ */

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
      outcome: `terminated after ${s(deadlineMs)} (paging not done)`,
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
      outcome: `terminated after ${s(deadlineMs)} (after paging)`,
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

/** Lines of the workers' logs that say the account workflow was contended. */
function contention(fleet: WorkerFleet): {
  updatesRefused: number;
  tasksLost: number;
  activityFailures: number;
} {
  let updatesRefused = 0;
  let tasksLost = 0;
  let activityFailures = 0;
  for (const w of fleet.workers) {
    for (const line of w.log().split('\n')) {
      if (line.includes('concurrent in-flight updates')) updatesRefused += 1;
      else if (line.includes('Task not found when completing')) tasksLost += 1;
      else if (line.includes('"Activity failed"')) activityFailures += 1;
    }
  }
  return { updatesRefused, tasksLost, activityFailures };
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

/* ------------------------------------------------------------------------------------------ */
/* Orchestration overhead per call                                                             */
/* ------------------------------------------------------------------------------------------ */

export interface OverheadFigures {
  calls: number;
  /** Per API call (ms): ActivityTaskScheduled to ActivityTaskStarted. */
  scheduleToStart: number[];
  /** Per call: ActivityTaskStarted to ActivityTaskCompleted minus the HTTP call's own time. */
  inActivity: number[];
  /** Per call: ActivityTaskScheduled to ActivityTaskCompleted minus the HTTP call's own time. */
  total: number[];
  /** The HTTP calls' own durations (the client's, from the activity's result). */
  http: number[];
}

const EventType = proto.temporal.api.enums.v1.EventType;
const TIME_KEYS = ['scheduleToStart', 'inActivity', 'total', 'http'] as const;

function tsMs(ts: proto.google.protobuf.ITimestamp | null | undefined): number {
  if (!ts) throw new Error('event without a time');
  return Number(ts.seconds ?? 0) * 1000 + (ts.nanos ?? 0) / 1e6;
}

/**
 * The API calls (callApi activities) of one run's history and of its child workflows' (the
 * paged searches run as children), each with its times.
 */
async function callTimes(client: Client, handle: WorkflowHandle): Promise<Omit<OverheadFigures, 'calls'>> {
  const history = await handle.fetchHistory();
  const children: Omit<OverheadFigures, 'calls'>[] = [];
  for (const e of history.events ?? []) {
    const child = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
    if (e.eventType === EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED && child?.workflowId) {
      children.push(
        await callTimes(client, client.workflow.getHandle(child.workflowId, child.runId ?? undefined)),
      );
    }
  }
  const scheduled = new Map<string, number>();
  const started = new Map<string, number>();
  const out: Omit<OverheadFigures, 'calls'> = { scheduleToStart: [], inActivity: [], total: [], http: [] };
  for (const e of history.events ?? []) {
    const id = String(e.eventId);
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      if (e.activityTaskScheduledEventAttributes?.activityType?.name === 'callApi')
        scheduled.set(id, tsMs(e.eventTime));
    } else if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
      const a = e.activityTaskStartedEventAttributes!;
      const sid = String(a.scheduledEventId);
      // Retried attempts are not the orchestration's cost: only first attempts count.
      if (scheduled.has(sid) && (a.attempt ?? 1) === 1) started.set(sid, tsMs(e.eventTime));
    } else if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
      const a = e.activityTaskCompletedEventAttributes!;
      const sid = String(a.scheduledEventId);
      const sched = scheduled.get(sid);
      const start = started.get(sid);
      if (sched === undefined || start === undefined) continue;
      const payload = a.result?.payloads?.[0];
      const result = payload ? defaultPayloadConverter.fromPayload<{ durationMs?: number }>(payload) : null;
      if (typeof result?.durationMs !== 'number') continue;
      const done = tsMs(e.eventTime);
      out.scheduleToStart.push(start - sched);
      out.inActivity.push(done - start - result.durationMs);
      out.total.push(done - sched - result.durationMs);
      out.http.push(result.durationMs);
    }
  }
  for (const c of children) for (const k of TIME_KEYS) out[k].push(...c[k]);
  return out;
}

/**
 * Smoke runs one after another (my_account, 13 pages, up to 8 at once after the first, one
 * get_startup) on a sandbox without a practical limit, workers in this process, until
 * {@link OVERHEAD_CALLS} calls were made after a warm-up run; the per-call times from the runs'
 * histories.
 */
export async function measureOverhead(temporalAddress: string): Promise<OverheadFigures> {
  const sandbox = await startSandbox({
    port: 0,
    rateLimitPerMinute: 1_000_000,
    rateLimitPerDay: 10_000_000,
  });
  try {
    return await withBenchRunner(
      temporalAddress,
      sandbox.url,
      KEY,
      { VIR_RATE_LIMIT_PER_MINUTE: '100000' },
      async ({ client, settings, dir }) => {
        const all: Omit<OverheadFigures, 'calls'> = {
          scheduleToStart: [],
          inActivity: [],
          total: [],
          http: [],
        };
        const deadline = Date.now() + OVERHEAD_DEADLINE_MS;
        for (let i = 0; all.total.length < OVERHEAD_CALLS && Date.now() < deadline; i++) {
          const job = parseSmokeJob({
            id: `bench-overhead-${i}`,
            title: `Overhead benchmark ${i}`,
            country: 'United States',
            records: SMOKE_RECORDS,
            destination: join(dir, 'reports'),
          });
          const handle = await startJobRun(client, settings, job);
          const result = (await handle.result()) as JobRunResult;
          if (result.partial) throw new Error(`overhead run partial: ${result.reasons.join('; ')}`);
          if (i === 0) continue; // warm-up: the first run's workflow and account start
          const t = await callTimes(client, handle);
          for (const k of TIME_KEYS) all[k].push(...t[k]);
        }
        return { calls: all.total.length, ...all };
      },
    );
  } finally {
    await sandbox.close();
  }
}

function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

const ms1 = (x: number) => `${x.toFixed(1)} ms`;

/* ------------------------------------------------------------------------------------------ */
/* The section                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/**
 * Brings the cluster and the S3 store up, prints both measurements, takes everything down.
 * `embeddedAddress`: the embedded dev server to compare with (bench/run.ts passes its own);
 * `onInterrupt`: what else to close when SIGINT or SIGTERM stops the section (it then exits).
 */
export async function reportCluster(
  embeddedAddress: string,
  { onInterrupt }: { onInterrupt?: () => Promise<void> } = {},
): Promise<void> {
  const sectionStart = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'vir-bench-cluster-'));
  let clusterOptions: { dir: string; pgPort: number; temporalPort: number } | null = null;
  let s3: DevS3 | null = null;
  let connection: Connection | null = null;
  let onSignal: ((signal: NodeJS.Signals) => void) | null = null;
  try {
    // mkdtemp makes the folder 0700; PostgreSQL runs as its own OS user when this is root.
    chmodSync(dir, 0o755);
    clusterOptions = { dir: join(dir, 'cluster'), ...(await findFreeClusterPorts()) };
    const downOnSignal = clusterOptions;
    onSignal = (signal: NodeJS.Signals) => {
      // Worker processes and versitygw are killed by their own exit hooks; the cluster is not.
      console.error(`${signal}: taking the cluster down`);
      void clusterDown(downOnSignal, { purge: true })
        .catch(() => undefined)
        .then(() => onInterrupt?.())
        .catch(() => undefined)
        .finally(() => {
          rmSync(dir, { recursive: true, force: true });
          process.exit(130);
        });
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const cluster = await clusterUp(clusterOptions);
    s3 = await startDevS3({ dataDir: join(dir, 's3'), port: 0, bucket: STORE_BUCKET, dieWithParent: true });
    console.log(
      `cluster up in ${s(cluster.ms)} at ${cluster.address} (PostgreSQL on ${cluster.pgPort}); the workers' store s3://${STORE_BUCKET}/ on versitygw ${s3.endpoint}`,
    );
    connection = await Connection.connect({ address: cluster.address });
    const client = new Client({ connection, namespace: cluster.namespace });
    const store = {
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      region: s3.region,
    };

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

    console.log(
      `\n== Orchestration overhead per API call: the cluster beside the embedded dev server (${OVERHEAD_CALLS}+ calls each, no practical limit) ==`,
    );
    const embedded = await measureOverhead(embeddedAddress);
    const onCluster = await measureOverhead(cluster.address);
    const rows: [string, keyof Omit<OverheadFigures, 'calls'>][] = [
      ['schedule-to-start (queue latency)', 'scheduleToStart'],
      ['start-to-close minus HTTP', 'inActivity'],
      ['schedule-to-close minus HTTP (overhead)', 'total'],
      ['HTTP call itself', 'http'],
    ];
    console.log(`(from the runs' histories; HTTP time = the client's duration in the activity's result)`);
    console.log(
      `${'per call'.padEnd(40)} ${'embedded p50'.padStart(12)} ${'p95'.padStart(9)}   ${'cluster p50'.padStart(11)} ${'p95'.padStart(9)}   ratio p50  p95`,
    );
    for (const [label, k] of rows) {
      const e50 = quantile(embedded[k], 0.5);
      const e95 = quantile(embedded[k], 0.95);
      const c50 = quantile(onCluster[k], 0.5);
      const c95 = quantile(onCluster[k], 0.95);
      console.log(
        `${label.padEnd(40)} ${ms1(e50).padStart(12)} ${ms1(e95).padStart(9)}   ${ms1(c50).padStart(11)} ${ms1(c95).padStart(9)}   ${ratio(c50, e50).padStart(9)} ${ratio(c95, e95).padStart(5)}`,
      );
    }
    console.log(`calls measured: embedded ${embedded.calls}, cluster ${onCluster.calls}`);
  } finally {
    if (onSignal) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await connection?.close().catch(() => undefined);
    await s3?.close().catch(() => undefined);
    if (clusterOptions) {
      const down = await clusterDown(clusterOptions, { purge: true }).catch((err: unknown) => err);
      if (down instanceof Error) console.error(`cluster down failed: ${down.message}`);
    }
    rmSync(dir, { recursive: true, force: true });
    console.log(`(cluster section took ${s(Date.now() - sectionStart)})`);
  }
}

/** Alone: the embedded dev server for the comparison, then the section. */
async function main(): Promise<void> {
  const { stack, sdkWarnings } = await quietEmbeddedTemporal();
  try {
    await reportCluster(stack.temporalAddress, { onInterrupt: () => stack.close() });
    console.log(`\n(the Temporal SDK logged ${sdkWarnings()} warnings, not shown)`);
  } finally {
    await stack.close();
  }
}

if (process.argv[1]?.endsWith('bench/cluster.ts')) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
