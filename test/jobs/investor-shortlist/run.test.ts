/**
 * The investor shortlist on the real embedded Temporal server, with real workers, against the
 * sandbox over HTTP: a baseline, then a run whose lists are longer marks the new investors in the
 * PDF and the workbook; each run costs the account 3 credits a company; on a free plan only the
 * first company is asked, for the top 5.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import {
  parseInvestorShortlistJob,
  type InvestorShortlistResult,
} from '../../../jobs/investor-shortlist/index.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { formulaLikeCells, openWorkbook, pdfText } from '../../helpers/reports.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;
let free: RunnerHarness;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.startup, name: 'shortlist' });
  free = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.free, name: 'shortlist-free' });
});

afterAll(async () => {
  await h?.close();
  await free?.close();
  await sandbox?.close();
});

async function balance(key: string): Promise<number> {
  return (await callSandbox(sandbox, 'my_account', { key })).body.credits?.remaining as number;
}

const job = (limit: number, dir: string) =>
  parseInvestorShortlistJob({
    id: 'shortlist-e2e',
    kind: 'investor-shortlist',
    title: 'Shortlist end to end',
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
    ],
    enrich: 2,
    budget: { credits: 6 },
    destination: `${dir}/reports`,
  });

test('a baseline, then the investors new since marked; 3 credits a company by the balance', async () => {
  const b0 = await balance(KEYS.startup);
  const first = await followRun<InvestorShortlistResult>(
    await startJobRun(h.client, h.settings, job(8, h.dir)),
    QUIET,
  );
  expect(first.partial, first.reasons.join('; ')).toBe(false);
  expect(b0 - (await balance(KEYS.startup))).toBe(6);
  expect(first.baseline).toBe(true);
  const b1 = await balance(KEYS.startup);
  const second = await followRun<InvestorShortlistResult>(
    await startJobRun(h.client, h.settings, job(12, h.dir)),
    QUIET,
  );
  expect(second.partial, second.reasons.join('; ')).toBe(false);
  expect(b1 - (await balance(KEYS.startup))).toBe(6);
  expect(second.baseline).toBe(false);
  const wb = await openWorkbook(second.files.xlsx!);
  expect(wb.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Stackwise', 'Ledgerly']));
  expect(formulaLikeCells(wb)).toEqual([]);
  const text = pdfText(second.files.pdf!);
  expect(text).toMatch(/NEW/);
}, 240_000);

test('on a free plan only the first company is asked, for the top 5, and the report says why', async () => {
  const b0 = await balance(KEYS.free);
  const result = await followRun<InvestorShortlistResult>(
    await startJobRun(free.client, free.settings, { ...job(20, free.dir), id: 'shortlist-free' }),
    QUIET,
  );
  expect(b0 - (await balance(KEYS.free))).toBe(3);
  expect(result.partial).toBe(true);
  expect(result.reasons.join('; ')).toMatch(/the free plan/);
  const text = pdfText(result.files.pdf!).replace(/\s+/g, ' ');
  expect(text).toMatch(/free plan/i);
}, 240_000);
