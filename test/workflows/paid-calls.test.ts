/**
 * Paid calls under faults that happen after the service charged: the answer dropped, a 500 or
 * 503, an answer that never finishes, a body that is not the envelope; each mode once in one run
 * (a seed draws one of each for the four asks), and mixed at 20 %. Proven from the outside: the
 * account's balance (the sandbox's own books) before and after a run equals the credits the
 * run's manifest says it spent and what the request log shows charged, never above the run's
 * budget, and every question not answered is named in the report. The decisions themselves (asked
 * again when the budget has room, not asked again when it has none, the free repeat, three
 * attempts at most) are in test/workflows/skipping/paid-reconcile.test.ts; a lost answer asked
 * again and paid again, witnessed by the balance and the log, in test/jobs/market-report/run.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import type { MarketReportModel } from '../../jobs/market-report/report/model.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import type { AfterChargeFaults } from '../../sandbox/types.js';
import { chargedRequests, creditsOfRequests, requestsSince } from '../helpers/paid-books.js';
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

async function runWithFaults(faults: AfterChargeFaults, budget: number, questions: number, seed: number) {
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
  sandbox.setFaults({ afterCharge: faults, seed });
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
  test('each fault mode in one run, budget short of the questions: not asked again, never above the budget, the balance agrees', async () => {
    // The seed draws, per ask, one mode each (the same every time): a 500 or 503, a malformed
    // body, an answer that never finishes (given up at the 6 s HTTP timeout), a dropped
    // connection. The budget of 4 pays for four of the five questions: each is charged and
    // lost, and none is asked again (no room); the fifth is never asked.
    const from = sandbox.requestLog().length;
    const r = await runWithFaults(
      { dropRate: 0.25, errorRate: 0.25, hangRate: 0.25, malformedRate: 0.25, operations: ['ask'] },
      4,
      QUESTIONS.length,
      7,
    );
    const asks = requestsSince(sandbox, from).filter((x) => x.operation === 'ask');
    expect(asks.map((x) => x.fault?.replace(/50[03]$/, '50x'))).toEqual([
      'after-charge error50x',
      'after-charge malformed',
      'after-charge hang',
      'after-charge drop',
    ]);
    expect(r.faulted).toBe(4);
    expect(r.paid).toBe(4);
    expect(r.paid).toBe(creditsOfRequests(chargedRequests(asks)));
    expect(r.manifest.credits.charged).toBe(r.paid);
    expect(r.manifest.status).toBe('partial');
    // Every question was charged and lost, or not asked: each is named in the report.
    expect(r.model.answers.filter((a) => a.skipped).length).toBe(QUESTIONS.length);
    expect(
      r.manifest.reasons.filter((x) =>
        /charged 1 credit for an answer that was lost; not asked again: credit budget/.test(x),
      ),
    ).toHaveLength(4);
    expect(r.pdf).toContain('for an answer that was lost');
  });

  test('mixed faults on 20 % of the paid calls: never above the budget, the balance agrees with the log', async () => {
    const from = sandbox.requestLog().length;
    // The seed draws a 503 and a dropped connection among the first answers (the same every time).
    const r = await runWithFaults(
      { dropRate: 0.05, errorRate: 0.05, hangRate: 0.05, malformedRate: 0.05 },
      7,
      QUESTIONS.length,
      3,
    );
    const asks = requestsSince(sandbox, from).filter((x) => x.operation === 'ask');
    expect(r.faulted).toBeGreaterThanOrEqual(2);
    expect(asks.filter((x) => x.fault === undefined && x.status === 200).length).toBeGreaterThan(0);
    expect(r.paid).toBe(r.manifest.credits.charged);
    expect(r.paid).toBe(creditsOfRequests(chargedRequests(asks)));
    expect(r.paid).toBeLessThanOrEqual(7);
  });
});
