/**
 * The weekly market report leads with the week: three runs of one job with the sandbox's data
 * moved on between them (rounds inserted, dated the sandbox's as-of day). The first summary
 * page's week figures (deals and capital per country and in all, and the change against the
 * previous run's week) are checked against what the service itself answers (country_overview's
 * by-year totals before and after), and the week's largest round with its lead investor.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseMarketReportJob, type MarketReportResult } from '../../../jobs/market-report/index.js';
import { VisClient } from '../../../api/client.js';
import { readRecord } from '../../../api/read.js';
import { readPage } from '../../../api/read-page.js';
import { INVESTOR_FIELDS } from '../../../api/read-records.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { formatMoneyIn, formatPctFixed, moneyUnit } from '../../../reports/editorial.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';

const KEY = 'vis_live_sandbox_vc';
const COUNTRIES = ['Germany', 'France'] as const;

let sandbox: RunningSandbox;
let h: RunnerHarness;
let client: VisClient;

interface Totals {
  deals: number;
  capital: number;
}

/** What the service answers: each country's deals and capital summed over every year. */
async function serviceTotals(): Promise<Record<string, Totals> & { asOf: string }> {
  const out: Record<string, Totals> = {};
  let asOf = '';
  for (const country of COUNTRIES) {
    const r = await client.call('country_overview', { country });
    const data = r.data as { as_of: string; by_year: { deals: number; capital_usd: number }[] };
    asOf = data.as_of;
    out[country] = data.by_year.reduce(
      (t, y) => ({ deals: t.deals + y.deals, capital: t.capital + y.capital_usd }),
      {
        deals: 0,
        capital: 0,
      },
    );
  }
  return Object.assign(out, { asOf });
}

async function run(): Promise<MarketReportResult> {
  const job = parseMarketReportJob({
    id: 'week-test',
    title: 'Week test report',
    countries: [...COUNTRIES],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
    enrich: { investors: 0, startups: 0 },
    questions: ['largest rounds of the last 7 days in {country}'],
    budget: { credits: 10 },
    destination: `${h.dir}/reports`,
  });
  return followRun(await startJobRun(h.client, h.settings, job), QUIET);
}

/** The text of the PDF page that opens the executive summary. */
function summaryPage(pdf: string): string {
  const pages = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).split('\f');
  const page = pages.find((p) => /^\s*Executive summary\s*$/m.test(p) && /DEALS THIS WEEK/.test(p));
  if (!page) throw new Error('no executive summary page');
  return page;
}

/** The figures of a country's row in the week-by-country table. */
function weekRow(page: string, name: string): string[] {
  const line = page.split('\n').find((l) => l.trim().startsWith(`${name} `) && /\d/.test(l));
  if (!line) throw new Error(`no row for ${name}`);
  return line
    .trim()
    .slice(name.length)
    .trim()
    .split(/\s{2,}/);
}

const diff = (a: Totals, b: Totals): Totals => ({ deals: a.deals - b.deals, capital: a.capital - b.capital });

let t0: Awaited<ReturnType<typeof serviceTotals>>;
let t1: Awaited<ReturnType<typeof serviceTotals>>;
let t2: Awaited<ReturnType<typeof serviceTotals>>;
let second: MarketReportResult;
let third: MarketReportResult;
let lead: { key: string; name: string };

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEY, name: 'market-week' });
  client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY });
  const inv = await client.call('search_investors', { country: 'Germany', sort: 'score', limit: 1 });
  const first = readPage('search_investors', inv.data).items.map((i) => readRecord(i, INVESTOR_FIELDS))[0];
  if (!first?.key || !first.name) throw new Error('no investor to lead the rounds');
  lead = { key: first.key, name: first.name };

  t0 = await serviceTotals();
  await run();
  // The market moves on: rounds dated the service's as-of day (a week's news).
  sandbox.insertStartup({ name: 'Weekmark Robotics', hq_country: 'Germany', sector: 'Industry & Hardware' }, [
    { amount_usd: 84_000_000, stage: 'series-b', date: t0.asOf, lead_investor_key: lead.key },
  ]);
  sandbox.insertStartup({ name: 'Weekmark Seed', hq_country: 'Germany' }, [
    { amount_usd: 3_500_000, stage: 'seed', date: t0.asOf },
  ]);
  sandbox.insertStartup({ name: 'Semaine Bio', hq_country: 'France', sector: 'Healthcare & Life Sciences' }, [
    { amount_usd: 12_000_000, stage: 'series-a', date: t0.asOf },
  ]);
  t1 = await serviceTotals();
  second = await run();
  // Another week: one more round in Germany only.
  sandbox.insertStartup({ name: 'Weekmark Two', hq_country: 'Germany' }, [
    { amount_usd: 9_000_000, stage: 'series-a', date: t0.asOf },
  ]);
  t2 = await serviceTotals();
  third = await run();
}, 240_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe('the first summary page leads with the week', () => {
  test('the second run states the rounds the service added since the first, per country and in all', () => {
    const page = summaryPage(second.files.pdf!);
    const week = Object.fromEntries(COUNTRIES.map((c) => [c, diff(t1[c]!, t0[c]!)])) as Record<
      string,
      Totals
    >;
    expect(week.Germany).toEqual({ deals: 2, capital: 87_500_000 });
    expect(week.France).toEqual({ deals: 1, capital: 12_000_000 });
    const all = { deals: 3, capital: 99_500_000 };
    const unit = moneyUnit([all.capital, week.Germany!.capital, week.France!.capital]);
    expect(page).toContain(
      `the service added 3 rounds worth ${formatMoneyIn(all.capital, unit, { symbol: true })}`,
    );
    for (const c of COUNTRIES) {
      const row = weekRow(page, c);
      expect(row[0]).toBe(String(week[c]!.deals));
      expect(row).toContain(formatMoneyIn(week[c]!.capital, unit));
    }
    expect(weekRow(page, 'All countries')[0]).toBe('3');
    // How the week is counted is stated.
    expect(page).toMatch(/How the week is counted/);
    // The week's largest round, with its stage in words, its date and its lead investor.
    const line = page.split('\n').find((l) => l.includes('Weekmark Robotics'));
    expect(line).toBeDefined();
    expect(line).toContain('Series B');
    expect(line).toContain(lead.name.slice(0, 12));
  });

  test('the third run compares its week with the previous run’s', () => {
    const page = summaryPage(third.files.pdf!);
    const now = diff(t2.Germany!, t1.Germany!);
    const before = diff(t1.Germany!, t0.Germany!);
    expect(now).toEqual({ deals: 1, capital: 9_000_000 });
    const row = weekRow(page, 'Germany');
    // Deals, previous week, (average of one run is not shown), change.
    expect(row[0]).toBe(String(now.deals));
    expect(row[1]).toBe(String(before.deals));
    expect(row).toContain(formatPctFixed(((now.deals - before.deals) / before.deals) * 100, true));
    const france = weekRow(page, 'France');
    expect(france[0]).toBe('0');
    expect(france[1]).toBe('1');
    expect(page).toMatch(/DEALS THIS WEEK\s[\s\S]*\b1\b/);
    expect(page).toContain(`${formatPctFixed(((1 - 3) / 3) * 100, true)} vs previous week`);
  });
});
