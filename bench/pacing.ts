/**
 * Pacing at the service's real limit, 60 calls per 60-second window (not scaled):
 *  - wall time of 45 calls (one window) and of 300 calls (five windows), beside the minimum the
 *    limit allows and a naive client;
 *  - calls per window as a share of the limit (from the 300-call scenario).
 *
 * The witness is each sandbox's request log: every call the service answered, when it arrived
 * and its status (429s included). Each scenario runs on a fresh sandbox, so a fresh account
 * whose first window starts with its first call.
 *
 * Workloads are smoke runs started together (the way scheduled runs of several jobs overlap):
 * each run is my_account, the pages of one country's startups (the first page alone, then up to
 * 8 pages at once once the total is known) and one get_startup; runs of different lengths, so
 * calls are parallel across runs and the longer runs finish alone.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VisClient } from '../api/client.js';
import { RateLimitedError } from '../api/errors.js';
import type { OperationName, ParamsIn } from '../api/operations.js';
import { recordKey } from '../api/read-keys.js';
import { readPage } from '../api/read-page.js';
import { startJobRun } from '../cli/run-job.js';
import { parseSmokeJob } from '../jobs/smoke/index.js';
import { callsPerWindow, startSandbox, type RunningSandbox, type SandboxRequest } from '../sandbox/index.js';
import type { JobRunResult } from '../workflows/engine.js';
import { withBenchRunner } from './harness.js';

export const KEY = 'vis_live_sandbox_vc';
/** The service's real limit: 60 calls per 60-second window. */
export const LIMIT = 60;
export const WINDOW_MS = 60_000;
/** A limit no workload here comes near (the "no limit" sandboxes). */
const UNLIMITED = 100_000;
/** Records per page of search_startups. */
const PAGE = 100;

