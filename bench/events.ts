/**
 * What one API call costs the cluster: a 3-country market report (the demo's job) run against a
 * sandbox without a practical limit, then read back from Temporal's own histories and the
 * sandbox's request log:
 *
 * - history events per API call: every event of the run, of its child workflows and of the
 *   account workflow (all its runs since the scenario began), over the requests the sandbox saw;
 * - account updates per call: the account workflow's accepted updates over the same requests;
 * - orchestration overhead per call (p50, p95): an API activity's schedule-to-close time minus
 *   the HTTP call's own time, from the histories.
 *
 * The scenario runs once per account design (`VIR_ACCOUNT_PERMITS`: `call`, one update and one
 * signal per call, the design before; `block`, permits in blocks), each on a sandbox of its own
 * (so a fresh account workflow) on the same embedded server.
 */
import { join } from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import proto from '@temporalio/proto';
import { parseMarketReportJob } from '../jobs/market-report/index.js';
import { startJobRun } from '../cli/run-job.js';
import { accountIdOf } from '../activities/account.js';
import type { JobRunResult } from '../workflows/engine.js';
import { startSandbox } from '../sandbox/index.js';
import type { BaselineFigures } from './baseline.js';
import { withBenchRunner } from './harness.js';

const EventType = proto.temporal.api.enums.v1.EventType;

export interface EventFigures {
  design: string;
  /** Requests the sandbox received during the run. */
  calls: number;
  /** History events of the run, its children and the account workflow. */
  events: { run: number; children: number; account: number };
  /** Updates the account workflow accepted during the run. */
  updates: number;
  /** Signals the account workflow received during the run. */
  signals: number;
  /** Per API call (ms): schedule-to-close minus the HTTP call's own time. */
  overhead: number[];
}

/** The demo's weekly report: three countries, paged, three of each enriched, two questions. */
function demoJob(destination: string, i: number) {
  return parseMarketReportJob({
    id: `bench-events-${i}`,
    title: 'Events benchmark',
    countries: ['United States', 'United Kingdom', 'Germany'],
    top: { investors: 10, startups: 10 },
    paging: { maxInvestorsPerCountry: 200, maxStartupsPerCountry: 200 },
    enrich: { investors: 3, startups: 3 },
    questions: ['largest rounds of the last 7 days in {country}', 'most active seed investors in {country}'],
    budget: { credits: 100 },
    destination,
  });
}

function tsMs(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  if (!ts) return 0;
  return Number(ts.seconds ?? 0) * 1000 + (ts.nanos ?? 0) / 1e6;
}

/** A history's events, its API calls' overheads, and its children's handles. */
async function readHistory(client: Client, handle: WorkflowHandle) {
  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  const children: WorkflowHandle[] = [];
  const scheduled = new Map<string, number>();
  const overhead: number[] = [];
  for (const e of events) {
    const child = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
    if (e.eventType === EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED && child?.workflowId)
      children.push(client.workflow.getHandle(child.workflowId, child.runId ?? undefined));
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      if (e.activityTaskScheduledEventAttributes?.activityType?.name === 'callApi')
        scheduled.set(String(e.eventId), tsMs(e.eventTime));
    }
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
      const a = e.activityTaskCompletedEventAttributes!;
      const sched = scheduled.get(String(a.scheduledEventId));
      const payload = a.result?.payloads?.[0];
      if (sched === undefined || !payload) continue;
      const result = defaultPayloadConverter.fromPayload<{ durationMs?: number }>(payload);
      if (typeof result?.durationMs === 'number')
        overhead.push(tsMs(e.eventTime) - sched - result.durationMs);
    }
  }
  return { events: events.length, children, overhead };
}

/** Events, updates and signals of every run of the account workflow (continued as new included). */
async function accountEvents(client: Client, accountId: string) {
  let events = 0;
  let updates = 0;
  let signals = 0;
  for await (const w of client.workflow.list({ query: `WorkflowId = '${accountId}'` })) {
    const h = await client.workflow.getHandle(accountId, w.runId).fetchHistory();
    for (const e of h.events ?? []) {
      events += 1;
      if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED) updates += 1;
      if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) signals += 1;
    }
  }
  return { events, updates, signals };
}

/**
 * Runs the demo's report with the account design `design` on a sandbox of its own (so a fresh
 * account workflow, whose every event the run caused) and reads what it cost.
 */
