/**
 * The portal's pages against the CLI, over real HTTP, on a real runner and sandbox: the runs page
 * lists the runs `vir runs list` lists (same ids, same order); the credits page shows the figures
 * `vir credits` prints for the same account; a run started from a job's plan form runs to its
 * end, its events (server-sent) telling its progress and then that it is done; a run cancelled
 * from its page is cancelled in Temporal.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { AccountLink, accountIdOf } from '../../activities/account.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { loadJobFile } from '../../jobs/files.js';
import { eventually, runCli, uniqueName } from '../cli/helpers.js';
import { QUIET } from '../helpers/runner.js';
import { KEYS } from '../helpers/sandbox.js';
import { usePortalBed } from './portal-bed.js';

const KEY = KEYS.vc;
const listed = uniqueName('listed');
const planned = uniqueName('planned');
const slow = uniqueName('slow');

const bed = usePortalBed({
  name: 'portal-pages',
  key: KEY,
  jobs: () =>
    [
      'jobs:',
      ...[
        [listed, 60],
        [planned, 500],
        [slow, 3000],
      ].flatMap(([id, records]) => [
        `  - id: ${id}`,
        '    kind: smoke',
        `    title: Smoke ${id}`,
        '    country: Germany',
        `    records: ${records}`,
      ]),
      '',
    ].join('\n'),
});

afterEach(() => bed.sandbox.setFaults({}));

/** Text of HTML as a reader sees it: the five escapes undone. */
function unescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The run ids of a runs page, in its order. */
function runIdsOf(page: string): string[] {
  return [...page.matchAll(/<th scope="row"><a href="\/runs\/[^"]+">([^<]+)<\/a><\/th>/g)].map((m) =>
    unescape(m[1]!),
  );
}

/** The text of the element with this id. */
function byId(page: string, id: string): string {
  const m = new RegExp(`id="${id}">([^<]*)<`).exec(page);
  if (!m) throw new Error(`no element #${id} in:\n${page}`);
  return unescape(m[1]!);
}

/** A server-sent event. */
interface Sse {
  event: string;
  data: Record<string, unknown>;
}

/** Reads a run's events until `done` (or the stream ends); fails after `timeoutMs`. */
async function readEvents(url: string, timeoutMs = 60_000): Promise<Sse[]> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: Sse[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
    }
    if (events.at(-1)?.event === 'done') break;
  }
  return events;
}

describe('the runs page', () => {
  test('lists the runs vir runs list lists: the same ids in the same order, filtered by job, kind and status', async () => {
    const job = (await loadJobFile(bed.jobFile)).jobs.find((j) => j.id === listed)!;
    for (let i = 0; i < 3; i++)
      await followRun(await startJobRun(bed.runner.client, bed.runner.settings, job), QUIET);
    const cli = await eventually(
      async () => {
        const r = await runCli(bed.env, ['runs', 'list', '--job', listed]);
        const ids = r.out.map((l) => l.split(/\s+/)[0]!).filter((id) => id.startsWith('smoke-'));
        return ids.length === 3 && r.out.every((l) => l.includes('COMPLETED')) ? ids : undefined;
      },
      30_000,
      'three completed runs in vir runs list',
    );
    const browser = bed.client();
    const page = await browser.get(`/runs?job=${listed}`);
    expect(page.status).toBe(200);
    expect(runIdsOf(page.text)).toEqual(cli);
    expect(runIdsOf((await browser.get(`/runs?job=${listed}&kind=smoke&status=COMPLETED`)).text)).toEqual(
      cli,
    );
    expect(runIdsOf((await browser.get(`/runs?job=${listed}&limit=2`)).text)).toEqual(cli.slice(0, 2));
    expect(runIdsOf((await browser.get(`/runs?job=${listed}&kind=market-report`)).text)).toEqual([]);
    expect(runIdsOf((await browser.get(`/runs?job=${listed}&status=FAILED`)).text)).toEqual([]);
    // The jobs page names the job's last run: the newest.
    expect((await browser.get('/')).text).toContain(`href="/runs/${encodeURIComponent(cli[0]!)}"`);
  });
});

