/**
 * Orchestration overhead per API call (p50, p95) on a Temporal server, from the workflow
 * histories: schedule-to-start (queue latency), start-to-close minus the HTTP call's own
 * duration (the account workflow's grant and report, the store write), and schedule-to-close
 * minus the HTTP time (the whole overhead). The cluster benchmark measures it on the cluster
 * beside the embedded dev server.
 */
import { join } from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import proto from '@temporalio/proto';
import { startJobRun } from '../cli/run-job.js';
import { parseSmokeJob } from '../jobs/smoke/index.js';
import { startSandbox } from '../sandbox/index.js';
import type { JobRunResult } from '../workflows/engine.js';
import { withBenchRunner } from './harness.js';
import { ratio } from './pacing.js';
import { KEY } from './paging.js';

/** API calls whose overhead is measured on each server (after a warm-up run). */
const OVERHEAD_CALLS = 200;
/** The overhead measurement stops here with the calls it has (a stalled server still reports). */
const OVERHEAD_DEADLINE_MS = 240_000;
/** Records paged by each smoke run of the overhead measurement: 13 pages, 15 calls a run. */
const SMOKE_RECORDS = 1300;

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

/**
 * Measures the overhead on the embedded dev server at `embeddedAddress` and on the cluster at
 * `clusterAddress`, and prints both side by side.
 */
export async function reportOverhead(embeddedAddress: string, clusterAddress: string): Promise<void> {
  console.log(
    `\n== Orchestration overhead per API call: the cluster beside the embedded dev server (${OVERHEAD_CALLS}+ calls each, no practical limit) ==`,
  );
  const embedded = await measureOverhead(embeddedAddress);
  const onCluster = await measureOverhead(clusterAddress);
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
}
