/**
 * A prospect list that needs more calls than the service's day allows waits durably for the
 * next day (a workflow timer, the wait in its progress) and goes on: the sandbox's day is 8
 * calls long and 8 seconds short; the list's 18 calls or more cross two day boundaries (the
 * second reached at the start of a day, so its wait is a long one whatever the timing), and
 * the list delivered is the whole of it.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startJobRun } from '../../../cli/run-job.js';
import { parseProspectListJob, type ProspectListResult } from '../../../jobs/prospect-list/index.js';
import { closedStatus } from '../../../jobs/prospect-list/rules.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { runHistories } from '../../helpers/histories.js';
import { KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { followWatching, startRunner, type RunnerHarness } from '../../helpers/runner.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000, rateLimitPerDay: 8, dayWindowMs: 8000 });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: KEYS.provider,
    name: 'prospects-daily',
    tuning: { dailyLimitThresholdMs: 2000 },
  });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

test('a list longer than a day of calls waits for the next day, shows the wait, and delivers every row', async () => {
  const job = parseProspectListJob({
    id: 'prospects-daily',
    kind: 'prospect-list',
    title: 'Daily limit prospects',
    briefs: [{ brief: 'law firm for seed companies', org_key: 'brightline-legal', limit: 10 }],
    searches: [{ countries: ['Spain'], cap: 350 }],
    enrich: 12,
    crm: ['generic'],
    budget: { credits: 3 },
    outputs: ['csv'],
    destination: `${h.dir}/reports`,
  });
  const handle = await startJobRun(h.client, h.settings, job);
  const { result, seen } = await followWatching<ProspectListResult>(handle);
  expect(result.partial, result.reasons.join('; ')).toBe(false);
  expect(result.callsMade).toBeGreaterThan(16);
  expect(seen.some((p) => p.waitingUntil !== null)).toBe(true);
  // The waits are durable timers in the run's histories (the run's own or its paging child's).
  const timers = (await runHistories(h.client, handle.workflowId))
    .flatMap((r) => r.history.events ?? [])
    .filter((e) => e.timerStartedEventAttributes).length;
  expect(timers).toBeGreaterThan(0);
  // Every row of the search and the brief arrived: the CSV holds the list the run counted, the
  // search's whole result (Spain has fewer startups than the cap) among them but for the closed
  // and acquired companies, which a prospect list leaves out by default. The service's own
  // answer, read a page of 100 at a time, says which those are.
  const rows: string[][] = parse(readFileSync(result.files['csv-generic']!), { bom: true });
  expect(rows.length - 1).toBe(result.listed);
  const spain: { key: string; status?: string | null }[] = [];
  let total = Infinity;
  for (let offset = 0; offset < total; offset += 100) {
    const page = await fetch(`${sandbox.url}/v1/search_startups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.vc}`, 'content-type': 'application/json' },
      body: JSON.stringify({ countries: ['Spain'], limit: 100, offset }),
    }).then((r) => r.json() as Promise<{ data: { total: number } & Record<string, unknown> }>);
    total = page.data.total;
    // The page's list under the key the service names it by (the runner reads the same keys).
    const list = ['startups', 'results', 'items'].map((k) => page.data[k]).find(Array.isArray);
    spain.push(...((list ?? []) as { key: string; status?: string | null }[]));
  }
  expect(total).toBeLessThan(350);
  expect(spain).toHaveLength(total);
  const open = spain.filter((s) => closedStatus(s.status ?? null) === null);
  expect(open.length).toBeLessThan(total);
  expect(result.listed).toBeGreaterThanOrEqual(open.length);
  const listed = new Set(rows.slice(1).map((r) => r[rows[0]!.indexOf('service_key')]));
  for (const s of open) expect(listed.has(s.key), s.key).toBe(true);
}, 180_000);
