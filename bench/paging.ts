/**
 * Paging throughput: the runner (Temporal workers, rate-limited API task queue) against a
 * naive client (sequential calls, no rate awareness, 429s retried blindly), each on a fresh
 * sandbox with the same scaled limit, paging the same searches.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { VisClient } from '../api/client.js';
import { isVisError } from '../api/errors.js';
import type { OperationName, ParamsIn } from '../api/operations.js';
import type { ApiCaller } from '../activities/api.js';
import { parseMarketReportJob, type MarketReportJob } from '../jobs/market-report/index.js';
import { loadSettings } from '../config/settings.js';
import { startJobRun } from '../cli/run-job.js';
import { startWorkers } from '../runtime/workers.js';
import { startSandbox } from '../sandbox/index.js';
import { progressQuery } from '../workflows/index.js';

export interface PagingFigures {
  calls: number;
  seconds: number;
  callsPerMinute: number;
  /** Calls per minute as a share of the limit. */
  share: number;
  rateLimited: number;
}

export interface PagingBenchOptions {
  temporalAddress: string;
  countries: string[];
  /** The sandbox's limit per window and the window length (scaled to keep the run short). */
  limitPerWindow: number;
  windowMs: number;
  caps: { investors: number; startups: number };
}

export const KEY = 'vis_live_sandbox_vc';

/** The 10 countries of the report whose render is measured. */
export const BENCH_COUNTRIES = [
  'United States',
  'China',
  'United Kingdom',
  'India',
  'Germany',
  'France',
  'Canada',
  'Israel',
  'Singapore',
  'Brazil',
];

/** Paging runs over 20 countries, so it spans several rate-limit windows. */
export const PAGING_COUNTRIES = [
  ...BENCH_COUNTRIES,
  'Sweden',
  'Netherlands',
  'Switzerland',
  'Spain',
  'Japan',
  'South Korea',
  'Australia',
  'Italy',
  'Indonesia',
  'Mexico',
];

/** A fresh sandbox with the benchmark's scaled limit, and that limit per minute. */
export async function benchSandbox(o: PagingBenchOptions) {
  const sandbox = await startSandbox({
    port: 0,
    rateLimitPerMinute: o.limitPerWindow,
    minuteWindowMs: o.windowMs,
    rateLimitPerDay: 1_000_000,
  });
  return { sandbox, perMinute: Math.round((o.limitPerWindow * 60_000) / o.windowMs) };
}

/** The paging job: a market report of the countries, paging up to the caps, nothing enriched or asked. */
export function pagingJob(
  o: Pick<PagingBenchOptions, 'countries' | 'caps'>,
  destination?: string,
): MarketReportJob {
  return parseMarketReportJob({
    id: 'bench-paging',
    title: 'Paging benchmark',
    countries: o.countries,
    top: { investors: 10, startups: 10 },
    paging: { maxInvestorsPerCountry: o.caps.investors, maxStartupsPerCountry: o.caps.startups },
    enrich: { investors: 0, startups: 0 },
    questions: [],
    ...(destination === undefined ? {} : { destination }),
  });
}

