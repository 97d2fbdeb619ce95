/**
 * Runs never lose work: workers stopped in the middle of a run, new workers started later,
 * and the same run completes from where it was (pages already stored are not fetched again).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { startWorkers } from '../../runtime/workers.js';
import { VisClient } from '../../api/client.js';
import { readPage } from '../../api/read.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { progressQuery, type RunProgress } from '../../workflows/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  // 300 calls a minute: slow enough to stop the workers mid-run.
  sandbox = await startTestSandbox({ rateLimitPerMinute: 300 });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: 'vis_live_sandbox_vc',
    name: 'resume',
    rateLimitPerMinute: 300,
  });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

test('a run survives its workers stopping and completes on new ones', async () => {
  const job = parseMarketReportJob({
    id: 'resume-test',
    title: 'Resume test',
    countries: ['Germany', 'France'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 300, maxStartupsPerCountry: 300 },
    enrich: { investors: 1, startups: 1 },
    questions: [],
    destination: `${h.dir}/reports`,
  });
  const handle = await startJobRun(h.client, h.settings, job);
  let before: RunProgress | null = null;
  for (let i = 0; i < 300 && !before; i++) {
    const p = await handle.query(progressQuery).catch(() => null);
    if (p && p.callsMade >= 6) before = p;
    else await new Promise((r) => setTimeout(r, 50));
  }
  expect(before).not.toBeNull();
  // Every worker goes away in the middle of the paging.
  await h.workers.shutdown();
  const stoppedAt = (await handle.query(progressQuery).catch(() => before))!;
  expect(stoppedAt.phase).not.toBe('done');
  await new Promise((r) => setTimeout(r, 1000));
  expect((await handle.describe()).status.name).toBe('RUNNING');

  // New workers on the same queues pick the run up.
  const again = await startWorkers(h.settings);
  const running = again.run();
  try {
    const result = await followRun(handle, QUIET);
    expect(result.partial).toBe(false);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
    expect(manifest.status).toBe('complete');
    expect(manifest.calls.byOperation).toMatchObject({
      my_account: 1,
      country_overview: 2,
      get_investor: 2,
      get_startup: 2,
    });
    // Exactly the pages the result sets need (capped at 300 records): nothing fetched twice.
    const client = new VisClient({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc' });
    let pages = 0;
    try {
      for (const country of job.countries) {
        const inv = await client.call('search_investors', { country, limit: 1 });
        const st = await client.call('search_startups', { countries: [country], limit: 1 });
        pages +=
          2 * Math.ceil(Math.min(readPage('search_investors', inv.data).total ?? 0, 300) / 100) +
          Math.ceil(Math.min(readPage('search_startups', st.data).total ?? 0, 300) / 100);
      }
    } finally {
      await client.close();
    }
    expect(manifest.calls.byOperation.search_investors + manifest.calls.byOperation.search_startups).toBe(
      pages,
    );
    expect(manifest.calls.pages).toBe(pages);
  } finally {
    await again.shutdown();
    await running;
  }
  // Recovery waits out the stopped worker's sticky queue and any activity it left started; until
  // activities heartbeat (issue 11), that takes 30 to 60 s on a loaded machine.
}, 180_000);