describe('the credits page', () => {
  test('shows what vir credits prints for the same account', async () => {
    // Two jobs' paid calls recorded in the account's ledger, one call still in flight.
    const link = new AccountLink({
      client: bed.runner.client,
      taskQueue: bed.runner.settings.accountTaskQueue,
      accountId: accountIdOf(bed.sandbox.url, KEY),
      perMinute: 6000,
      perDay: 5000,
      caps: {},
    });
    const alpha = uniqueName('alpha');
    const beta = uniqueName('beta');
    const reserve = (id: string, jobId: string, credits: number) =>
      link.reserveCredits({ id, jobId, runId: `run-${jobId}`, credits, caps: { day: 40 }, ttlMs: 600_000 });
    expect(await reserve(`${alpha}-1`, alpha, 3)).toEqual({ granted: true });
    await link.settleCredits({ id: `${alpha}-1`, jobId: alpha, credits: 3 });
    await reserve(`${beta}-1`, beta, 2);
    await link.settleCredits({ id: `${beta}-1`, jobId: beta, credits: 2 });
    await reserve(`${beta}-2`, beta, 4);

    const cli = await runCli(bed.env, ['credits']);
    expect(cli.code, cli.err.join('\n')).toBe(0);
    const page = await bed.client().get('/credits');
    expect(page.status).toBe(200);
    const text = page.text;

    const [, plan, balance] = /^plan (\S+), (\d+) credits$/.exec(cli.out[0]!)!;
    expect(byId(text, 'plan')).toBe(plan);
    expect(byId(text, 'balance')).toBe(balance);
    const ledger =
      /spent (\d+) today, (\d+) this week, (\d+) this month \(UTC\); (\d+) reserved by calls in flight; caps (.+)$/.exec(
        cli.out[1]!,
      )!;
    expect(ledger, cli.out[1]).not.toBeNull();
    expect([
      byId(text, 'spent-day'),
      byId(text, 'spent-week'),
      byId(text, 'spent-month'),
      byId(text, 'reserved'),
    ]).toEqual(ledger.slice(1, 5));
    expect(ledger.slice(1, 5)).toEqual(['5', '5', '5', '4']);
    expect(byId(text, 'caps')).toBe(ledger[5]);
    // Per job: each `  job: a today, b this week, c this month` line is a row of the table.
    const perJob = cli.out.filter((l) => /^ {2}\S+: \d+ today, \d+ this week, \d+ this month$/.test(l));
    expect(perJob.length).toBeGreaterThanOrEqual(2);
    for (const line of perJob) {
      const [, job, d, w, m] = /^ {2}(\S+): (\d+) today, (\d+) this week, (\d+) this month$/.exec(line)!;
      expect(text).toContain(
        `<tr><th scope="row">${job}</th><td class="num">${d}</td><td class="num">${w}</td><td class="num">${m}</td></tr>`,
      );
    }
    // The chart draws the same figures.
    expect(text).toContain(`<title>${alpha}: 3 this month</title>`);
    // What a run of each job spends, and what the schedules need this month: the same lines.
    const jobLines = cli.out.filter((l) => / a run; /.test(l));
    expect(jobLines.length).toBeGreaterThan(0);
    for (const line of jobLines) expect(unescape(text)).toContain(`<li>${line}</li>`);
    const ahead = cli.out.find((l) => l.startsWith('scheduled jobs until '))!;
    expect(byId(text, 'month-ahead')).toBe(ahead);
  });
});

describe('running a job from the portal', () => {
  test('its plan, then Run now: the run starts, its events tell its progress, then that it is done', async () => {
    // Each call a little slower, so the run lasts long enough to be watched.
    bed.sandbox.setFaults({ latencyMs: 120 });
    const browser = bed.client();
    const plan = await browser.get(`/jobs/${planned}/plan`);
    expect(plan.status).toBe(200);
    expect(plan.text).toMatch(/at most \d+ calls, about/);
    expect(plan.text).toContain(`${planned} (smoke, ${bed.jobFile}): Smoke ${planned}`);

    const started = await browser.submit(`/jobs/${planned}/plan`, `/jobs/${planned}/run`);
    expect(started.status, started.text).toBe(303);
    const location = started.headers.get('location')!;
    expect(location).toMatch(/^\/runs\/smoke-.+\?notice=started$/);
    const workflowId = decodeURIComponent(location.slice('/runs/'.length).split('?')[0]!);
    expect(workflowId.startsWith(`smoke-${planned}-`)).toBe(true);

    const events = await readEvents(`${bed.portal.url}/runs/${encodeURIComponent(workflowId)}/events`);
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length, JSON.stringify(events)).toBeGreaterThan(0);
    expect(progress[0]!.data).toMatchObject({ callsPlanned: expect.any(Number), phase: expect.any(String) });
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'COMPLETED' } });
    expect(events.filter((e) => e.event === 'done')).toHaveLength(1);

    // Temporal has the run as vir run starts one: the job in its memo, a manual trigger.
    const handle = bed.runner.client.workflow.getHandle(workflowId);
    const desc = await handle.describe();
    expect(desc.status.name).toBe('COMPLETED');
    expect(desc.memo).toMatchObject({ jobId: planned, trigger: 'manual' });
    const result = (await handle.result()) as { records: number };

    // Its page: the result, and its file.
    const page = await browser.get(`/runs/${encodeURIComponent(workflowId)}`);
    expect(page.text).toContain('<span class="badge good">completed</span>');
    expect(page.text).toMatch(/<dt>Records<\/dt><dd>(\d+)<\/dd>/);
    expect(/<dt>Records<\/dt><dd>(\d+)<\/dd>/.exec(page.text)![1]).toBe(String(result.records));
    expect(page.text).toContain(`href="/runs/${encodeURIComponent(workflowId)}/files/0"`);

    // The events of a run that has ended: `done` at once.
    const after = await readEvents(`${bed.portal.url}/runs/${encodeURIComponent(workflowId)}/events`, 10_000);
    expect(after.map((e) => e.event)).toEqual(['done']);
    expect((await browser.get('/runs/no-such-run/events')).status).toBe(404);
  });

  test('a run cancelled from its page is cancelled in Temporal', async () => {
    bed.sandbox.setFaults({ latencyMs: 1000 });
    const browser = bed.client();
    const started = await browser.submit(`/jobs/${slow}/plan`, `/jobs/${slow}/run`);
    expect(started.status, started.text).toBe(303);
    const path = started.headers.get('location')!.split('?')[0]!;
    const workflowId = decodeURIComponent(path.slice('/runs/'.length));
    const page = await browser.get(path);
    expect(page.text).toContain(`href="${path}/cancel"`);
    expect(page.text).toContain('data-events=');
    const cancelled = await browser.submit(`${path}/cancel`, `${path}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(303);
    expect(cancelled.headers.get('location')).toBe(`${path}?notice=cancelled`);
    const handle = bed.runner.client.workflow.getHandle(workflowId);
    const status = await eventually(
      async () => {
        const s = (await handle.describe()).status.name;
        return s === 'RUNNING' ? undefined : s;
      },
      30_000,
      'the run to end',
    );
    expect(status).toBe('CANCELLED');
  });
});