/** The runner: a real run of the job; paging measured from its progress query. */
export async function benchRunner(
  o: PagingBenchOptions,
): Promise<PagingFigures & { queueRateLimit: number; modelRef: string; storeDir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'vir-bench-'));
  const { sandbox, perMinute } = await benchSandbox(o);
  const settings = loadSettings({
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: KEY,
    TEMPORAL_ADDRESS: o.temporalAddress,
    VIR_TASK_QUEUE: `bench-jobs-${process.pid}`,
    VIR_API_TASK_QUEUE: `bench-api-${process.pid}`,
    VIR_RATE_LIMIT_PER_MINUTE: String(perMinute),
    VIR_STORE_DIR: join(dir, 'store'),
    VIR_REPORTS_DIR: join(dir, 'reports'),
  });
  let rateLimited = 0;
  const client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY });
  const stamps: number[] = [];
  const counting: ApiCaller = {
    callDetailed: async <N extends OperationName>(op: N, params: ParamsIn<N>) => {
      stamps.push(Date.now());
      try {
        return await client.callDetailed(op, params);
      } catch (err) {
        if (isVisError(err) && err.code === 'rate_limited') rateLimited += 1;
        throw err;
      }
    },
  };
  const workers = await startWorkers(settings, { client: counting });
  const running = workers.run();
  const connection = await Connection.connect({ address: o.temporalAddress });
  const temporal = new Client({ connection });
  try {
    const handle = await startJobRun(temporal, settings, pagingJob(o, join(dir, 'reports')));
    let pagingStart: { t: number; calls: number } | null = null;
    let pagingEnd: { t: number; calls: number } | null = null;
    const done = handle.result().then(() => true);
    let finished = false;
    void done.then(() => (finished = true));
    while (!finished && !pagingEnd) {
      const p = await handle.query(progressQuery).catch(() => null);
      const t = Date.now();
      if (p && p.phase === 'paging' && p.callsMade > 1 && !pagingStart)
        pagingStart = { t, calls: p.callsMade };
      if (p && pagingStart && p.phase !== 'paging') pagingEnd = { t, calls: p.callsMade };
      await new Promise((r) => setTimeout(r, 50));
    }
    await done;
    if (process.env.VIR_BENCH_DEBUG === '1') {
      const t0 = stamps[0] ?? 0;
      const perSecond: number[] = [];
      for (const t of stamps)
        perSecond[Math.floor((t - t0) / 1000)] = (perSecond[Math.floor((t - t0) / 1000)] ?? 0) + 1;
      console.log('calls per second:', Array.from(perSecond, (n) => n ?? 0).join(' '));
    }
    if (!pagingStart || !pagingEnd) throw new Error('the paging phase was not observed');
    const calls = pagingEnd.calls - pagingStart.calls;
    const seconds = (pagingEnd.t - pagingStart.t) / 1000;
    const callsPerMinute = (calls / seconds) * 60;
    const { readdirSync } = await import('node:fs');
    const runDir = readdirSync(join(dir, 'store', 'runs'))[0]!;
    return {
      calls,
      seconds,
      callsPerMinute,
      share: callsPerMinute / perMinute,
      rateLimited,
      queueRateLimit: workers.queueRateLimit.requestsPerSecond,
      modelRef: `runs/${runDir}/report/model.json`,
      storeDir: join(dir, 'store'),
    };
  } finally {
    await workers.shutdown();
    await running;
    await connection.close();
    await client.close();
    await sandbox.close();
  }
}

/** The naive baseline: the same searches, one call after another, 429s retried after 50 ms. */
export async function benchNaive(o: PagingBenchOptions): Promise<PagingFigures> {
  const { sandbox, perMinute } = await benchSandbox(o);
  const client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY });
  let calls = 0;
  let rateLimited = 0;
  const call = async (op: 'search_investors' | 'search_startups', params: Record<string, unknown>) => {
    for (;;) {
      try {
        const r = await client.call(op, params);
        calls += 1;
        return r;
      } catch (err) {
        if (isVisError(err) && err.code === 'rate_limited') {
          rateLimited += 1;
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        throw err;
      }
    }
  };
  const started = Date.now();
  try {
    for (const country of o.countries) {
      const streams: ['search_investors' | 'search_startups', Record<string, unknown>, number][] = [
        ['search_investors', { country, sort: 'score' }, o.caps.investors],
        ['search_investors', { country, sort: 'investments' }, o.caps.investors],
        ['search_startups', { countries: [country] }, o.caps.startups],
      ];
      for (const [op, base, cap] of streams) {
        for (let offset = 0; offset < cap;) {
          const limit = Math.min(100, cap - offset);
          const r = await call(op, { ...base, limit, offset });
          const data = r.data as { next_offset?: number | null; investors?: unknown[]; startups?: unknown[] };
          const n = (data.investors ?? data.startups ?? []).length;
          if (data.next_offset === null || data.next_offset === undefined || n === 0) break;
          offset = data.next_offset;
        }
      }
    }
  } finally {
    await client.close();
    await sandbox.close();
  }
  const seconds = (Date.now() - started) / 1000;
  const callsPerMinute = (calls / seconds) * 60;
  return { calls, seconds, callsPerMinute, share: callsPerMinute / perMinute, rateLimited };
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
