/**
 * The deck triage's credits under the faults that happen after the service charged (the answer
 * of analyze_deck dropped, or a 500 in its place), on the real embedded Temporal server against
 * the sandbox, three decks a run. Proven from the outside: the account's balance in the sandbox's
 * own books falls by exactly what the run's manifest says it charged, never above the budget,
 * and 3 credits for each analysis the request log shows charged; the report's credits per deck
 * add up to it. An analysis lost after the charge is asked again, and paid again, only when the
 * budget has room; otherwise the report names the deck and what its lost analysis cost.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseDeckTriageJob, type DeckTriageResult } from '../../../jobs/deck-triage/index.js';
import { EXAMPLE_DECKS } from '../../../jobs/deck-triage/examples/deck-slides.js';
import type { DeckTriageReport } from '../../../jobs/deck-triage/types.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import type { AfterChargeFaults } from '../../../sandbox/types.js';
import { serveExampleDecks } from '../../fixtures/decks/example-host.js';
import { sharedTestCert } from '../../fixtures/decks/tls-server.js';
import {
  creditsOfRequests,
  ledgerSpentByJob,
  readManifest,
  underAfterChargeFaults,
} from '../../helpers/paid-books.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import { KEYS, startTestSandbox } from '../../helpers/sandbox.js';

const KEY = KEYS.vc;
const ANALYZE = 'analyze_deck';
const DECKS = EXAMPLE_DECKS.slice(0, 3);
let sandbox: RunningSandbox;
let h: RunnerHarness;
let host: Awaited<ReturnType<typeof serveExampleDecks>>;

beforeAll(async () => {
  const ca = sharedTestCert();
  host = await serveExampleDecks(DECKS);
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000, trustedCa: [ca.cert] });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: KEY,
    name: 'deck-credits',
    env: { VIR_DECK_CA_FILE: ca.caFile, VIR_HTTP_TIMEOUT_MS: '15000' },
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
  await host?.close();
});

beforeEach(() => sandbox?.setFaults({}));

let seq = 0;

/** Runs a triage of the three decks under the faults; what the books say. */
async function runWithFaults(faults: AfterChargeFaults, budget: number) {
  const id = `deck-credits-${++seq}`;
  const job = parseDeckTriageJob({
    id,
    kind: 'deck-triage',
    title: 'Deck triage under after-charge faults',
    decks: { urls: DECKS.map(host.linkOf) },
    budget: { credits: budget },
    destination: `${h.dir}/reports`,
  });
  const { result, paid, requests, charged } = await underAfterChargeFaults(
    sandbox,
    KEY,
    faults,
    7,
    async () => followRun<DeckTriageResult>(await startJobRun(h.client, h.settings, job), QUIET),
  );
  const report = JSON.parse(
    readFileSync(join(h.dir, 'store', 'runs', result.workflowId, 'decks', 'report.json'), 'utf8'),
  ) as DeckTriageReport;
  // What every run proves, whatever the faults did.
  expect(paid).toBeLessThanOrEqual(budget);
  expect(readManifest(result.manifestPath).credits.charged).toBe(paid);
  expect(charged.every((c) => c.operation === ANALYZE)).toBe(true);
  expect(paid).toBe(creditsOfRequests(charged));
  expect(await ledgerSpentByJob(h, KEY, id)).toBe(paid);
  expect(report.credits.spent).toBe(paid);
  expect(report.decks.reduce((n, d) => n + d.credits, 0)).toBe(paid);
  return { result, report, paid, asks: requests.filter((r) => r.operation === ANALYZE) };
}

/** Each deck's outcome and credits in the report, in the job's order. */
const byLink = (report: DeckTriageReport) =>
  DECKS.map((d) => report.decks.find((x) => x.label === host.linkOf(d))!).map((d) => [d.outcome, d.credits]);

test('a budget with room: the lost analysis is asked again and paid again (12 credits), all three ranked', async () => {
  const r = await runWithFaults({ dropRate: 1, operations: [ANALYZE], times: 1 }, 12);
  expect(r.paid).toBe(12);
  expect(r.asks.map((x) => x.fault ?? x.status)).toEqual(['after-charge drop', 200, 200, 200]);
  expect(r.result.partial, r.result.reasons.join('; ')).toBe(false);
  // The first deck cost two analyses: the one lost and the one kept.
  expect(byLink(r.report)).toEqual([
    ['analysed', 6],
    ['analysed', 3],
    ['analysed', 3],
  ]);
});

test('a budget short of the decks: never above it; the lost analysis and the deck not sent are named', async () => {
  const r = await runWithFaults({ errorRate: 1, operations: [ANALYZE], times: 1 }, 6);
  expect(r.paid).toBe(6);
  // The first deck's analysis was lost after the charge, the second kept, the third not sent.
  expect(r.asks).toHaveLength(2);
  expect(byLink(r.report)).toEqual([
    ['failed', 3],
    ['analysed', 3],
    ['failed', 0],
  ]);
  const [lost, , unsent] = DECKS.map((d) => r.report.decks.find((x) => x.label === host.linkOf(d))!);
  expect(lost!.problem).toMatch(/charged 3 credits for an answer that was lost/);
  expect(unsent!.problem).toMatch(/^not sent: credit budget of 6 reached/);
  expect(r.report.overBudget).toEqual([host.linkOf(DECKS[2]!)]);
  expect(r.result.partial).toBe(true);
});
