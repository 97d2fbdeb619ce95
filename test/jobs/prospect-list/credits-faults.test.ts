/**
 * The prospect list's credits when a brief's answer is lost after the service charged for it
 * (the connection dropped on the way back, as when a worker dies with the call in flight), on the
 * real embedded Temporal server against the sandbox. The run reconciles with the balance and
 * asks again: the service's free repeat within 24 hours. Proven from the outside: the account's
 * balance in the sandbox's own books fell by one brief's price, the request log shows the charged
 * call whose answer was lost and the repeat, and the brief's row in the PDF and the workbook says
 * what the brief cost (not the repeat's 0 and "free: a repeat"), as does its Sources row.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseProspectListJob, type ProspectListResult } from '../../../jobs/prospect-list/index.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { readManifest, underAfterChargeFaults } from '../../helpers/paid-books.js';
import { allCells, openWorkbook, pdfText, sheetRows } from '../../helpers/reports.js';
import { paidFaultsBed, QUIET, type RunnerHarness } from '../../helpers/runner.js';
import { KEYS } from '../../helpers/sandbox.js';

const KEY = KEYS.provider;
const FIND = 'find_customers';
const PRICE = 3;
let sandbox: RunningSandbox;
let h: RunnerHarness;

paidFaultsBed('prospect-credits', KEY, (s, r) => ((sandbox = s), (h = r)));

test('a brief whose answer was lost after the charge is asked again (the free repeat) and its row says the 3 credits it cost', async () => {
  const job = parseProspectListJob({
    id: 'prospects-lost-brief',
    kind: 'prospect-list',
    title: 'Prospects, a brief lost after the charge',
    briefs: [
      {
        brief: 'Payroll software for seed-stage fintech companies that just hired their first ten',
        org_key: 'brightline-legal',
        regions: ['Germany'],
        limit: 15,
      },
    ],
    enrich: 0,
    budget: { credits: 10 },
    outputs: ['xlsx', 'pdf'],
    destination: join(h.dir, 'reports', 'lost-brief'),
  });
  const run = await underAfterChargeFaults(
    sandbox,
    KEY,
    { dropRate: 1, operations: [FIND], times: 1 },
    3,
    async () => followRun<ProspectListResult>(await startJobRun(h.client, h.settings, job), QUIET),
  );
  const { result, paid } = run;
  expect(result.partial, result.reasons.join('; ')).toBe(false);

  // The sandbox: the first find_customers was charged and its answer dropped; the second is the
  // repeat, answered. The account paid one brief, once.
  const finds = run.requests.filter((r) => r.operation === FIND);
  expect(finds.map((r) => r.fault ?? r.status)).toEqual(['after-charge drop', 200]);
  expect(paid).toBe(PRICE);
  expect(readManifest(result.manifestPath).credits.charged).toBe(paid);

  // The brief's row: what it cost, in the PDF and the workbook; no "free" note.
  const pdf = pdfText(result.files.pdf!);
  const row = pdf.split('\n').find((l) => /^\s*brief 1\b/.test(l));
  expect(row, pdf).toBeDefined();
  expect(row!.trim()).toMatch(new RegExp(`companies\\s+${PRICE}$`));
  expect(pdf).not.toContain('free: a repeat');
  const wb = await openWorkbook(result.files.xlsx!);
  const cells = allCells(wb).map((c) => c.cell.text);
  expect(cells).toContain(`${PRICE} credits charged · Sources sheet: S1`);
  expect(cells.some((v) => v.includes('free: a repeat'))).toBe(false);
  // The Sources: the stored answer is the repeat (its own charge 0), yet its row says what the
  // account paid for it, so the Sources' credits add up to the balance's fall, in both files.
  const sources = sheetRows(wb, 'Sources');
  expect(sources.find((r) => r.Source === 'S1')).toMatchObject({ Operation: FIND, Credits: String(PRICE) });
  expect(sources.reduce((sum, r) => sum + Number(r.Credits), 0)).toBe(paid);
  expect(pdf).toMatch(new RegExp(`^\\s*${FIND}\\s+1\\s+\\d+\\s+${PRICE}\\s+S1\\s*$`, 'm'));
}, 180_000);
