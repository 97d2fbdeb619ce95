import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseMarketReportJob } from '../../config/jobs.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { startRunner, type RunnerHarness } from '../helpers/runner.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc', name: 'market' });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe('market report workflow', () => {
  test('runs end to end and writes the workbook, the PDF and the manifest', async () => {
    const job = parseMarketReportJob({
      id: 'smoke',
      title: 'Smoke report',
      countries: ['Germany', 'France', 'Israel'],
      top: { investors: 5, startups: 5 },
      paging: { maxInvestorsPerCountry: 150, maxStartupsPerCountry: 120 },
      enrich: { investors: 2, startups: 2 },
      questions: ['largest rounds of the last 7 days in {country}', 'which countries raised the most in 2025'],
      budget: { credits: 10 },
      destination: `${h.dir}/reports`,
    });
    const handle = await startJobRun(h.client, h.settings, job);
    const result = await followRun(handle, { tty: false, out: { write: () => true } as unknown as NodeJS.WriteStream });
    expect(result.files.pdf && existsSync(result.files.pdf)).toBeTruthy();
    expect(result.files.xlsx && existsSync(result.files.xlsx)).toBeTruthy();
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
    console.log(JSON.stringify(manifest.calls), manifest.status, manifest.reasons);
    expect(manifest.calls.byOperation.country_overview).toBe(3);
    expect(manifest.credits.charged).toBeLessThanOrEqual(10);
  });
});
