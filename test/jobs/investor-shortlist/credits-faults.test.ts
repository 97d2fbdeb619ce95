/**
 * The investor shortlist's credits under the faults that happen after the service charged (the
 * answer dropped, a 500 or 503, an answer that never finishes, a body that is not the envelope:
 * a drop and a 500 alone, the others in the seeded mixed runs; the kind sees every mode as the
 * same outcome_unknown failure, activities/api.ts toActivityFailure), on the real embedded
 * Temporal server against the sandbox, three
 * companies a run. Proven from the outside: the account's balance in the sandbox's own books
 * falls by exactly what the run's manifest says it charged, never above the budget; only
 * find_investors costs anything (the log's get_investor calls are free): the fall is 3 credits
 * for each list the log shows charged, and the report's credits per company add up to it. A list
 * lost after the charge is asked again, and paid again, only when the budget has room; otherwise
 * the report names the company and what its lost list cost (that decision on its own:
 * test/workflows/skipping/paid-reconcile.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import {
  parseInvestorShortlistJob,
  type InvestorShortlistResult,
} from '../../../jobs/investor-shortlist/index.js';
import { shortlistPlanLines } from '../../../jobs/investor-shortlist/plan.js';
import type { ShortlistReport } from '../../../jobs/investor-shortlist/types.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import type { AfterChargeFaults } from '../../../sandbox/types.js';
import {
  creditsOfRequests,
  ledgerSpentByJob,
  readManifest,
  underAfterChargeFaults,
} from '../../helpers/paid-books.js';
import { openWorkbook, pdfText } from '../../helpers/reports.js';
import { KEYS } from '../../helpers/sandbox.js';
import { paidFaultsBed, QUIET, type RunnerHarness } from '../../helpers/runner.js';

const KEY = KEYS.startup;
const FIND = 'find_investors';
let sandbox: RunningSandbox;
let h: RunnerHarness;

paidFaultsBed('shortlist-credits', KEY, (s, r) => ((sandbox = s), (h = r)));

const COMPANIES = [
  {
    name: 'Stackwise',
    description: 'Infrastructure-as-code automation for platform teams.',
    sector: 'Software & Developer Tools',
    raising_stage: 'series-a',
    limit: 8,
  },
  {
    name: 'Ledgerly',
    description: 'Payments reconciliation for marketplaces.',
    sector: 'Finance & Blockchain',
    raising_stage: 'seed',
    limit: 8,
  },
  {
    name: 'Greenloop',
    description: 'Battery recycling logistics for European e-mobility fleets.',
    sector: 'Energy, Environment & Mobility',
    raising_stage: 'seed',
    limit: 8,
  },
];

let seq = 0;

const jobOf = (id: string, budget: number, outputs: ('pdf' | 'xlsx')[] = ['pdf', 'xlsx']) =>
  parseInvestorShortlistJob({
    id,
    kind: 'investor-shortlist',
    title: 'Shortlist under after-charge faults',
    companies: COMPANIES,
    enrich: 2,
    budget: { credits: budget },
    outputs,
    destination: `${h.dir}/reports`,
  });

/** Runs a shortlist of the three companies under the faults; what the books say. */
async function runWithFaults(
  faults: AfterChargeFaults,
  budget: number,
  seed = 7,
  outputs?: ('pdf' | 'xlsx')[],
) {
  const id = `shortlist-credits-${++seq}`;
  const { result, paid, faulted, requests, charged } = await underAfterChargeFaults(
    sandbox,
    KEY,
    faults,
    seed,
    async () =>
      followRun<InvestorShortlistResult>(
        await startJobRun(h.client, h.settings, jobOf(id, budget, outputs)),
        QUIET,
      ),
  );
  const report = JSON.parse(
    readFileSync(join(h.dir, 'store', 'runs', result.workflowId, 'shortlist', 'report.json'), 'utf8'),
  ) as ShortlistReport;
  return {
    id,
    paid,
    faulted,
    result,
    manifest: readManifest(result.manifestPath),
    report,
    requests,
    finds: requests.filter((x) => x.operation === FIND),
    charged,
    chargedByLog: creditsOfRequests(charged),
    ledger: await ledgerSpentByJob(h, KEY, id),
  };
}

type Outcome = Awaited<ReturnType<typeof runWithFaults>>;

/** What every run proves, whatever the faults did. */
function expectBooksAgree(r: Outcome, budget: number): void {
  expect(r.paid).toBeLessThanOrEqual(budget);
  expect(r.manifest.credits.charged).toBe(r.paid);
  // Only the lists cost anything: 3 credits each the log shows charged, nothing for get_investor.
  expect(r.charged.every((c) => c.operation === FIND)).toBe(true);
  expect(r.paid).toBe(3 * r.charged.length);
  expect(r.paid).toBe(r.chargedByLog);
  const gets = r.requests.filter((x) => x.operation === 'get_investor');
  expect(gets.every((g) => g.status === 200 && g.fault === undefined)).toBe(true);
  expect(r.manifest.calls.byOperation.get_investor ?? 0).toBe(gets.length);
  // The account's ledger settled what the balance lost, lost answers included.
  expect(r.ledger).toBe(r.paid);
  // The report says what the run spent, and what each company cost adds up to it.
  expect(r.report.credits.spent).toBe(r.paid);
  expect(r.report.companies.reduce((n, c) => n + c.charged, 0)).toBe(r.paid);
}