export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
export const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${(a / b).toFixed(2)}x`);
export const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** One smoke run: a country's startups paged up to `records` (every country below has at least that many). */
interface SmokeRun {
  country: string;
  records: number;
}

interface Workload {
  calls: number;
  what: string;
  runs: SmokeRun[];
}

/** Calls of one smoke run: my_account, one call a page, one get_startup. */
const callsOf = (r: SmokeRun) => 2 + Math.ceil(r.records / PAGE);

function workload(what: string, runs: SmokeRun[]): Workload {
  return { calls: runs.reduce((s, r) => s + callsOf(r), 0), what, runs };
}

/** 45 calls, one window: three runs of 15 calls (13 pages each) started together. */
const W45 = workload('3 smoke runs started together, 15 calls each', [
  { country: 'United States', records: 1300 },
  { country: 'China', records: 1300 },
  { country: 'United Kingdom', records: 1300 },
]);

/**
 * 300 calls, five windows: eight runs started together, four US pagings of different depths
 * (75, 75, 60, 32 calls) and four shorter ones (China 18, United Kingdom 16, India 13,
 * Germany 11 calls).
 */
const W300 = workload('8 smoke runs started together, 11 to 75 calls each', [
  { country: 'United States', records: 7300 },
  { country: 'United States', records: 7300 },
  { country: 'United States', records: 5800 },
  { country: 'United States', records: 3000 },
  { country: 'China', records: 1600 },
  { country: 'United Kingdom', records: 1400 },
  { country: 'India', records: 1100 },
  { country: 'Germany', records: 900 },
]);

/** What a request log says of a scenario. */
export interface LogFigures {
  /** Calls the service took (every answer but a 429). */
  calls: number;
  rateLimited: number;
  /** From the first call's arrival to the last call's arrival. */
  seconds: number;
  /** Calls in each of the service's windows, counted as the sandbox counts them. */
  windows: number[];
  /** Calls taken / (limit x windows spanned): 100% for a pacer that fills every window. */
  share: number;
  /** Calls taken by operation. */
  byOperation: Record<string, number>;
  /** The last call: its operation and seconds after the first call. */
  last: { operation: string; at: number };
}

/**
 * The figures of a request log. A window starts with the first call at or after the end of the
 * previous one and lasts WINDOW_MS (sandbox/rate-limit.ts); a 429 neither counts nor starts one.
 */
export function logFigures(log: SandboxRequest[]): LogFigures {
  if (log.length === 0) throw new Error('the sandbox answered no call');
  const windows = callsPerWindow(log, WINDOW_MS);
  const calls = log.filter((r) => r.status !== 429).length;
  const byOperation: Record<string, number> = {};
  for (const r of log) if (r.status !== 429) byOperation[r.operation] = (byOperation[r.operation] ?? 0) + 1;
  const last = log[log.length - 1]!;
  return {
    byOperation,
    last: { operation: last.operation, at: (last.at - log[0]!.at) / 1000 },
    calls,
    rateLimited: log.length - calls,
    seconds: (log[log.length - 1]!.at - log[0]!.at) / 1000,
    windows,
    share: calls / (LIMIT * windows.length),
  };
}

function sandboxOf(perMinute: number): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    rateLimitPerMinute: perMinute,
    minuteWindowMs: WINDOW_MS,
    rateLimitPerDay: 1_000_000,
  });
}

/**
 * The runner: workers of the real settings (60 a minute; the account workflow paces calls from
 * the service's headers) run the workload's smoke runs, started together, on a fresh sandbox of
 * `sandboxPerMinute` calls per 60-s window. Returns the sandbox's request log (printed with
 * VIR_BENCH_DEBUG=1: ms since the first call, operation, status).
 */
async function runnerLog(temporalAddress: string, w: Workload, sandboxPerMinute: number) {
  const sandbox = await sandboxOf(sandboxPerMinute);
  try {
    const env = { VIR_RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    return await withBenchRunner(
      temporalAddress,
      sandbox.url,
      KEY,
      env,
      async ({ client, settings, dir }) => {
        const jobs = w.runs.map((r, i) =>
          parseSmokeJob({
            id: `${settings.taskQueue.replace('bench-jobs-', 'bench-pacing-')}-${i + 1}`,
            title: `Pacing benchmark ${i + 1}`,
            country: r.country,
            records: r.records,
            destination: join(dir, 'reports'),
          }),
        );
        const handles = await Promise.all(jobs.map((job) => startJobRun(client, settings, job)));
        const results = (await Promise.all(handles.map((h) => h.result()))) as JobRunResult[];
        const partial = results.filter((r) => r.partial);
        if (partial.length > 0)
          throw new Error(
            `runner: ${partial.length} run(s) partial: ${partial.flatMap((r) => r.reasons).join('; ')}`,
          );
        const log = sandbox.requestLog();
        if (process.env.VIR_BENCH_DEBUG === '1') {
          const t0 = log[0]?.at ?? 0;
          console.log(log.map((r) => `${r.at - t0}:${r.operation.slice(0, 8)}:${r.status}`).join(' '));
        }
        return log;
      },
    );
  } finally {
    await sandbox.close();
  }
}

/**
 * The naive baseline: a plain script with one VisClient (8 connections) doing the same runs
 * at once, each run's calls one after another (my_account, pages by next_offset, get_startup);
 * a 429 is retried after the reset it carries (RateLimitedError.retryAfterMs: X-RateLimit-Reset,
 * else Retry-After; 1 s when it carries none). Returns the sandbox's request log.
 */
async function naiveLog(w: Workload) {
  const sandbox = await sandboxOf(LIMIT);
  const client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY });
  const call = async <N extends OperationName>(op: N, params: ParamsIn<N>) => {
    for (;;) {
      try {
        return await client.call(op, params);
      } catch (err) {
        if (!(err instanceof RateLimitedError)) throw err;
        await sleep(err.retryAfterMs(new Date()) ?? 1000);
      }
    }
  };
  try {
    await Promise.all(
      w.runs.map(async (r) => {
        await call('my_account', {});
        let first: string | null = null;
        for (let offset = 0; offset < r.records;) {
          const limit = Math.min(PAGE, r.records - offset);
          const result = await call('search_startups', { countries: [r.country], limit, offset });
          const page = readPage('search_startups', result.data);
          const item = page.items[0];
          first ??= item ? recordKey('search_startups', item) : null;
          if (page.nextOffset === null || page.items.length < limit) break;
          offset = page.nextOffset;
        }
        if (first) await call('get_startup', { key: first });
      }),
    );
    return sandbox.requestLog();
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/** Tries of the at-once measurement; the fastest is the minimum. */
const AT_ONCE_TRIES = 3;

/**
 * The time one window's calls take when made at once: `n` of the workload's page calls (taken
 * in turn from its runs) sent together by a VisClient with a connection each, on a sandbox
 * whose limit they do not reach, after as many calls to open the connections. Seconds from the
 * first arrival to the last in the request log; the fastest of {@link AT_ONCE_TRIES} tries.
 */
async function atOnceSeconds(w: Workload, n: number): Promise<number> {
  const sandbox = await sandboxOf(UNLIMITED);
  const client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY, connections: n });
  try {
    const pages: { country: string; offset: number }[] = [];
    for (let i = 0; pages.length < n; i += 1) {
      let any = false;
      for (const r of w.runs) {
        if (i * PAGE < r.records && pages.length < n) {
          pages.push({ country: r.country, offset: i * PAGE });
          any = true;
        }
      }
      if (!any) break;
    }
    await Promise.all(pages.map(() => client.call('my_account', {})));
    let best = Infinity;
    for (let t = 0; t < AT_ONCE_TRIES; t += 1) {
      const from = sandbox.requestLog().length;
      await Promise.all(
        pages.map((p) =>
          client.call('search_startups', { countries: [p.country], limit: PAGE, offset: p.offset }),
        ),
      );
      best = Math.min(best, logFigures(sandbox.requestLog().slice(from)).seconds);
    }
    return best;
  } finally {
    await client.close();
    await sandbox.close();
  }
}

interface WallTimeFigures {
  w: Workload;
  runner: LogFigures;
  naive: LogFigures;
  /** The runner on the same workload against a sandbox without a practical limit. */
  free: LogFigures;
  /** One window's calls made at once, in seconds. */
  atOnce: number;
  /** The service's floor: (ceil(N/60) - 1) x 60 s + atOnce. */
  minimum: number;
  /** What the limit allows this runner: (ceil(N/60) - 1) x 60 s + its time for the same runs without a limit. */
  runnerMinimum: number;
}

async function measure(temporalAddress: string, w: Workload): Promise<WallTimeFigures> {
  const windows = Math.ceil(w.calls / LIMIT);
  const atOnce = await atOnceSeconds(w, Math.min(w.calls, LIMIT));
  const free = logFigures(await runnerLog(temporalAddress, w, UNLIMITED));
  const runner = logFigures(await runnerLog(temporalAddress, w, LIMIT));
  const naive = logFigures(await naiveLog(w));
  const waits = ((windows - 1) * WINDOW_MS) / 1000;
  return { w, runner, naive, free, atOnce, minimum: waits + atOnce, runnerMinimum: waits + free.seconds };
}

const s = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} s`;

