/**
 * The daily limit's decisions in real runs on the time-skipping server (the kinds' workflows,
 * the real run activities, the real API activity against a sandbox over HTTP): a call the daily
 * limit refuses (a page, in a paging child, or a call of the run itself) is waited out on a
 * durable timer until the reset, ten hours on the server's clock, the run's progress saying until
 * when, and then asked again; a run needing more calls than the day has left waits for the next
 * day before its first call. The sandbox's request log witnesses what reached the service: every
 * call once, none sent early. The end-to-end tests keep what only real time and real workers
 * show (the sandbox's own day refusing, a restart during the wait, two runs sharing a day).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { parseProspectListJob, type ProspectListResult } from '../../../jobs/prospect-list/index.js';
import { closedStatus } from '../../../jobs/prospect-list/rules.js';
import { parseSmokeJob } from '../../../jobs/smoke/index.js';
import { smokeMaxCalls } from '../../../jobs/smoke/workflow.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import type { JobRunResult } from '../../../workflows/engine.js';
import { describePhase, progressQuery, type RunProgress } from '../../../workflows/index.js';
import { callSandbox, KEYS, startFixedDateSandbox } from '../../helpers/sandbox.js';
import { skippingRunBed, until, type SkippingRunBed } from '../../helpers/skipping-runs.js';
import { startTimeSkipping } from '../../helpers/time-skipping.js';

/** The time-skipping test server's start (and the sandbox's), with margin for a loaded machine. */
const SERVER_START_MS = 120_000;
const HOUR = 3_600_000;
const E = temporal.api.enums.v1.EventType;

let env: TestWorkflowEnvironment;
let sandbox: RunningSandbox;
const beds: SkippingRunBed[] = [];

beforeAll(async () => {
  [env, sandbox] = await Promise.all([startTimeSkipping(), startFixedDateSandbox()]);
}, SERVER_START_MS);
afterAll(async () => {
  for (const b of beds) b.close();
  await env?.teardown();
  await sandbox?.close();
});

const bed = async (...args: Parameters<typeof skippingRunBed>[1][]) => {
  const b = await skippingRunBed(env, args[0]!);
  beds.push(b);
  return b;
};

/** The progress once it shows a daily-limit wait other than `not`. */
const waitSeen = (h: WorkflowHandle, not: string | null = null) =>
  until<RunProgress>(async () => {
    const p = await h.query(progressQuery);
    return p.waitingUntil !== null && p.waitingUntil !== not ? p : null;
  }, 'daily-limit wait in the progress');

const eventsOf = async (h: WorkflowHandle) => (await h.fetchHistory()).events ?? [];
const timersIn = async (h: WorkflowHandle) =>
  (await eventsOf(h)).filter((e) => e.eventType === E.EVENT_TYPE_TIMER_STARTED).length;
/** Timers in the histories of the run's paging children (their ids from the run's history). */
async function childTimers(h: WorkflowHandle): Promise<number> {
  let timers = 0;
  for (const e of await eventsOf(h)) {
    const id = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
    if (id) timers += await timersIn(env.client.workflow.getHandle(id));
  }
  return timers;
}

/** The sandbox's log of the calls made with `key` since `from` entries, by operation. */
function loggedSince(from: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of sandbox.requestLog().slice(from))
    out[r.operation ?? '?'] = (out[r.operation ?? '?'] ?? 0) + 1;
  return out;
}

