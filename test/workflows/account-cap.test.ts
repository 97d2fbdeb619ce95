/**
 * The account's cap holds across runs: two runs of one account started together, each with a
 * budget of 3 credits, under a job file's cap of 2 credits a day (and with answers lost after
 * the charge, so reconciliation settles in the ledger too). Proven from the outside: the
 * account's balance in the sandbox's own books falls by at most the cap, and by exactly what
 * the two manifests say; every question skipped for the cap is named in its run's reasons.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parseJobFile } from '../../jobs/files.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { AccountLink, accountIdOf } from '../../activities/account.js';
import { pdfText } from '../helpers/reports.js';
import { paidFaultsBed, QUIET, type RunnerHarness } from '../helpers/runner.js';

const KEY = 'vis_live_sandbox_vc';
let sandbox: RunningSandbox;
let h: RunnerHarness;

paidFaultsBed('cap', KEY, (s, r) => ((sandbox = s), (h = r)));

function balance(): number {
  const id = sandbox.state.keys.get(KEY)!.account_id;
  return sandbox.state.accounts.get(id)!.credits;
}

/** The account's cap a day, below what the two runs' budgets together allow (2 x 3). */
const CAP = 2;
const QUESTIONS = 6;

const jobFile = (dir: string) => `
group: cap
account:
  caps: { day: ${CAP} }
jobs:
${['north', 'south']
  .map(
    (id) => `  - id: cap-${id}
    kind: market-report
    title: Cap ${id}
    countries: [Germany]
    top: { investors: 2, startups: 2 }
    paging: { maxInvestorsPerCountry: 10, maxStartupsPerCountry: 10 }
    enrich: { investors: 0, startups: 0 }
    questions:
      - how many seed rounds were there in Germany in 2025
      - median series A size in Germany
      - which countries raised the most in 2025
    budget: { credits: 3 }
    outputs: [pdf]
    destination: ${dir}`,
  )
  .join('\n')}
`;

test('two runs started together never pass the account cap together; the balance agrees with the manifests', async () => {
  const file = parseJobFile(jobFile(join(h.dir, 'reports')), 'cap.yaml');
  expect(file.jobs.map((j) => j.accountCaps)).toEqual([{ day: CAP }, { day: CAP }]);
  // One answer lost after the charge: its credit is settled in the ledger by reconciliation.
  sandbox.setFaults({ afterCharge: { dropRate: 1, operations: ['ask'], times: 1 }, seed: 5 });
  const before = balance();
  const handles = await Promise.all(file.jobs.map((job) => startJobRun(h.client, h.settings, job)));
  const results = await Promise.all(handles.map((handle) => followRun(handle, QUIET)));
  sandbox.setFaults({});
  const paid = before - balance();
  const manifests = results.map(
    (r) =>
      JSON.parse(readFileSync(r.manifestPath, 'utf8')) as {
        credits: { charged: number; budget: number };
        reasons: string[];
      },
  );
  expect(paid).toBeLessThanOrEqual(CAP);
  expect(paid).toBe(manifests[0]!.credits.charged + manifests[1]!.credits.charged);
  // Every question not answered is named: refused for the cap, or lost after the charge.
  const reasons = manifests.flatMap((m) => m.reasons);
  expect(reasons.length).toBeGreaterThanOrEqual(QUESTIONS - paid);
  for (const reason of reasons) {
    expect(reason).toMatch(
      new RegExp(`the account's cap of ${CAP} credits a day is reached|for an answer that was lost`),
    );
  }
  expect(
    reasons.filter((x) => x.includes(`the account's cap of ${CAP} credits a day`)).length,
  ).toBeGreaterThanOrEqual(QUESTIONS - paid - 1);
  // And the reports say so, where a partner reads them.
  results.forEach((r, i) => {
    if (manifests[i]!.reasons.some((x) => x.includes("the account's cap"))) {
      expect(pdfText(r.files.pdf!).replace(/\s+/g, ' ')).toContain(
        `the account's cap of ${CAP} credits a day is reached`,
      );
    }
  });
  // The account's ledger agrees: what it says this day was spent is what the balance lost.
  const link = new AccountLink({
    client: h.client,
    taskQueue: h.settings.accountTaskQueue,
    accountId: accountIdOf(h.settings.visBaseUrl, KEY),
    perMinute: 60,
    perDay: 5000,
    caps: {},
  });
  const view = await link.view();
  expect(view?.spent.day.total).toBe(paid);
  expect(view?.reserved).toBe(0);
  expect(Object.keys(view?.spent.day.byJob ?? {}).sort()).toEqual(
    ['cap-north', 'cap-south'].filter((id, i) => manifests[i]!.credits.charged > 0),
  );
});
