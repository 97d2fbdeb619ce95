/**
 * The four kinds' reports against the editorial rules (test/helpers/editorial-rules.ts): each
 * kind's PDF, workbook and (the prospect list) CSV files, rendered from the report tests'
 * fixtures through the kind's own render activity, as a run against a service at a loopback
 * address with no public address set (the sandbox's case: every view link must be left out).
 * Each kind's files must break no rule; a failure lists every violation with its page or cell.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStore } from '../../activities/store.js';
import { createFundMatchActivities } from '../../jobs/fund-match/activities.js';
import { createInvestorShortlistActivities } from '../../jobs/investor-shortlist/activities.js';
import { marketModelFixture } from '../../jobs/market-report/fixtures/market-model.js';
import { createMarketReportActivities } from '../../jobs/market-report/activities.js';
import { createProspectListActivities } from '../../jobs/prospect-list/activities.js';
import type { ServiceLinks } from '../../reports/links.js';
import { countByRule, editorialViolations } from '../helpers/editorial-rules.js';
import type { EditorialInput, Violation } from '../helpers/editorial-rules.js';
import { fundDigests } from '../jobs/fund-match/report/fixture.js';
import { shortlistReport } from '../jobs/investor-shortlist/report/fixture.js';
import { prospectSummary } from '../jobs/prospect-list/report/fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'editorial-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The service as the sandbox runs it: a loopback base URL and no public address. */
const SERVICE = 'http://127.0.0.1:8787';
const LINKS: ServiceLinks = { baseUrl: SERVICE, publicUrl: null };

/** The fixtures' service hosts, moved to the loopback base URL a sandbox run gives. */
const SERVICE_HOSTS = /https:\/\/(?:app\.venture-intel\.example|vis\.example\.com|vis\.example)(?=\/|$)/g;

/** A fixture with every service link under the loopback base URL (websites stay as they are). */
function atLoopback<T>(fixture: T): T {
  return JSON.parse(JSON.stringify(fixture).replace(SERVICE_HOSTS, SERVICE)) as T;
}

/** Columns of the four kinds' files, by header. */
const COLUMNS: Omit<EditorialInput, 'asOf'> = {
  // Meant for machines: service keys and ids, ISO dates, a CRM's own codes.
  machineColumns: [/\bkey\b/i, /\bid\b/i, /^stage code$/i, /^service stage$/i],
  // What a reader acts on: never cut.
  fullTextColumns: [
    /^why\b/i,
    /\breasons?\b/i,
    /^analyst note/i,
    /\bnote\b/i,
    /\bfounders?\b/i,
    /\binvestors?\b/i,
    /^check, thesis$/i,
    /\bthesis\b/i,
  ],
  yearColumns: [/^year\b/i],
};

const store = new LocalStore(join(dir, 'store'));
const deps = { store, reportsDir: join(dir, 'reports'), serviceLinks: LINKS };

/** Renders one kind and checks its files; returns the violations. */
async function check(asOf: string, files: Record<string, string>): Promise<Violation[]> {
  const csv = Object.entries(files)
    .filter(([k]) => k.startsWith('csv'))
    .map(([, p]) => p);
  return editorialViolations({
    asOf,
    ...COLUMNS,
    ...(files.pdf ? { pdf: files.pdf } : {}),
    ...(files.xlsx ? { workbook: files.xlsx } : {}),
    csv,
  });
}

/** The violations as a reader of a failing test wants them: counts per rule, then each. */
function summary(kind: string, v: readonly Violation[]): string {
  return [
    `${kind}: ${v.length} violations ${JSON.stringify(countByRule(v))}`,
    ...v.map((x) => `  ${x.rule}  ${x.file}  ${x.where}  ${x.text.slice(0, 160)}`),
  ].join('\n');
}

/** Expects no violation; prints them all when there are some. */
function expectClean(kind: string, v: readonly Violation[]): void {
  if (v.length > 0) console.log(summary(kind, v));
  expect(countByRule(v), summary(kind, v)).toEqual({});
}

describe('the editorial rules on every kind’s report', () => {
  it('the weekly market report', async () => {
    const model = atLoopback(marketModelFixture());
    const acts = createMarketReportActivities(deps);
    const out = await acts.renderMarketReport({
      modelRef: await store.putJson('market', 'report/model', model),
      job: { id: 'dach-weekly', outputs: ['pdf', 'xlsx'] },
      date: model.period.asOf,
      workflowId: 'market',
    });
    expect(out.files.pdf).toBeDefined();
    expect(out.files.xlsx).toBeDefined();
    expectClean('market report', await check(model.period.asOf, out.files));
  });

  it('the prospect list', async () => {
    const summaryModel = atLoopback(prospectSummary());
    const acts = createProspectListActivities(deps);
    const out = await acts.renderProspectList({
      refs: {
        summaryRef: await store.putJson('prospects', 'list/summary', summaryModel),
        rowChunks: [await store.putJson('prospects', 'list/rows-0', summaryModel.top)],
        suppressedChunks: [],
      },
      job: {
        id: 'dach-payments',
        outputs: ['csv', 'xlsx', 'pdf'],
        crm: ['hubspot', 'salesforce', 'generic'],
      },
      date: summaryModel.date,
      workflowId: 'prospects',
    });
    expect(out.files.pdf).toBeDefined();
    expect(out.files.xlsx).toBeDefined();
    expect(Object.keys(out.files).filter((k) => k.startsWith('csv')).length).toBeGreaterThanOrEqual(3);
    expectClean('prospect list', await check(summaryModel.date, out.files));
  });

  it('the fund-match digest', async () => {
    const digest = atLoopback(fundDigests().second);
    const acts = createFundMatchActivities(deps);
    const out = await acts.renderFundDigest({
      digestRef: await store.putJson('funds', 'digest/model', digest),
      job: { id: 'weekly-matches', outputs: ['pdf', 'xlsx'], digestWhenQuiet: true },
      date: digest.date,
      workflowId: 'funds',
    });
    expect(out.files.pdf).toBeDefined();
    expect(out.files.xlsx).toBeDefined();
    expectClean('fund-match digest', await check(digest.date, out.files));
  });

  it('the investor shortlist', async () => {
    const report = atLoopback(shortlistReport());
    const acts = createInvestorShortlistActivities(deps);
    const out = await acts.renderShortlist({
      reportRef: await store.putJson('shortlist', 'shortlist/report', report),
      job: { id: 'portfolio-raises', outputs: ['pdf', 'xlsx'] },
      date: report.date,
      workflowId: 'shortlist',
    });
    expect(out.files.pdf).toBeDefined();
    expect(out.files.xlsx).toBeDefined();
    expectClean('investor shortlist', await check(report.date, out.files));
  });
});