export async function measureEvents(temporalAddress: string, design: string): Promise<EventFigures> {
  const sandbox = await startSandbox({ port: 0, rateLimitPerMinute: 1_000_000, rateLimitPerDay: 10_000_000 });
  const key = 'vis_live_sandbox_vc';
  try {
    return await withBenchRunner(
      temporalAddress,
      sandbox.url,
      key,
      { VIR_RATE_LIMIT_PER_MINUTE: '100000', VIR_ACCOUNT_PERMITS: design },
      async ({ client, settings, dir }) => {
        const accountId = accountIdOf(settings.visBaseUrl, key);
        // A warm-up run first, as a scheduled job meets a worker that has run before: the
        // worker's first activities, connections and the account workflow's start are not what a
        // call costs. Its events are left out (the account's are counted from after it).
        const warm = await startJobRun(client, settings, demoJob(join(dir, 'reports'), 0));
        await warm.result();
        const accountBefore = await accountEvents(client, accountId);
        const from = sandbox.requestLog().length;
        const handle = await startJobRun(client, settings, demoJob(join(dir, 'reports'), 1));
        const result = (await handle.result()) as JobRunResult;
        if (result.partial) throw new Error(`events run partial: ${result.reasons.join('; ')}`);
        const calls = sandbox.requestLog().length - from;
        const run = await readHistory(client, handle);
        let children = 0;
        const overhead = [...run.overhead];
        for (const c of run.children) {
          const h = await readHistory(client, c);
          children += h.events;
          overhead.push(...h.overhead);
        }
        const account = await accountEvents(client, accountId);
        return {
          design,
          calls,
          events: { run: run.events, children, account: account.events - accountBefore.events },
          updates: account.updates - accountBefore.updates,
          signals: account.signals - accountBefore.signals,
          overhead,
        };
      },
    );
  } finally {
    await sandbox.close();
  }
}

export function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Events per call of a measurement (run, children and account together). */
export function eventsPerCall(f: EventFigures): number {
  return (f.events.run + f.events.children + f.events.account) / f.calls;
}

/** The targets for the block design: events and updates per call, overhead p50 (ms). */
export const TARGETS = { eventsPerCall: 7, updatesPerCall: 0.25, overheadP50Ms: 40 };

/**
 * Measures the design before (`baseline`: the commit before this work, bench/baseline.ts) and
 * today's with both account designs (`call`: one update and one signal per call; `block`:
 * permits in blocks) on the same server and prints them side by side with the targets;
 * `overhead` measures one design's orchestration overhead per call (the smoke runs of
 * bench/cluster-overhead.ts).
 */
export async function reportEvents(
  temporalAddress: string,
  overhead: (design: string) => Promise<number[]>,
  baseline: BaselineFigures | string,
): Promise<void> {
  const figures: EventFigures[] = [];
  const overheads: number[][] = [];
  if (typeof baseline === 'string') console.log(`\n(no baseline column: ${baseline})`);
  else {
    figures.push(baseline.events);
    overheads.push(baseline.overhead);
  }
  for (const design of ['call', 'block']) {
    figures.push(await measureEvents(temporalAddress, design));
    overheads.push(await overhead(design));
  }
  printEvents(figures);
  const row = (label: string, cells: string[]) =>
    console.log(`${label.padEnd(36)}${cells.map((c) => c.padStart(16)).join('')}`);
  row(
    'smoke overhead per call p50',
    overheads.map((o) => `${quantile(o, 0.5).toFixed(1)} ms`),
  );
  row(
    'smoke overhead per call p95',
    overheads.map((o) => `${quantile(o, 0.95).toFixed(1)} ms`),
  );
  const block = figures.at(-1)!;
  const before = figures[0]!;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const events = eventsPerCall(block);
  const updates = block.updates / block.calls;
  const p50 = quantile(block.overhead, 0.5);
  const smokeP50 = quantile(overheads.at(-1)!, 0.5);
  console.log(
    `ratio   block/${before.design}: events per call ${(events / eventsPerCall(before)).toFixed(2)}, updates per call ${(updates / (before.updates / before.calls)).toFixed(2)}, overhead p50 ${(p50 / quantile(before.overhead, 0.5)).toFixed(2)} (smoke runs ${(smokeP50 / quantile(overheads[0]!, 0.5)).toFixed(2)})`,
  );
  console.log(
    `targets events/call <= ${TARGETS.eventsPerCall}: ${met(events <= TARGETS.eventsPerCall)}; updates/call <= ${TARGETS.updatesPerCall}: ${met(updates <= TARGETS.updatesPerCall)}; overhead p50 <= ${TARGETS.overheadP50Ms} ms: ${met(p50 <= TARGETS.overheadP50Ms)} (smoke runs: ${met(smokeP50 <= TARGETS.overheadP50Ms)})`,
  );
}

/** Prints the designs side by side. */
export function printEvents(figures: EventFigures[]): void {
  console.log('\n== What one API call costs the cluster (3-country market report) ==');
  const row = (label: string, cell: (f: EventFigures) => string) =>
    console.log(`${label.padEnd(36)}${figures.map((f) => cell(f).padStart(16)).join('')}`);
  row('account design', (f) => f.design);
  row('API calls (sandbox log)', (f) => String(f.calls));
  row('events: run / children / account', (f) => `${f.events.run}/${f.events.children}/${f.events.account}`);
  row('history events per call', (f) => eventsPerCall(f).toFixed(2));
  row('account updates per call', (f) => (f.updates / f.calls).toFixed(3));
  row('account signals per call', (f) => (f.signals / f.calls).toFixed(3));
  row('overhead per call p50', (f) => `${quantile(f.overhead, 0.5).toFixed(1)} ms`);
  row('overhead per call p95', (f) => `${quantile(f.overhead, 0.95).toFixed(1)} ms`);
}
