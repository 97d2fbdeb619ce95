/**
 * Benchmarks, each printed next to a naive baseline measured in the same process:
 *  1. API calls per minute during paging as a share of the sandbox's (scaled) limit, and 429s;
 *  2. render time and peak memory of a 10-country market report;
 *  3. wall time of 45 calls (one window) and of 300 calls (five windows) at the service's real
 *     limit (60 calls per 60-s window), beside the minimum the limit allows, with 429s
 *     (bench/pacing.ts);
 *  4. calls per window at the real limit as a share of it (the 300-call scenario of 3);
 *  5. credits the account paid under after-charge faults (20 % of asks) beside the run's
 *     manifest, the answers it got and its budget (bench/credits.ts);
 *  6. peak RSS and time of writing a 100,000-row prospect list (CSV files of five CRM profiles
 *     and the streamed workbook) beside an in-memory exceljs workbook (bench/prospects.ts);
 *  8. what one API call costs the cluster, for the account design before (one update and one
 *     signal per call) and permits in blocks: history events and account updates per call of a
 *     3-country market report, and the orchestration overhead per call (bench/events.ts);
 *  7. on the local cluster (PostgreSQL and the Temporal server): paging throughput with 1, 2 and
 *     3 worker processes as a share of a scaled-up limit, with 429s, and the orchestration
 *     overhead per API call (p50, p95) beside this run's embedded dev server (bench/cluster.ts).
 *
 * Run: npm run bench   (about 24 minutes: 1-2 take about two, 3-4 about nine because the
 * real window makes each 300-call run take four minutes, 5 under one, 7 about twelve on a
 * loaded 2-core machine; starts its own embedded Temporal server, and 7 its own cluster). The Temporal SDK's own warnings (e.g. activities failed by the injected
 * faults) are counted, not shown; errors are shown.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { MarketReportModel } from '../jobs/market-report/report/model.js';
import { quietEmbeddedTemporal } from './harness.js';
import {
  BENCH_COUNTRIES,
  benchNaive,
  benchRunner,
  cleanup,
  PAGING_COUNTRIES,
  type PagingBenchOptions,
} from './paging.js';
import { benchRender } from './render.js';
import { pct, ratio, reportPacing } from './pacing.js';
import { reportCredits } from './credits.js';
import { reportCluster } from './cluster.js';
import { measureOverhead } from './cluster-overhead.js';
import { reportEvents } from './events.js';
import { measureBaseline } from './baseline.js';

/** The prospect list's benchmark, run as its own script (it exits 1 when its target is not met). */
const PROSPECTS = new URL('./prospects.ts', import.meta.url);

async function main(): Promise<void> {
  // The embedded Temporal server only: each scenario starts its own sandbox and workers.
  const { stack, sdkWarnings } = await quietEmbeddedTemporal();
  let storeDir: string | null = null;
  try {
    const options: PagingBenchOptions = {
      temporalAddress: stack.temporalAddress,
      countries: PAGING_COUNTRIES,
      // The service's 60 calls a minute, scaled up 10x (100 calls per 10-second window) to keep the run short.
      limitPerWindow: 100,
      windowMs: 10_000,
      caps: { investors: 3000, startups: 5000 },
    };
    console.log(
      `paging ${PAGING_COUNTRIES.length} countries against a sandbox limit of ${options.limitPerWindow} calls per ${options.windowMs / 1000} s (${(options.limitPerWindow * 60_000) / options.windowMs}/min)`,
    );
    const runner = await benchRunner(options);
    storeDir = runner.storeDir;
    const naive = await benchNaive(options);
    console.log('\n== Paging throughput (share of the rate limit; 429 responses) ==');
    console.log(
      `runner  ${runner.calls} calls in ${runner.seconds.toFixed(1)} s = ${runner.callsPerMinute.toFixed(0)}/min = ${pct(runner.share)} of the limit, ${runner.rateLimited} x 429 (server-side queue limit: ${(runner.queueRateLimit * 60).toFixed(1)}/min)`,
    );
    console.log(
      `naive   ${naive.calls} calls in ${naive.seconds.toFixed(1)} s = ${naive.callsPerMinute.toFixed(0)}/min = ${pct(naive.share)} of the limit, ${naive.rateLimited} x 429`,
    );
    console.log(
      `ratio   share runner/naive ${ratio(runner.share, naive.share)}; 429s runner ${runner.rateLimited} vs naive ${naive.rateLimited}; target >= 90% with no 429: ${runner.share >= 0.9 && runner.rateLimited === 0 ? 'met' : 'NOT met'}`,
    );

    const full = JSON.parse(
      readFileSync(join(runner.storeDir, runner.modelRef), 'utf8'),
    ) as MarketReportModel;
    const keep = new Set(BENCH_COUNTRIES);
    const model: MarketReportModel = {
      ...full,
      job: { ...full.job, countries: BENCH_COUNTRIES },
      countries: full.countries.filter((c) => keep.has(c.country)),
      comparison: { ...full.comparison, changes: full.comparison.changes.filter((c) => keep.has(c.country)) },
    };
    const r = await benchRender(model);
    console.log(`\n== Render of a ${model.countries.length}-country report (PDF + workbook) ==`);
    console.log(
      `ours    ${r.ours.ms.toFixed(0)} ms, peak +${r.ours.peakMiB.toFixed(0)} MiB, ${r.ours.charts} charts rendered, ${r.ours.pages} pages`,
    );
    console.log(
      `naive   ${r.naive.ms.toFixed(0)} ms, peak +${r.naive.peakMiB.toFixed(0)} MiB, ${r.naive.charts} charts rendered (one render per output)`,
    );
    console.log(
      `ratio   time ours/naive ${ratio(r.ours.ms, r.naive.ms)}, peak memory ours/naive ${ratio(r.ours.peakMiB, r.naive.peakMiB)}`,
    );

    await reportPacing(stack.temporalAddress);
    await reportCredits(stack.temporalAddress);
    // In a process of its own, as `npm run bench:prospects` runs it: a worker starts a render
    // with its libraries loaded, not with the heap the sections above left behind (758 MB).
    const prospects = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(PROSPECTS)], {
      stdio: 'inherit',
    });
    if (prospects.status === null) throw new Error(`the prospect list benchmark died (${prospects.signal})`);
    const baseline = await measureBaseline(stack.temporalAddress);
    await reportEvents(
      stack.temporalAddress,
      async (design) => {
        process.env.VIR_ACCOUNT_PERMITS = design;
        try {
          return (await measureOverhead(stack.temporalAddress)).total;
        } finally {
          delete process.env.VIR_ACCOUNT_PERMITS;
        }
      },
      baseline,
    );
    await reportCluster(stack.temporalAddress, { onInterrupt: () => stack.close() });
    console.log(`\n(the Temporal SDK logged ${sdkWarnings()} warnings, not shown)`);
  } finally {
    if (storeDir) cleanup(join(storeDir, '..'));
    await stack.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
