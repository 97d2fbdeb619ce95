/**
 * Credits charged under after-charge faults: the service charged the paid call (ask, 1 credit)
 * and then the answer was lost (connection dropped, 500/503, an answer that never finishes, a
 * body that is not the envelope), 20 % of the paid calls, mixed. The witness is the account's
 * balance in the sandbox's own books, before and after.
 *  - runner: a market report of one country asking 10 questions with a budget of 8 credits;
 *    what the account paid beside what the manifest says the run spent and the budget;
 *  - naive: a script asking the same 10 questions with a VisClient, each failed ask retried up
 *    to 3 times at once, stopping when its own count of answers reaches the same budget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../api/catalog.js';
import { VisClient } from '../api/client.js';
import { startJobRun } from '../cli/run-job.js';
import { parseMarketReportJob } from '../jobs/market-report/index.js';
import type { MarketReportModel } from '../jobs/market-report/report/model.js';
import { startSandbox, type AfterChargeFaults, type RunningSandbox } from '../sandbox/index.js';
import type { JobRunResult } from '../workflows/engine.js';
import { withBenchRunner } from './harness.js';
import { KEY, LIMIT, met, ratio, WINDOW_MS } from './pacing.js';

const QUESTIONS = [
  'how many seed rounds were there in Germany in 2025',
  'top 10 investors by number of deals in Germany',
  'median series A size in Germany',
  'total capital raised in fintech by year',
  'which countries raised the most in 2025',
  'count of rounds above $50M in Europe in 2024',
  'how much did startups in France raise since 2022',
  'number of deals per year in France',
  'deal count by quarter in 2025',
  'quarterly capital raised in the US since 2023',
];
const BUDGET = 8;
/** Each naive ask is tried at most this many times (the first try and 3 retries). */
const NAIVE_TRIES = 4;
/** 20 % of the paid calls, 5 % of each kind. */
const FAULTS: AfterChargeFaults = {
  dropRate: 0.05,
  errorRate: 0.05,
  hangRate: 0.05,
  malformedRate: 0.05,
  operations: ['ask'],
};
const SEED = 7;
/** An answer that never finishes is given up after this (both sides). */
const HTTP_TIMEOUT_MS = 3000;
const ASK = CATALOG.ask.credits;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

async function faultySandbox(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    rateLimitPerMinute: LIMIT,
    minuteWindowMs: WINDOW_MS,
    rateLimitPerDay: 1_000_000,
  });
  sandbox.setFaults({ afterCharge: FAULTS, seed: SEED });
  return sandbox;
}

function balance(sandbox: RunningSandbox): number {
  return sandbox.state.accounts.get(sandbox.state.keys.get(KEY)!.account_id)!.credits;
}

interface RunnerCredits {
  paid: number;
  charged: number;
  budget: number;
  status: string;
  asked: number;
  answered: number;
  faulted: number;
}

async function runnerCredits(temporalAddress: string): Promise<RunnerCredits> {
  const sandbox = await faultySandbox();
  try {
    const env = { VIR_RATE_LIMIT_PER_MINUTE: String(LIMIT), VIR_HTTP_TIMEOUT_MS: String(HTTP_TIMEOUT_MS) };
    return await withBenchRunner(
      temporalAddress,
      sandbox.url,
      KEY,
      env,
      async ({ client, settings, dir }) => {
        const job = parseMarketReportJob({
          id: 'bench-credits',
          title: 'Credits under after-charge faults',
          countries: ['Germany'],
          top: { investors: 3, startups: 3 },
          paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
          enrich: { investors: 0, startups: 0 },
          questions: QUESTIONS,
          budget: { credits: BUDGET },
          outputs: ['xlsx'],
          destination: join(dir, 'reports'),
        });
        const before = balance(sandbox);
        const result = (await (await startJobRun(client, settings, job)).result()) as JobRunResult;
        const paid = before - balance(sandbox);
        const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
          credits: { charged: number; budget: number };
          status: string;
        };
        const model = JSON.parse(
          readFileSync(join(dir, 'store', 'runs', result.workflowId, 'report', 'model.json'), 'utf8'),
        ) as MarketReportModel;
        return {
          paid,
          charged: manifest.credits.charged,
          budget: manifest.credits.budget,
          status: manifest.status,
          asked: sandbox.requestLog().filter((r) => r.operation === 'ask').length,
          answered: model.answers.filter((a) => !a.skipped).length,
          faulted: sandbox.afterChargeFaulted(),
        };
      },
    );
  } finally {
    await sandbox.close();
  }
}

interface NaiveCredits {
  paid: number;
  /** What it thinks it spent: its answers at 1 credit each. */
  thinks: number;
  asked: number;
  faulted: number;
}

async function naiveCredits(): Promise<NaiveCredits> {
  const sandbox = await faultySandbox();
  const client = new VisClient({
    baseUrl: sandbox.url,
    apiKey: KEY,
    headersTimeoutMs: HTTP_TIMEOUT_MS,
    bodyTimeoutMs: HTTP_TIMEOUT_MS,
  });
  try {
    const before = balance(sandbox);
    let answers = 0;
    for (const query of QUESTIONS) {
      if (answers * ASK >= BUDGET) break;
      for (let attempt = 0; attempt < NAIVE_TRIES; attempt += 1) {
        try {
          await client.call('ask', { query });
          answers += 1;
          break;
        } catch {
          // Blindly: whatever failed is asked again at once.
        }
      }
    }
    return {
      paid: before - balance(sandbox),
      thinks: answers * ASK,
      asked: sandbox.requestLog().filter((r) => r.operation === 'ask').length,
      faulted: sandbox.afterChargeFaulted(),
    };
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/** Measures and prints the credits benchmark (under a minute). */
export async function reportCredits(temporalAddress: string): Promise<void> {
  const runner = await runnerCredits(temporalAddress);
  const naive = await naiveCredits();
  const minimum = runner.answered * ASK;
  console.log(
    `\n== Credits under after-charge faults (20% of asks, mixed; ${QUESTIONS.length} questions, budget ${BUDGET}; the account's balance in the sandbox's books) ==`,
  );
  console.log(
    `runner   account paid ${runner.paid}, manifest says ${runner.charged} (budget ${runner.budget}, status ${runner.status}); ${runner.asked} asks reached the service, ${plural(runner.faulted, 'answer')} lost after the charge; ${plural(runner.answered, 'answer')} in the report`,
  );
  console.log(
    `minimum  ${minimum} credits (the ${runner.answered} answers the report got, ${ASK} credit each)`,
  );
  console.log(
    `naive    account paid ${naive.paid}, thinks it spent ${naive.thinks} (its answers; budget ${BUDGET}); ${naive.asked} asks reached the service, ${plural(naive.faulted, 'answer')} lost after the charge (each failed ask retried up to 3 times at once)`,
  );
  const ok = runner.paid === runner.charged && runner.paid <= BUDGET;
  console.log(
    `ratio    runner paid/manifest ${ratio(runner.paid, runner.charged)}, paid/minimum ${ratio(runner.paid, minimum)}, paid - budget ${runner.paid - BUDGET}; naive paid/thinks ${ratio(naive.paid, naive.thinks)}, paid - budget ${naive.paid - BUDGET}; target paid/manifest 1.00x and never above the budget: ${met(ok)}`,
  );
}
