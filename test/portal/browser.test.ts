/**
 * The report portal in a real Chromium, against the real portal (`startPortal`, as `vir dev`
 * starts it) over real workers on the embedded Temporal server and the fixed-date sandbox (each
 * call slowed, so a run takes long enough to be watched): a run started from the jobs page after
 * its plan, its progress changing live to the end without a reload, its PDF opened inline, its
 * interactive report drawn by vega-embed, its workbook downloaded byte for byte, a failed webhook
 * redelivered from the run page, a schedule paused from the jobs page (Temporal says paused).
 * Every page is shot at 1280×800 and 390×844 into test/.tmp/portal-shots/ for a person to look at.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applySchedules } from '../../cli/commands/schedules.js';
import { CliContext } from '../../cli/context.js';
import { scheduleIdFor } from '../../cli/schedules/desired.js';
import { startPortal, type RunningPortal } from '../../portal/server.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import type { JobRunResult } from '../../workflows/run-end.js';
import {
  cellsOutOfSight,
  launchBrowser,
  overflowX,
  waitForCount,
  waitForTextChange,
  waitForTextMatch,
  type BrowserHarness,
  type WatchedPage,
} from '../helpers/browser.js';
import { startRunner, type RunnerHarness } from '../helpers/runner.js';
import { startFixedDateSandbox } from '../helpers/sandbox.js';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';

const GROUP = `browser${process.pid}`;
const JOB = 'portal-weekly';
const SCHEDULE = scheduleIdFor(GROUP, JOB);
/** The delivery's attempts (DELIVERY_MAX_ATTEMPTS), each answered 500; the redelivery gets a 200. */
const FAILING = [500, 500, 500, 500];
const WEBHOOK_SECRET = 'whsec_browser_test_0123456789abcdef';

let sandbox: RunningSandbox;
let hook: WebhookServer;
let h: RunnerHarness;
let ctx: CliContext;
let portal: RunningPortal;
let b: BrowserHarness;
let jobFile: string;
let restoreEnv: () => void;
/** The run started from the portal, and what it returned. */
let runId = '';
let result: JobRunResult;
/** The run page, kept open from the start of the run to the redelivery. */
let runPage: WatchedPage;

const text = (page: Page, selector: string) => page.locator(selector).first().innerText();

/** Presses a form's button: its POST must be answered with a redirect (a refusal says why). */
async function submit(page: Page, button: string): Promise<void> {
  const [posted] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: button }).click(),
  ]);
  expect(posted.status(), posted.status() === 303 ? '' : await posted.text()).toBe(303);
}

beforeAll(async () => {
  sandbox = await startFixedDateSandbox();
  hook = await startWebhookServer(FAILING);
  const before = process.env.VIR_WEBHOOK_SECRET;
  process.env.VIR_WEBHOOK_SECRET = WEBHOOK_SECRET;
  restoreEnv = () => {
    if (before === undefined) delete process.env.VIR_WEBHOOK_SECRET;
    else process.env.VIR_WEBHOOK_SECRET = before;
  };
  h = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc', name: 'browser' });
  jobFile = join(h.dir, 'jobs', 'browser.yaml');
  await mkdir(join(h.dir, 'jobs'), { recursive: true });
  await writeFile(
    jobFile,
    [
      `group: ${GROUP}`,
      'jobs:',
      `  - id: ${JOB}`,
      '    kind: market-report',
      '    title: Weekly <market> report, Germany',
      '    countries: [Germany]',
      '    schedule: { cron: "0 7 * * 1", timezone: Europe/London }',
      '    top: { investors: 5, startups: 5 }',
      '    paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 }',
      '    enrich: { investors: 1, startups: 1 }',
      "    questions: ['largest rounds of the last 7 days in {country}']",
      '    budget: { credits: 2 }',
      '    outputs: [xlsx, pdf]',
      '    delivery:',
      `      - webhook: { url: "${hook.url}", format: json }`,
      '',
    ].join('\n'),
  );
  ctx = new CliContext({ ...process.env }, { out: () => undefined, err: () => undefined });
  ctx.useSettings(h.settings);
  await applySchedules(ctx, jobFile);
  portal = await startPortal({ ctx, port: 0, token: null, jobFiles: [jobFile], liveIntervalMs: 200 });
  b = await launchBrowser();
});

afterAll(async () => {
  await b?.close();
  await portal?.close();
  await (
    await ctx?.temporal()
  )?.schedule
    .getHandle(SCHEDULE)
    .delete()
    .catch(() => undefined);
  await ctx?.close();
  await h?.close();
  await hook?.close();
  await sandbox?.close();
  restoreEnv?.();
});

