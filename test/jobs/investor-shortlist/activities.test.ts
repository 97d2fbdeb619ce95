/**
 * The investor shortlist's activities on the sandbox's answers over HTTP, run after run: the
 * baseline marks nothing; the next run (its list longer) marks exactly the investors the first did
 * not list; a company not asked keeps its reason; investors on several lists are gathered. Each
 * record names the answers it came from; the report as the code before sources stored it renders.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { snapshotRefOf } from '../../../activities/run.js';
import { LocalStore } from '../../../activities/store.js';
import { createInvestorShortlistActivities } from '../../../jobs/investor-shortlist/activities.js';
import { parseInvestorShortlistJob } from '../../../jobs/investor-shortlist/job.js';
import { companyParams } from '../../../jobs/investor-shortlist/plan.js';
import type { ShortlistReport } from '../../../jobs/investor-shortlist/types.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { openWorkbook, pdfText } from '../../helpers/reports.js';
import {
  dataSheetRows,
  sourcesSheetNote,
  sourcesSheetRows,
  withoutSources,
} from '../../helpers/report-sources.js';
import { noSourcesNote, SOURCE_COLUMN } from '../../../reports/sources.js';

let sandbox: RunningSandbox;
const dir = mkdtempSync(join(tmpdir(), 'vir-shortlist-'));
const store = new LocalStore(join(dir, 'store'));
const acts = createInvestorShortlistActivities({ store, reportsDir: join(dir, 'reports') });

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const jobWith = (limit: number) =>
  parseInvestorShortlistJob({
    id: 'raises',
    kind: 'investor-shortlist',
    title: 'Raises',
    companies: [
      {
        name: 'Stackwise',
        description: 'Infrastructure-as-code automation for platform teams.',
        sector: 'Software & Developer Tools',
        raising_stage: 'series-a',
        limit,
      },
      {
        name: 'Ledgerly',
        description: 'Payments reconciliation for marketplaces.',
        sector: 'Finance & Blockchain',
        raising_stage: 'seed',
        limit,
      },
      { name: 'Later Co', description: 'Robots that sort parcels.', sector: 'Industry & Hardware', limit },
    ],
    enrich: 2,
    budget: { credits: 6 },
  });

async function run(n: number, limit: number): Promise<ShortlistReport> {
  const job = jobWith(limit);
  const runKey = `shortlist-${n}`;
  const companies = [];
  const profiles = [];
  for (const [i, c] of job.companies.entries()) {
    if (i === 2) {
      companies.push({ name: c.name, ref: null, charged: 0, problem: 'not asked: credit budget reached' });
      continue;
    }
    const r = await callSandbox(sandbox, 'find_investors', { key: KEYS.startup, params: companyParams(c) });
    expect(r.status, r.text).toBe(200);
    const ref = await store.putJson(runKey, `investors/company-${i + 1}`, {
      operation: 'find_investors',
      params: {},
      fetchedAt: '',
      result: r.body,
    });
    companies.push({ name: c.name, ref, charged: 3, problem: null });
    const keys = (r.body.data as { investors: { key: string }[] }).investors
      .slice(0, job.enrich)
      .map((x) => x.key);
    for (const key of keys) {
      const p = await callSandbox(sandbox, 'get_investor', { key: KEYS.startup, params: { key } });
      profiles.push({
        key,
        ref: await store.putJson(runKey, `profiles/${key}`, {
          operation: 'get_investor',
          params: {},
          fetchedAt: '',
          result: p.body,
        }),
      });
    }
  }
  const built = await acts.buildShortlist({
    runKey,
    job,
    date: `2026-11-${16 + n}`,
    companies,
    profiles,
    creditsSpent: 6,
    planNote: null,
  });
  await store.putJsonAt(snapshotRefOf(job.id), await store.getJson(built.snapshotRef));
  return store.getJson<ShortlistReport>(built.reportRef);
}

test('the baseline marks nothing; the next run marks exactly the investors new to each list', async () => {
  const first = await run(1, 10);
  expect(first.baseline).toBe(true);
  expect(first.companies.map((c) => [c.name, c.investors.length, c.newCount])).toEqual([
    ['Stackwise', 10, 0],
    ['Ledgerly', 10, 0],
    ['Later Co', 0, 0],
  ]);
  expect(first.companies[2]!.problem).toBe('not asked: credit budget reached');
  expect(first.companies[0]!.investors.slice(0, 2).every((r) => r.enriched && r.thesis !== null)).toBe(true);
  expect(first.companies[0]!.investors[2]!.enriched).toBe(false);
  expect(first.companies[0]!.charts.map((c) => c.type)).toContain('combo');
  for (const s of first.shared) expect(s.companies).toEqual(['Stackwise', 'Ledgerly']);

  const second = await run(2, 15);
  expect(second.baseline).toBe(false);
  for (const [i, c] of second.companies.slice(0, 2).entries()) {
    const before = new Set(first.companies[i]!.investors.map((r) => r.key));
    expect(c.investors.filter((r) => r.isNew).map((r) => r.key)).toEqual(
      c.investors.filter((r) => !before.has(r.key)).map((r) => r.key),
    );
    expect(c.newCount).toBe(5);
  }

  // The sources: each company's list in the job's order (S1, S2), then the profiles as asked.
  const refs = second.sources!.map((s) => s.ref);
  expect(refs.slice(0, 2)).toEqual([
    'runs/shortlist-2/investors/company-1.json',
    'runs/shortlist-2/investors/company-2.json',
  ]);
  expect(refs.slice(2).every((r) => r.startsWith('runs/shortlist-2/profiles/'))).toBe(true);
  expect(second.sources!.map((s) => s.id)).toEqual(second.sources!.map((_, i) => `S${i + 1}`));
  expect(second.companies.map((c) => c.source)).toEqual(['S1', 'S2', undefined]);
  for (const [i, c] of second.companies.slice(0, 2).entries())
    for (const r of c.investors) {
      expect(r.sources![0]).toBe(`S${i + 1}`);
      // An enriched row names the profile it was enriched from: that answer asked for its key.
      if (r.enriched)
        expect(refs[Number(r.sources![1]!.slice(1)) - 1]).toBe(`runs/shortlist-2/profiles/${r.key}.json`);
      else expect(r.sources).toHaveLength(1);
    }
  for (const s of second.shared) expect(s.sources).toEqual(['S1', 'S2']);

  // The report as the code before sources stored it: rendered all the same, saying why it lists none.
  const old = await acts.renderShortlist({
    reportRef: await store.putJson('shortlist-2-old', 'shortlist/report', withoutSources(second)),
    job: { id: 'raises', destination: join(dir, 'reports', 'old'), outputs: ['pdf', 'xlsx'] },
    date: '2026-11-18',
    workflowId: 'shortlist-2-old',
  });
  const wb = await openWorkbook(old.files.xlsx!);
  expect(sourcesSheetRows(wb)).toEqual([]);
  expect(sourcesSheetNote(wb)).toBe(noSourcesNote('shortlist-2-old'));
  expect(dataSheetRows(wb, 'Stackwise').every((r) => r[SOURCE_COLUMN] === '')).toBe(true);
  const text = pdfText(old.files.pdf!).replace(/\s+/g, ' ');
  expect(text).not.toContain('Source:');
  expect(text).toContain('This run was made before its report recorded its sources');
});
