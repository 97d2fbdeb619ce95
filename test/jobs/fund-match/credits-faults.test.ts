/**
 * The fund match's credits under the faults that happen after the service charged (the answer
 * dropped, a 500 or 503, an answer that never finishes, a body that is not the envelope; one
 * mode at a time and mixed), on the real embedded Temporal server against the sandbox. Proven
 * from the outside: the account's balance in the sandbox's own books falls by exactly what the
 * run's manifest says it charged, never above the budget; only find_startups_for_fund costs
 * anything (the log's get_startup calls are free): the fall is 3 credits for each batch the log
 * shows charged. The spec gives no way to read a lost batch back (my_account names the match
 * list's latest batch, not its startups), so a lost batch is asked again, and paid again, when
 * the budget has room; without room the run fails, saying what the lost batch cost. Those
 * decisions (a budget of exactly one batch not asked again, three attempts at most) are also
 * tested on the time-skipping server: test/workflows/skipping/paid-reconcile.test.ts.
 */
import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseFundMatchJob, type FundMatchResult } from '../../../jobs/fund-match/index.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import type { AfterChargeFaults } from '../../../sandbox/types.js';
import {
  creditsOfRequests,
  ledgerSpentByJob,
  readManifest,
  underAfterChargeFaults,
} from '../../helpers/paid-books.js';
import { KEYS } from '../../helpers/sandbox.js';
import { paidFaultsBed, QUIET, type RunnerHarness } from '../../helpers/runner.js';

const KEY = KEYS.vc;
const FIND = 'find_startups_for_fund';
let sandbox: RunningSandbox;
let h: RunnerHarness;

paidFaultsBed('fund-credits', KEY, (s, r) => ((sandbox = s), (h = r)));

let seq = 0;

/** Runs a fund match under the faults; what the books say, whether the run ended or failed. */
async function runWithFaults(
  faults: AfterChargeFaults,
  budget: number,
  seed = 7,
  outputs: ('pdf' | 'xlsx')[] = ['xlsx'],
) {
  const id = `fund-credits-${++seq}`;
  const job = parseFundMatchJob({
    id,
    kind: 'fund-match',
    title: 'Fund match under after-charge faults',
    limit: 6,
    watchlist: 6,
    budget: { credits: budget },
    outputs,
    destination: `${h.dir}/reports`,
  });
  const run = await underAfterChargeFaults(sandbox, KEY, faults, seed, async () => {
    try {
      const done = await followRun<FundMatchResult>(await startJobRun(h.client, h.settings, job), QUIET);
      return { result: done, failure: null };
    } catch (err) {
      const failure =
        err instanceof Error
          ? `${err.message} ${String((err.cause as Error | undefined)?.message)}`
          : String(err);
      return { result: null, failure };
    }
  });
  const { result, failure } = run.result;
  const { requests, charged } = run;
  return {
    id,
    paid: run.paid,
    faulted: run.faulted,
    result,
    failure,
    manifest: result ? readManifest(result.manifestPath) : null,
    requests,
    charged,
    chargedByLog: creditsOfRequests(charged),
    ledger: await ledgerSpentByJob(h, KEY, id),
  };
}

type Outcome = Awaited<ReturnType<typeof runWithFaults>>;

/** What every run proves, whatever the faults did. */
function expectBooksAgree(r: Outcome, budget: number): void {
  expect(r.paid).toBeLessThanOrEqual(budget);
  // Only the batches cost anything: 3 credits each the log shows charged, nothing for get_startup.
  expect(r.charged.every((c) => c.operation === FIND)).toBe(true);
  expect(r.paid).toBe(3 * r.charged.length);
  expect(r.paid).toBe(r.chargedByLog);
  // The account's ledger settled what the balance lost, lost answers included.
  expect(r.ledger).toBe(r.paid);
  if (r.manifest) expect(r.manifest.credits.charged).toBe(r.paid);
}

