/**
 * Paid calls under faults that happen after the service charged: the answer dropped, a 500 or
 * 503, an answer that never finishes, a body that is not the envelope; one mode at a time and
 * mixed at 20 %. Proven from the outside: the account's balance (the sandbox's own books)
 * before and after a run equals the credits the run's manifest says it spent, never above the
 * run's budget, and every question not answered is named in the report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import type { MarketReportModel } from '../../jobs/market-report/report/model.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import type { AfterChargeFaults } from '../../sandbox/types.js';
import { pdfText } from '../helpers/reports.js';
import { paidFaultsBed, QUIET, type RunnerHarness } from '../helpers/runner.js';

const KEY = 'vis_live_sandbox_vc';
let sandbox: RunningSandbox;
let h: RunnerHarness;

paidFaultsBed('paid', KEY, (s, r) => ((sandbox = s), (h = r)));

/** The account's balance in the sandbox's own books. */
function balance(): number {
  const id = sandbox.state.keys.get(KEY)!.account_id;
  return sandbox.state.accounts.get(id)!.credits;
}

const QUESTIONS = [
  'how many seed rounds were there in Germany in 2025',
  'top 10 investors by number of deals in Germany',
  'median series A size in Germany',
  'total capital raised in fintech by year',
  'which countries raised the most in 2025',
];

let seq = 0;

async function runWithFaults(faults: AfterChargeFaults, budget: number, questions = QUESTIONS.length) {
  const job = parseMarketReportJob({
    id: `paid-${++seq}`,
    title: 'Paid calls under faults',
    countries: ['Germany'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
    enrich: { investors: 0, startups: 0 },
    questions: QUESTIONS.slice(0, questions),
    budget: { credits: budget },
    outputs: ['pdf'],
    destination: join(h.dir, 'reports'),
  });
  sandbox.setFaults({ afterCharge: faults, seed: 11 + seq });
  const before = balance();
  const faultedBefore = sandbox.afterChargeFaulted();
  const result = await followRun(await startJobRun(h.client, h.settings, job), QUIET);
  sandbox.setFaults({});
  const after = balance();
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
    credits: { charged: number; budget: number };
    status: string;
    reasons: string[];
  };
  const model = JSON.parse(
    readFileSync(join(h.dir, 'store', 'runs', result.workflowId, 'report', 'model.json'), 'utf8'),
  ) as MarketReportModel;
  const faulted = sandbox.afterChargeFaulted() - faultedBefore;
  return { paid: before - after, faulted, manifest, model, pdf: pdfText(result.files.pdf!) };
}

describe('a paid call whose answer is lost after the charge', () => {
  test('is not asked again when the budget has no room: the account paid what the manifest says', async () => {
    // Budget 3 for 3 questions; the first two answers are lost after the charge.
    const r = await runWithFaults({ dropRate: 1, operations: ['ask'], times: 2 }, 3, 3);
    expect(r.paid).toBe(3);
    expect(r.manifest.credits.charged).toBe(r.paid);
    expect(r.manifest.status).toBe('partial');
    const lost = r.model.answers.filter((a) => a.skipped);
    expect(lost).toHaveLength(2);
    expect(
      r.manifest.reasons.filter((x) =>
        /charged 1 credit for an answer that was lost; not asked again/.test(x),
      ),
    ).toHaveLength(2);
    expect(r.pdf).toContain('for an answer that was lost');
  });

  test('is asked again when the budget has room, and the account paid for both attempts', async () => {
    const r = await runWithFaults({ errorRate: 1, operations: ['ask'], times: 1 }, 5, 2);
    expect(r.paid).toBe(3);
    expect(r.manifest.credits.charged).toBe(3);
    expect(r.model.answers.every((a) => !a.skipped)).toBe(true);
  });

  test.each([
    ['dropRate', 'dropped connections'],
    ['errorRate', '500 and 503 answers'],
    ['hangRate', 'answers that never finish'],
    ['malformedRate', 'bodies that are not the envelope'],
  ] as const)(
    '%s (%s) on every paid call: never above the budget, the balance agrees',
    async (mode, _what) => {
      const r = await runWithFaults({ [mode]: 1 }, 4);
      expect(r.paid).toBe(r.manifest.credits.charged);
      expect(r.paid).toBeLessThanOrEqual(4);
      expect(r.paid).toBeGreaterThan(0);
      // Every question was charged and lost: each is named in the report.
      expect(r.model.answers.filter((a) => a.skipped).length).toBe(QUESTIONS.length);
    },
  );

  test('mixed faults on 20 % of the paid calls: never above the budget, the balance agrees', async () => {
    let faulted = 0;
    for (const budget of [4, 7, 7]) {
      const r = await runWithFaults(
        { dropRate: 0.05, errorRate: 0.05, hangRate: 0.05, malformedRate: 0.05 },
        budget,
      );
      expect(r.paid).toBe(r.manifest.credits.charged);
      expect(r.paid).toBeLessThanOrEqual(budget);
      faulted += r.faulted;
    }
    // The faults did happen (the seed makes them the same every time).
    expect(faulted).toBeGreaterThan(0);
  });
});