/** Calls of the workload by operation. */
function expectedByOperation(w: Workload): Record<string, number> {
  const pages = w.runs.reduce((sum, r) => sum + Math.ceil(r.records / PAGE), 0);
  return { my_account: w.runs.length, search_startups: pages, get_startup: w.runs.length };
}

/** A line naming the operations whose calls differ from the workload's, or null when none do. */
function extraCalls(name: string, f: LogFigures, w: Workload): string | null {
  const want = expectedByOperation(w);
  const ops = [...new Set([...Object.keys(want), ...Object.keys(f.byOperation)])];
  const diff = ops
    .filter((op) => (f.byOperation[op] ?? 0) !== (want[op] ?? 0))
    .map((op) => `${op} ${f.byOperation[op] ?? 0} (workload ${want[op] ?? 0})`);
  if (diff.length === 0) return null;
  return `note     ${name} made ${f.calls} calls for a workload of ${w.calls}: ${diff.join(', ')}; its last call ${f.last.operation} at ${s(f.last.at)}`;
}

function printWallTime(f: WallTimeFigures): void {
  const { w, runner, naive, free } = f;
  const windows = Math.ceil(w.calls / LIMIT);
  console.log(`\n-- ${w.calls} calls: ${w.what} --`);
  console.log(
    `runner   ${runner.calls} calls in ${s(runner.seconds)} (first to last call), ${runner.rateLimited} x 429, windows ${runner.windows.join(', ')}`,
  );
  console.log(
    `minimum  ${s(f.minimum)} for the service = ${windows - 1} x 60 s + ${s(f.atOnce)} (${Math.min(w.calls, LIMIT)} of these calls sent at once by a VisClient, warm connections, fastest of ${AT_ONCE_TRIES})`,
  );
  console.log(
    `naive    ${naive.calls} calls in ${s(naive.seconds)}, ${naive.rateLimited} x 429, windows ${naive.windows.join(', ')} (VisClient, each run's calls in turn, 429s retried after the reset the error carries)`,
  );
  console.log(
    `minimum  ${s(f.runnerMinimum)} for this runner = ${windows - 1} x 60 s + ${s(free.seconds)} (the runner on the same runs without a limit: ${free.calls} calls, ${free.rateLimited} x 429)`,
  );
  for (const [name, g] of [
    ['the runner', runner],
    ['the runner without a limit', free],
    ['the naive client', naive],
  ] as const) {
    const note = extraCalls(name, g, w);
    if (note) console.log(note);
  }
  // Pacing's cost: the runner against what the limit allows it (its own time without a limit,
  // plus the windows' waits). Against the service's floor the gap is the runner's per-call cost
  // (an activity and an account-workflow update per call), which no pacing can remove.
  const ok = runner.seconds <= 1.2 * f.runnerMinimum && runner.rateLimited === 0;
  console.log(
    `ratio    runner/minimum for this runner ${ratio(runner.seconds, f.runnerMinimum)}, runner/service's minimum ${ratio(runner.seconds, f.minimum)}, runner/naive ${ratio(runner.seconds, naive.seconds)}; 429s runner ${runner.rateLimited} vs naive ${naive.rateLimited}; target (pacing) <= 1.2x the minimum for this runner with 0 x 429: ${met(ok)}; against the service's minimum: ${met(runner.seconds <= 1.2 * f.minimum)}`,
  );
}