/** The companies with a list, and the ones without, by name. */
const listed = (r: Outcome) => r.report.companies.filter((c) => c.problem === null).map((c) => c.name);

test('a budget with room: the lost list is asked again and paid again (12 credits), all three listed', async () => {
  const r = await runWithFaults({ dropRate: 1, operations: [FIND], times: 1 }, 12);
  expect(r.faulted).toBe(1);
  expectBooksAgree(r, 12);
  expect(r.paid).toBe(12);
  expect(r.finds.map((x) => x.fault ?? x.status)).toEqual(['after-charge drop', 200, 200, 200]);
  expect(listed(r)).toEqual(['Stackwise', 'Ledgerly', 'Greenloop']);
  expect(r.result.partial, r.result.reasons.join('; ')).toBe(false);
  expect(r.manifest.calls.attempts!.byOperation[FIND]).toEqual({ attempted: 4, succeeded: 3, failed: 1 });
  // Stackwise cost two lists: the one lost and the one kept.
  expect(r.report.companies.map((c) => c.charged)).toEqual([6, 3, 3]);
  // What each company cost is on the workbook's Run sheet (run statistics stay off the Summary).
  const wb = await openWorkbook(r.result.files.xlsx!);
  const run = wb.getWorksheet('Run')!;
  const credits: number[] = [];
  run.eachRow((row) => {
    const name = row.getCell(1).text;
    if (COMPANIES.some((c) => c.name === name)) credits.push(Number(row.getCell(2).value));
  });
  expect(credits).toEqual([6, 3, 3]);
});

test('a budget short of the companies: never above it; the company not asked and the lost list are named', async () => {
  const job = jobOf('plan-only', 6);
  expect(shortlistPlanLines(job, { perMinute: 60, perDay: 5000 })[1]).toBe(
    'credits: the budget of 6 pays for 2 of 3 companies (3 each); the rest are listed as not asked',
  );
  const r = await runWithFaults({ errorRate: 1, operations: [FIND], times: 1 }, 6);
  expect(r.faulted).toBe(1);
  expectBooksAgree(r, 6);
  expect(r.paid).toBe(6);
  // Greenloop was never asked; Stackwise's list was lost after the charge; Ledgerly's kept.
  expect(r.finds).toHaveLength(2);
  expect(listed(r)).toEqual(['Ledgerly']);
  expect(r.report.companies.map((c) => c.charged)).toEqual([3, 3, 0]);
  expect(r.report.companies[2]!.problem).toMatch(/^not asked: credit budget of 6 reached/);
  // The lost list is named, with what it cost, in the report.
  expect(r.report.companies[0]!.problem).toMatch(/lost after the service charged 3 credits/);
  expect(r.manifest.reasons).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^find_investors Stackwise: .*charged 3 credits for an answer that was lost/),
      '1 of 3 companies not asked: credit budget of 6 credits',
    ]),
  );
  const pdf = pdfText(r.result.files.pdf!).replace(/\s+/g, ' ');
  expect(pdf).toContain('Greenloop');
  expect(pdf).toMatch(/Not asked: credit budget of 6 reached/);
  expect(pdf).toMatch(/lost after the service charged 3 credits/);
});

test('mixed faults on the paid calls: the balance agrees with the manifest and the report, never above the budget', async () => {
  // The seeds draw, per list asked (the same every time): seed 7: a 500 then Stackwise's list,
  // Ledgerly's, then a malformed body for Greenloop (no room to ask again); seed 19: a 500 and a
  // malformed body for Stackwise, Ledgerly's list, a hang for Greenloop.
  const seen: { seed: number; faults: string[]; paid: number; listed: string[] }[] = [];
  for (const seed of [7, 19]) {
    const r = await runWithFaults(
      { dropRate: 0.15, errorRate: 0.15, hangRate: 0.15, malformedRate: 0.15 },
      12,
      seed,
      ['xlsx'],
    );
    expectBooksAgree(r, 12);
    const faults = r.finds.flatMap((x) => (x.fault ? [x.fault.replace('after-charge ', '')] : []));
    expect(faults).toHaveLength(r.faulted);
    expect(r.manifest.calls.attempts!.byOperation[FIND]!.failed).toBe(r.faulted);
    seen.push({ seed, faults, paid: r.paid, listed: listed(r) });
  }
  expect(seen).toEqual([
    { seed: 7, faults: ['error500', 'malformed'], paid: 12, listed: ['Stackwise', 'Ledgerly'] },
    { seed: 19, faults: ['error500', 'malformed', 'hang'], paid: 12, listed: ['Ledgerly'] },
  ]);
});