test('a batch dropped after the charge is asked again within the budget; the account paid both, as the manifest says', async () => {
  // One mode stands for the four here: the kind sees each of them as the same failure (see
  // activities/api.ts toActivityFailure: every one is an outcome_unknown failure, reconciled by
  // workflows/run-calls.ts reconciledPaidCall), and the mixed runs below give the others.
  const r = await runWithFaults({ dropRate: 1, operations: [FIND], times: 1 }, 6, 7, ['pdf', 'xlsx']);
  expect(r.faulted).toBe(1);
  expect(r.failure).toBeNull();
  expectBooksAgree(r, 6);
  // The batch was charged twice: the answer lost after the charge, then the answer kept.
  const finds = r.requests.filter((x) => x.operation === FIND);
  expect(finds).toHaveLength(2);
  expect(finds[0]!.fault).toBe('after-charge drop');
  expect(finds[1]).toMatchObject({ status: 200 });
  expect(finds[1]!.fault).toBeUndefined();
  expect(r.paid).toBe(6);
  expect(r.manifest!.calls.attempts!.byOperation[FIND]).toEqual({ attempted: 2, succeeded: 1, failed: 1 });
  expect(r.manifest!.calls.byOperation[FIND]).toBe(1);
  // The profiles were read, free: every get_startup answered, and cost nothing.
  const gets = r.requests.filter((x) => x.operation === 'get_startup');
  expect(gets.length).toBeGreaterThanOrEqual(6);
  expect(gets.every((g) => g.status === 200 && g.fault === undefined)).toBe(true);
  expect(r.manifest!.calls.byOperation.get_startup).toBe(gets.length);
  // The run completed with its digest.
  expect(r.result!.partial, r.result!.reasons.join('; ')).toBe(false);
  expect(r.manifest!.status).toBe('complete');
  expect(existsSync(r.result!.files.pdf!)).toBe(true);
  expect(existsSync(r.result!.files.xlsx!)).toBe(true);
  expect(r.result!.counts.batch).toBe(6);
});

test('mixed faults on the paid calls: the balance agrees with the manifest, never above the budget', async () => {
  // The seeds draw, per batch asked (the same every time): a 500, then an answer; a 500, a
  // malformed body, then an answer; a drop, a hang, a malformed body (three batches lost).
  const seen: { seed: number; faults: string[]; paid: number; completed: boolean }[] = [];
  for (const seed of [7, 19, 8]) {
    const r = await runWithFaults(
      { dropRate: 0.15, errorRate: 0.15, hangRate: 0.15, malformedRate: 0.15 },
      9,
      seed,
    );
    expectBooksAgree(r, 9);
    const finds = r.requests.filter((x) => x.operation === FIND);
    const faults = finds.flatMap((x) => (x.fault ? [x.fault.replace('after-charge ', '')] : []));
    expect(faults).toHaveLength(r.faulted);
    if (r.result) {
      expect(r.manifest!.calls.attempts!.byOperation[FIND]).toEqual({
        attempted: r.faulted + 1,
        succeeded: 1,
        failed: r.faulted,
      });
      expect(r.manifest!.calls.byOperation.get_startup).toBeGreaterThanOrEqual(6);
      expect(r.result.partial, r.result.reasons.join('; ')).toBe(false);
    } else {
      // Three batches lost, each one paid: the run fails and says so.
      // The message says what the run spent: all three batches, not the last one only.
      expect(r.failure).toContain(`no batch this run (${r.paid} credits spent)`);
      expect(r.failure).toMatch(/for an answer that was lost; not asked again after 3 attempts/);
      expect(r.requests.filter((x) => x.operation === 'get_startup')).toHaveLength(0);
    }
    seen.push({ seed, faults, paid: r.paid, completed: r.result !== null });
  }
  expect(seen).toEqual([
    { seed: 7, faults: ['error500'], paid: 6, completed: true },
    { seed: 19, faults: ['error500', 'malformed'], paid: 9, completed: true },
    { seed: 8, faults: ['drop', 'hang', 'malformed'], paid: 9, completed: false },
  ]);
});