describe('the daily limit on the time-skipping server', () => {
  it('a refused page and a refused call of the run each wait for their reset, then are asked again', async () => {
    const b = await bed({
      sandbox,
      key: KEYS.vc,
      name: 'smoke-wait',
      // The second page and the profile, each refused once: ten hours and eleven hours.
      refuse: (i, prev) => {
        const again = prev.some((c) => c.input.name === i.name);
        if (again) return null;
        if (i.operation === 'search_startups' && (i.params as { offset?: number }).offset === 100)
          return 10 * HOUR;
        if (i.operation === 'get_startup') return 11 * HOUR;
        return null;
      },
    });
    const from = sandbox.requestLog().length;
    const job = parseSmokeJob({
      id: 'skip-daily',
      title: 'Daily limit',
      country: 'Germany',
      // Six pages: a stream this long is paged in a child workflow (short ones in the run).
      records: 600,
      destination: `${b.dir}/reports`,
    });
    const result = await b.running(async () => {
      const h = await b.start(job);
      // The paging child's wait reaches the run's progress, in its paging phase.
      const paging = await waitSeen(h);
      const pageRefusal = b.calls.find((c) => c.refusedUntil !== null)!;
      expect(pageRefusal.input.operation).toBe('search_startups');
      expect(paging.phase).toBe('paging');
      expect(paging.waitingUntil).toBe(new Date(pageRefusal.refusedUntil!).toISOString());
      expect(describePhase(paging)).toBe(`waiting for the daily limit until ${paging.waitingUntil}`);
      // Nothing of the refused page reached the service while it waits.
      const pagesSent = loggedSince(from).search_startups ?? 0;
      // The reset comes (the server skips the ten hours): the run's own call is refused next.
      await env.sleep(pageRefusal.refusedUntil! - (await env.currentTimeMs()) + 2_000);
      const own = await waitSeen(h, paging.waitingUntil);
      const ownRefusal = b.calls.find((c) => c.refusedUntil !== null && c.input.operation === 'get_startup')!;
      expect(own.phase).toBe('enriching');
      expect(own.waitingUntil).toBe(new Date(ownRefusal.refusedUntil!).toISOString());
      expect(pagesSent).toBeLessThan(loggedSince(from).search_startups!);
      const out = (await h.result()) as JobRunResult;
      // Durable timers: the run's own, and its paging child's.
      expect(await timersIn(h)).toBe(1);
      expect(await childTimers(h)).toBe(1);
      return out;
    });
    expect(result.partial, result.reasons.join('; ')).toBe(false);
    // Each refused call asked again only after its reset, by the server's clock.
    for (const refused of b.calls.filter((c) => c.refusedUntil !== null)) {
      const again = b.calls.filter((c) => c.input.name === refused.input.name && c.at > refused.at);
      expect(again).toHaveLength(1);
      expect(again[0]!.at).toBeGreaterThanOrEqual(refused.refusedUntil!);
    }
    // The service saw each call once: the run's count is the service's.
    const logged = loggedSince(from);
    expect(logged).toEqual({ my_account: 1, search_startups: 6, get_startup: 1 });
    expect(result.callsMade).toBe(8);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
    expect(manifest.status).toBe('complete');
    expect(manifest.calls.byOperation).toEqual(logged);
  });

  it('a run needing more calls than the day has left waits for the next day before its first call', async () => {
    const asked: { calls: number; at: number }[] = [];
    let retryAt = 0;
    const b = await bed({
      sandbox,
      key: KEYS.vc,
      name: 'day-calls',
      reserveDayCalls: async ({ calls }) => {
        const at = await env.currentTimeMs();
        asked.push({ calls, at });
        if (asked.length > 1) return null;
        retryAt = at + 5 * HOUR;
        return { retryAt: new Date(retryAt).toISOString(), left: 2 };
      },
    });
    const from = sandbox.requestLog().length;
    const job = parseSmokeJob({
      id: 'skip-day-calls',
      title: 'Day calls',
      country: 'Germany',
      records: 800,
      destination: `${b.dir}/reports`,
    });
    const result = await b.running(async () => {
      const h = await b.start(job);
      const waiting = await waitSeen(h);
      expect(waiting.waitingUntil).toBe(new Date(retryAt).toISOString());
      expect(waiting.callsMade).toBe(0);
      // Nothing reached the service, nor was asked of the API activity.
      expect(sandbox.requestLog().length).toBe(from);
      expect(b.calls).toEqual([]);
      const out = (await h.result()) as JobRunResult;
      // The wait was a durable timer, before the run's first service call.
      const events = await eventsOf(h);
      const timer = events.findIndex((e) => e.eventType === E.EVENT_TYPE_TIMER_STARTED);
      const firstCall = events.findIndex(
        (e) =>
          e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
          e.activityTaskScheduledEventAttributes?.activityType?.name === 'callApi',
      );
      expect(timer).toBeGreaterThan(-1);
      expect(timer).toBeLessThan(firstCall);
      return out;
    });
    expect(result.partial).toBe(false);
    // It asked for all the calls it plans, and again after the day's end.
    expect(asked.map((a) => a.calls)).toEqual([smokeMaxCalls(job), smokeMaxCalls(job)]);
    expect(asked[1]!.at).toBeGreaterThanOrEqual(retryAt);
    expect(b.calls[0]!.at).toBeGreaterThanOrEqual(retryAt);
    expect(loggedSince(from)).toEqual({ my_account: 1, search_startups: 8, get_startup: 1 });
    expect(result.callsMade).toBe(10);
  });

  it('a prospect list refused twice waits each time and delivers every row the service has', async () => {
    let refusals = 0;
    const b = await bed({
      sandbox,
      key: KEYS.provider,
      name: 'prospects',
      // A page of the search and a profile of the enrichment, each refused once.
      refuse: (i, prev) => {
        if (prev.some((c) => c.input.name === i.name)) return null;
        const offset = (i.params as { offset?: number }).offset;
        if (
          (i.operation === 'search_startups' && offset === 200) ||
          (i.operation === 'get_startup' && refusals === 1)
        ) {
          refusals += 1;
          return 9 * HOUR;
        }
        return null;
      },
    });
    const from = sandbox.requestLog().length;
    const job = parseProspectListJob({
      id: 'skip-prospects',
      kind: 'prospect-list',
      title: 'Daily limit prospects',
      briefs: [{ brief: 'law firm for seed companies', org_key: 'brightline-legal', limit: 10 }],
      // Six pages at most: paged in a child workflow (short streams are paged in the run).
      searches: [{ countries: ['Spain'], cap: 550 }],
      enrich: 12,
      crm: ['generic'],
      budget: { credits: 3 },
      outputs: ['csv'],
      destination: `${b.dir}/reports`,
    });
    const result = await b.running(async () => {
      const h = await b.start(job);
      await waitSeen(h);
      const out = (await h.result()) as ProspectListResult;
      // The waits are durable timers: the search's paging child's, and the run's own (a profile).
      expect(await childTimers(h)).toBe(1);
      expect(await timersIn(h)).toBe(1);
      return out;
    });
    expect(refusals).toBe(2);
    expect(result.partial, result.reasons.join('; ')).toBe(false);
    for (const refused of b.calls.filter((c) => c.refusedUntil !== null)) {
      const again = b.calls.filter((c) => c.input.name === refused.input.name && c.at > refused.at);
      expect(again.map((c) => c.at >= refused.refusedUntil!)).toEqual([true]);
    }
    expect(sandbox.requestLog().length - from).toBe(result.callsMade);
    // Every row of the search and the brief arrived: the CSV holds the list the run counted, the
    // search's whole result but for the closed and acquired companies, which a prospect list
    // leaves out by default. The service's own answer says which those are.
    const rows: string[][] = parse(readFileSync(result.files['csv-generic']!), { bom: true });
    expect(rows.length - 1).toBe(result.listed);
    const spain: { key: string; status?: string | null }[] = [];
    let total = Infinity;
    for (let offset = 0; offset < total; offset += 100) {
      const page = await callSandbox(sandbox, 'search_startups', {
        key: KEYS.vc,
        params: { countries: ['Spain'], limit: 100, offset },
      });
      const data = page.body.data as { total: number } & Record<string, unknown>;
      total = data.total;
      const list = ['startups', 'results', 'items'].map((k) => data[k]).find(Array.isArray);
      spain.push(...((list ?? []) as { key: string; status?: string | null }[]));
    }
    expect(total).toBeGreaterThan(200);
    expect(total).toBeLessThan(350);
    expect(spain).toHaveLength(total);
    const open = spain.filter((s) => closedStatus(s.status ?? null) === null);
    expect(open.length).toBeLessThan(total);
    expect(result.listed).toBeGreaterThanOrEqual(open.length);
    const listed = new Set(rows.slice(1).map((r) => r[rows[0]!.indexOf('service_key')]));
    for (const s of open) expect(listed.has(s.key), s.key).toBe(true);
  });
});
