/**
 * The prospect list's pure parts: merging by key and by domain (scored rows first, fields
 * filled across sources), the rules (CRM export by domain then name, net new or marked), the
 * snapshot the next run reads, the enrichment of a row from its profile, the chart tallies and
 * the plan under the service's limits. The CSV split at a profile's row limit is read back with
 * csv-parse.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, expect, test } from 'vitest';
import { writeProspectCsvs } from '../../../jobs/prospect-list/csv.js';
import { parseProspectListJob } from '../../../jobs/prospect-list/job.js';
import { ProspectMerger } from '../../../jobs/prospect-list/merge.js';
import { prospectPlanDetail, prospectPlanLines } from '../../../jobs/prospect-list/plan.js';
import { CRM_PROFILE_SPECS } from '../../../jobs/prospect-list/profiles.js';
import { applyRules, enrichRow, nextSnapshot } from '../../../jobs/prospect-list/rules.js';
import { parseSuppressionList } from '../../../jobs/prospect-list/suppression.js';
import { ListTally } from '../../../jobs/prospect-list/tally.js';
import type { ProspectRow } from '../../../jobs/prospect-list/types.js';

const dir = mkdtempSync(join(tmpdir(), 'vir-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const customer = (key: string, fit: number, over: Record<string, unknown> = {}) => ({
  key,
  name: key.toUpperCase(),
  fit_pct: fit,
  momentum: { score: fit - 10 },
  why: [`${key} raised`],
  website: `https://${key}.io`,
  ...over,
});
const startup = (key: string, over: Record<string, unknown> = {}) => ({
  key,
  name: key.toUpperCase(),
  website: `https://www.${key}.io/`,
  hq_city: 'Berlin',
  hq_country: 'Germany',
  stage: 'seed',
  sector: 'Finance & Blockchain',
  last_round_date: '2026-10-01T00:00:00Z',
  ...over,
});

test('records merge by key and by domain: one row per company, scored first by fit, fields filled across sources', () => {
  const m = new ProspectMerger();
  m.add(startup('alpha'), 'search 1', false);
  m.add(startup('beta'), 'search 1', false);
  // The same company under another key, known by its domain.
  m.add(startup('beta-2', { website: 'http://beta.io' }), 'search 2', false);
  m.add(customer('gamma', 70), 'brief 1', true);
  m.add(customer('alpha', 90, { hq_city: undefined }), 'brief 2', true);
  m.add(customer('alpha', 80, { why: 'lower fit, other reason' }), 'brief 1', true);
  m.add({ description: 'no name, key nor site' }, 'search 1', false);
  const rows = m.ordered();
  expect(rows.map((r) => r.key)).toEqual(['alpha', 'gamma', 'beta']);
  const alpha = rows[0]!;
  expect(alpha).toMatchObject({
    fitPct: 90,
    momentum: 80,
    why: ['alpha raised'],
    city: 'Berlin',
    domain: 'alpha.io',
    lastRoundDate: '2026-10-01',
    sources: ['search 1', 'brief 2', 'brief 1'],
  });
  expect(rows[2]!.sources).toEqual(['search 1', 'search 2']);
  expect(m.counts).toEqual({ records: 7, unnamed: 1 });
});

test('the CRM export leaves companies out by domain, then by name; earlier deliveries are left out or marked', () => {
  const m = new ProspectMerger();
  for (const k of ['acme', 'bolt', 'crux', 'dune']) m.add(startup(k), 'search 1', false);
  const crm = parseSuppressionList('Website,Name\r\nhttps://acme.io,\r\n,BOLT Inc.\r\n,\r\n', 'crm.csv');
  expect(crm.malformed).toBe(1);
  const previous = nextSnapshot(null, 'job', '2026-11-16', [{ key: 'crux', domain: 'crux.io' }]);
  const excluded = applyRules(m.ordered(), crm, previous, 'exclude');
  expect(excluded.listed.map((r) => [r.key, r.rank])).toEqual([['dune', 1]]);
  expect(excluded.suppressed.map((s) => [s.key, s.reason, s.detail])).toEqual([
    ['acme', 'crm-domain', 'in the CRM export (domain acme.io)'],
    ['bolt', 'crm-name', 'in the CRM export (name "BOLT")'],
    // The detail is for a reader (the Suppressed sheet): its date in the report's format.
    ['crux', 'delivered', 'delivered on 16 Nov 2026 (net new only)'],
  ]);
  const marked = applyRules(m.ordered(), null, previous, 'mark');
  expect(marked.listed.map((r) => [r.key, r.deliveredOn])).toEqual([
    ['acme', null],
    ['bolt', null],
    ['crux', '2026-11-16'],
    ['dune', null],
  ]);
  expect(marked.counts.markedDelivered).toBe(1);
  // The next snapshot keeps the first date of each company and adds the new ones.
  const next = nextSnapshot(previous, 'job', '2026-11-23', marked.listed);
  expect(next.keys).toEqual({
    crux: '2026-11-16',
    acme: '2026-11-23',
    bolt: '2026-11-23',
    dune: '2026-11-23',
  });
  expect(next.runs).toBe(2);
});

test('raisedWithin leaves out older and undated companies, but not for want of a date the service never gives', () => {
  const m = new ProspectMerger();
  m.add(startup('fresh', { last_round_date: '2026-10-01T00:00:00Z' }), 'search 1', false);
  m.add(startup('stale', { last_round_date: '2024-03-01T00:00:00Z' }), 'search 1', false);
  m.add(startup('undated', { last_round_date: undefined }), 'search 1', false);
  const rules = { keepClosed: false, raisedSince: '2025-11-26' };
  const strict = applyRules(m.ordered(), null, null, 'exclude', rules);
  expect(strict.listed.map((r) => r.key)).toEqual(['fresh']);
  expect(strict.counts).toMatchObject({ leftOutRaisedBefore: 1, leftOutNoRoundDate: 1 });
  expect(strict.suppressed.map((s) => [s.key, s.reason])).toEqual([
    ['stale', 'raised-before'],
    ['undated', 'no-round-date'],
  ]);
  // A service that gives no last round date at all: the rule still leaves out what it can judge,
  // and keeps the rest (the report says the rule was not applied to them).
  const lenient = applyRules(m.ordered(), null, null, 'exclude', { ...rules, keepUndated: true });
  expect(lenient.listed.map((r) => r.key)).toEqual(['fresh', 'undated']);
  expect(lenient.counts).toMatchObject({ leftOutRaisedBefore: 1, leftOutNoRoundDate: 0 });
});

test('a row is enriched from its profile: founders with roles, investors leads first, rounds', () => {
  const base = applyRules([startupRow()], null, null, 'mark').listed[0]!;
  const row = enrichRow(base, {
    startup: {
      founded_year: 2019,
      founders: [{ name: 'Ada', role: 'CEO' }, { name: 'Linus' }],
      rounds: [
        { lead_investors: [{ name: 'Lead One' }], investors: [{ name: 'Lead One' }, { name: 'Angel' }] },
        { investors: [{ name: 'Angel' }, { name: 'Late Fund' }] },
      ],
    },
  });
  expect(row).toMatchObject({
    enriched: true,
    foundedYear: 2019,
    founders: ['Ada (CEO)', 'Linus'],
    investors: ['Lead One', 'Angel', 'Late Fund'],
    roundsCount: 2,
  });
});

function startupRow() {
  const m = new ProspectMerger();
  m.add(startup('solo'), 'search 1', false);
  return m.ordered()[0]!;
}

test('the tally gives the chart counts: stages, sectors, top countries and other, score bands of the scored rows', () => {
  const t = new ListTally();
  const row = (over: Partial<ProspectRow>): ProspectRow => ({ ...startupRow(), rank: 1, ...over });
  for (let i = 0; i < 14; i++)
    t.add(row({ country: `Country ${String(i).padStart(2, '0')}`, stage: 'seed' }));
  t.add(row({ country: 'Country 00', fitPct: 92, momentum: 85, stage: null }));
  t.add(row({ country: 'Country 00', fitPct: 45, momentum: 5, deliveredOn: '2026-11-16' }));
  const c = t.charts();
  expect(c.countries[0]).toEqual({ label: 'Country 00', count: 3 });
  expect(c.countries.at(-1)).toEqual({ label: 'other', count: 2 });
  expect(c.countries).toHaveLength(13);
  expect(c.stages).toEqual([
    { label: 'seed', count: 15 },
    { label: 'not given', count: 1 },
  ]);
  expect(c.fit.find((b) => b.label === '90-100')!.count).toBe(1);
  expect(c.fit.find((b) => b.label === 'below 50')!.count).toBe(1);
  expect(c.momentum.map((b) => b.count)).toEqual([1, 0, 0, 0, 1]);
  expect([t.rows, t.scored, t.netNew]).toEqual([16, 2, 15]);
});

test('the plan says the calls, credits, time and days, and what enriching every row would take', () => {
  const job = parseProspectListJob({
    id: 'big',
    kind: 'prospect-list',
    title: 'Big list',
    briefs: [{ brief: 'law firm for fintech', limit: 50 }],
    searches: [{ region: 'europe', cap: 100_000 }],
    enrich: 1000,
    budget: { credits: 3 },
  });
  const limits = { perMinute: 60, perDay: 5000 };
  const d = prospectPlanDetail(job, limits);
  expect(d.calls).toEqual({ briefs: 1, pages: 1000, enrich: 1000, account: 1, total: 2002 });
  expect(d.days).toBe(1);
  expect(d.enrichAll.days).toBe(21);
  const lines = prospectPlanLines(job, limits).join('\n');
  expect(lines).toContain('at most 2002');
  expect(lines).toContain('about 34 min at 60 calls/min');
  expect(lines).toContain('enriching every row would take 100050 get_startup calls, 21 days');
  const small = prospectPlanLines(
    { ...job, searches: [{ ...job.searches[0]!, cap: 100_000 }] },
    { perMinute: 60, perDay: 1500 },
  );
  expect(small.join('\n')).toContain('days: 2: more calls than the daily limit of 1500');
});

test("a list longer than a profile's row limit is split into numbered files, each with its header", async () => {
  const rows = function* () {
    for (let i = 0; i < 50_001; i++)
      yield { ...startupRow(), rank: i + 1, key: `k${i}`, name: `Company ${i}` };
  };
  const out = (await writeProspectCsvs(rows(), ['salesforce'], dir, 'big')).salesforce!;
  expect(out.rows).toBe(50_001);
  expect(out.files.map((f) => f.slice(dir.length + 1))).toEqual([
    'big-salesforce-001.csv',
    'big-salesforce-002.csv',
  ]);
  const header = CRM_PROFILE_SPECS.salesforce.columns.map((c) => c.header);
  const first: string[][] = parse(readFileSync(out.files[0]!));
  const second: string[][] = parse(readFileSync(out.files[1]!));
  expect(first[0]).toEqual(header);
  expect(second[0]).toEqual(header);
  expect(first.length - 1).toBe(50_000);
  expect(second.slice(1).map((r) => r[0])).toEqual(['Company 50000']);
});
