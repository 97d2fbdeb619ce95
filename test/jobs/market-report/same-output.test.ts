/**
 * The market report's outputs do not depend on how the code that makes them is arranged: a run
 * over the sandbox's fixed-date data gives the same PDF text and the same workbook cells as the
 * recorded digest (test/fixtures/golden/market-report-digest.json; run times and ids masked).
 * First recorded before the engine was pulled out of the market report; recorded again for the
 * report's editorial rework (issue 27: the week first, stages in words, YTD labels, one unit per
 * table, run statistics in an appendix, native charts only).
 *
 * Record again only for an intended change of the report: VIR_RECORD_GOLDEN=1.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { parseMarketReportJob } from '../../../jobs/market-report/index.js';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { maskClock, reportDigest, type ReportDigest } from '../../helpers/report-digest.js';
import { fixedDateBed, QUIET, type RunnerHarness } from '../../helpers/runner.js';

const GOLDEN = fileURLToPath(new URL('../../fixtures/golden/market-report-digest.json', import.meta.url));

let h: RunnerHarness;

fixedDateBed('same-output', (r) => (h = r));

test('a run gives the same PDF text and workbook cells as the recorded digest', async () => {
  const job = parseMarketReportJob({
    id: 'same-output',
    title: 'Same output check',
    countries: ['Germany', 'Israel'],
    top: { investors: 5, startups: 5 },
    paging: { maxInvestorsPerCountry: 250, maxStartupsPerCountry: 150 },
    enrich: { investors: 2, startups: 2 },
    questions: ['largest rounds of the last 7 days in {country}', 'which countries raised the most in 2025'],
    budget: { credits: 2 },
    destination: `${h.dir}/reports`,
  });
  const handle = await startJobRun(h.client, h.settings, job);
  const result = await followRun(handle, QUIET);
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { startedAt: string };
  const digest = await reportDigest(result.files, {
    workflowId: result.workflowId,
    runDate: manifest.startedAt.slice(0, 10),
  });
  expect(digest.pdf.length).toBeGreaterThan(100);
  expect(digest.workbook.length).toBeGreaterThan(200);
  if (process.env.VIR_RECORD_GOLDEN === '1') {
    mkdirSync(dirname(GOLDEN), { recursive: true });
    writeFileSync(GOLDEN, `${JSON.stringify(digest, null, 1)}\n`);
  }
  expect(existsSync(GOLDEN)).toBe(true);
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as ReportDigest;
  expect(digest.pdf.map(maskClock)).toEqual(golden.pdf.map(maskClock));
  expect(digest.workbook.map(maskClock)).toEqual(golden.workbook.map(maskClock));
});