/** Measures and prints the pacing benchmarks (about 9 minutes: two 300-call runs take 4 each). */
export async function reportPacing(temporalAddress: string): Promise<void> {
  console.log(
    `\n== Wall time at the real limit (${LIMIT} calls per ${WINDOW_MS / 1000}-s window; first to last call, from the sandbox's request log) ==`,
  );
  const f45 = await measure(temporalAddress, W45);
  printWallTime(f45);
  console.log(`\n(measuring ${W300.calls} calls: the runner and the naive client take about 4 minutes each)`);
  const f300 = await measure(temporalAddress, W300);
  printWallTime(f300);

  console.log(
    `\n== Calls per window at the real limit (share = calls / (${LIMIT} x windows the run spanned); ${W300.calls}-call scenario) ==`,
  );
  for (const [name, f] of [
    ['runner', f300.runner],
    ['naive ', f300.naive],
  ] as const) {
    console.log(
      `${name}   ${f.calls} calls in ${f.windows.length} windows (${f.windows.join(', ')}) = ${pct(f.share)} of the limit, ${((f.calls / f.seconds) * 60).toFixed(0)} calls/min first to last call, ${f.rateLimited} x 429`,
    );
  }
  const r = f300.runner;
  console.log(
    `ratio    share runner/naive ${ratio(r.share, f300.naive.share)}; 429s runner ${r.rateLimited} vs naive ${f300.naive.rateLimited}; target >= 95% with 0 x 429: ${met(r.share >= 0.95 && r.rateLimited === 0)}`,
  );
}