describe('the portal in Chromium', () => {
  test('a run started from the jobs page after its plan; its progress changes live to the end, no reload', async () => {
    runPage = await b.open('desktop');
    const { page } = runPage;
    await page.goto(portal.url);
    await expect.poll(() => page.locator(`a[href="/jobs/${JOB}/plan"]`).count()).toBeGreaterThan(0);
    await b.shoot(page, 'jobs');
    await page.locator(`a[href="/jobs/${JOB}/plan"]`).first().click();
    await page.waitForURL(`**/jobs/${JOB}/plan`);
    expect(await text(page, 'h1')).toBe(`Plan of ${JOB}`);
    expect(await text(page, 'pre.plan')).toMatch(/at most \d+ calls/);
    await b.shoot(page, 'plan');
    // Each call of the run takes a while from here: the progress can be seen changing.
    sandbox.setFaults({ latencyMs: 150 });
    await submit(page, 'Run now');
    await page.waitForURL(/\/runs\/[^/?]+\?notice=started$/);
    runId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
    expect(runId).toContain(JOB);
    // From here, the page must change by itself: count the navigations of its frame.
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    const calls = await text(page, '[data-field="calls"]');
    await waitForTextChange(page, '[data-field="calls"]', calls);
    await b.shoot(page, 'run-live');
    await waitForTextMatch(page, '[data-field="live"]', /The run ended: completed/, 120_000);
    expect(navigations, 'the progress reached the end on the page as loaded').toBe(0);
    sandbox.setFaults({});
    // The page then loads the run's result itself.
    await page.getByRole('heading', { name: 'Files' }).waitFor({ timeout: 30_000 });
    result = (await (await ctx.temporal()).workflow.getHandle(runId).result()) as JobRunResult;
    expect(await text(page, '#run')).toMatch(/completed/);
    await b.shoot(page, 'run-complete');
  });

  test('the PDF opens inline as application/pdf, the same bytes as the file the run wrote', async () => {
    expect(result, 'needs the run the first test started from the portal').toBeDefined();
    const { page } = runPage;
    const pdfName = basename(result.files.pdf ?? '');
    const link = page.getByRole('link', { name: pdfName });
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`^/runs/.+/files/\\d+$`));
    const res = await page.context().request.get(`${portal.url}${href}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    expect(res.headers()['content-disposition']).toMatch(new RegExp(`^inline; filename="${pdfName}"`));
    expect(Buffer.compare(await res.body(), readFileSync(result.files.pdf ?? ''))).toBe(0);
    // Opened in a tab: the browser gets the PDF itself (not a page about it).
    const tab = await page.context().newPage();
    const opened = tab.waitForResponse((r) => r.url() === `${portal.url}${href}`);
    await tab.goto(`${portal.url}${href}`).catch(() => undefined); // a headless browser may download it instead
    expect((await opened).headers()['content-type']).toBe('application/pdf');
    await tab.close();
  });

  test('the interactive report draws every chart with vega-embed, from the portal alone', async () => {
    expect(result, 'needs the run the first test started from the portal').toBeDefined();
    // The run page links it; opened on its own (as from an email), it draws and nothing fails.
    const href = await runPage.page
      .getByRole('link', { name: 'Open the interactive report' })
      .getAttribute('href');
    expect(href).toBe(`/runs/${encodeURIComponent(runId)}/report`);
    const w = await b.open('desktop');
    await w.page.goto(`${portal.url}${href}`);
    const figures = await w.page.locator('figure[data-chart]').count();
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { charts: number };
    expect(figures).toBe(manifest.charts);
    // Each figure drawn or failed; a failed one says why (its data-error).
    await waitForCount(w.page, 'figure.chart-ready, figure.chart-failed', figures);
    const failed = await w.page
      .locator('figure.chart-failed')
      .evaluateAll((els) => els.map((e) => `${e.id}: ${e.getAttribute('data-error') ?? ''}`));
    expect(failed).toEqual([]);
    expect(await w.page.locator('figure.chart-ready .chart-view svg').count()).toBe(figures);
    expect(await text(w.page, 'h1')).toBe('Weekly <market> report, Germany');
    // Every script and style came from the portal; nothing was refused or failed.
    const hosts = await w.page
      .locator('script[src], link[rel="stylesheet"]')
      .evaluateAll((els) =>
        els.map(
          (e) =>
            new URL(
              (e as unknown as { src?: string; href?: string }).src ||
                (e as unknown as { href: string }).href,
            ).host,
        ),
      );
    expect(new Set(hosts)).toEqual(new Set([new URL(portal.url).host]));
    expect(w.problems).toEqual([]);
    await b.shoot(w.page, 'report');
    await w.context.close();
  });

  test('the workbook downloads under its real name, byte for byte the file in the reports folder', async () => {
    expect(result, 'needs the run the first test started from the portal').toBeDefined();
    const { page } = runPage;
    const name = basename(result.files.xlsx ?? '');
    const row = page.locator('tr', { has: page.getByRole('link', { name }) });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(name);
    const got = readFileSync((await download.path()) ?? '');
    expect(Buffer.compare(got, readFileSync(result.files.xlsx ?? ''))).toBe(0);
  });

  test('a webhook that failed is redelivered from the run page, and the page says so', async () => {
    expect(result, 'needs the run the first test started from the portal').toBeDefined();
    const { page } = runPage;
    await page.goto(`${portal.url}/runs/${encodeURIComponent(runId)}`);
    const delivery = page.locator('table', {
      has: page.locator('caption', { hasText: 'Deliveries per destination' }),
    });
    expect(await delivery.locator('tbody tr').first().innerText()).toMatch(
      /webhook\s+failed\s+webhook_unavailable/,
    );
    expect(hook.requests).toHaveLength(FAILING.length);
    await page.getByRole('link', { name: /Redeliver to those/ }).click();
    await page.waitForURL(/\/redeliver$/);
    await b.shoot(page, 'redeliver');
    await submit(page, 'Redeliver');
    await page.waitForURL(/\?notice=redelivered$/);
    expect(await delivery.locator('tbody tr').first().innerText()).toMatch(/webhook\s+ok\s/);
    expect(await page.locator('main').innerText()).toContain('(after a redelivery)');
    expect(hook.requests).toHaveLength(FAILING.length + 1);
    expect(hook.accepted()).toBe(1);
    await b.shoot(page, 'run-redelivered');
  });

  test('a schedule paused from the jobs page is paused in Temporal', async () => {
    const client = await ctx.temporal();
    expect((await client.schedule.getHandle(SCHEDULE).describe()).state.paused).toBe(false);
    const { page } = runPage;
    await page.goto(portal.url);
    const row = page.locator('tr', { has: page.locator(`a[href="/jobs/${JOB}/plan"]`) }).first();
    await row.getByRole('link', { name: 'Pause…' }).click();
    await page.waitForURL(/\/pause$/);
    await b.shoot(page, 'pause');
    await submit(page, 'Pause the schedule');
    await page.waitForURL(/notice=paused/);
    expect(await row.innerText()).toMatch(/paused/);
    expect(await row.getByRole('link', { name: 'Resume…' }).count()).toBe(1);
    const desc = await client.schedule.getHandle(SCHEDULE).describe();
    expect(desc.state.paused).toBe(true);
    expect(desc.state.note).toBe('paused in the portal');
    await b.shoot(page, 'jobs-paused');
    // The credits page counts no run of it for the rest of the month (its job file says nothing).
    await page.goto(`${portal.url}/credits`);
    expect(await page.locator('main').innerText()).toMatch(
      new RegExp(`${JOB}: 0 more runs this month x at most \\d+ = 0 credits \\(paused\\)`),
    );
  });

  test('every page at desktop and phone width: no error, nothing wider than the phone, no value out of sight', async () => {
    expect(result, 'needs the run the first test started from the portal').toBeDefined();
    const run = `/runs/${encodeURIComponent(runId)}`;
    const pages: [string, string][] = [
      ['jobs', '/'],
      ['plan', `/jobs/${JOB}/plan`],
      ['runs', '/runs'],
      ['run', run],
      ['report', `${run}/report`],
      ['redeliver', `${run}/redeliver`],
      ['resume', `/schedules/${SCHEDULE}/resume`],
      ['credits', '/credits'],
    ];
    const problems: string[] = [];
    const wide: string[] = [];
    const hidden: string[] = [];
    for (const [name, path] of pages) {
      const shot = await b.shootBoth(`${portal.url}${path}`, `all-${name}`, async (page) => {
        if (name === 'report')
          await waitForCount(page, 'figure.chart-ready, figure.chart-failed', { all: 'figure[data-chart]' });
        const width = page.viewportSize()?.width ?? 0;
        const overflow = await overflowX(page);
        if (overflow > 0) wide.push(`${name} at ${width}px: ${overflow}px too wide`);
        // On a phone every value of the portal's tables is in sight, none behind a sideways scroll.
        if (width < 640) hidden.push(...(await cellsOutOfSight(page)).map((c) => `${name}: ${c}`));
      });
      problems.push(...shot.problems.map((p) => `${name}: ${p}`));
    }
    expect(problems).toEqual([]);
    expect(wide).toEqual([]);
    expect(hidden).toEqual([]);
  });
});
