/**
 * `vir run <job>`: starts a run of a job now, shows a progress bar until it finishes, then
 * prints the report paths (or the failure, clearly). `vir demo`: the whole system on this
 * machine (embedded Temporal, sandbox, workers) running the demo job once, or `--runs` times
 * with a simulated week of market news in the sandbox before each run after the first.
 */
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { findJob, loadJobFile, type AnyJob } from '../../jobs/files.js';
import { DEMO_JOB, JOB_KINDS } from '../../jobs/registry.js';
import { startLocalStack } from '../../runtime/local-stack.js';
import type { JobRunResult } from '../../workflows/engine.js';
import type { RunDelivery } from '../../shared/delivery.js';
import type { Settings } from '../../config/settings.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { describeEstimate, explainFailure, followRun, kindOf, startJobRun } from '../run-job.js';
import type { WorkflowHandle } from '@temporalio/client';
import { refuseBadJobs } from '../job-checks.js';
import { lookAheadLines } from '../look-ahead.js';
import { describeLimits, serviceLimits, type PlanLimits } from '../service-limits.js';
import { positiveIntOption } from '../options.js';
import { onShutdownSignal } from '../signals.js';
import { shutdownSignalFor } from './worker.js';

/** The folder of the user's own job files. */
export const JOBS_DIR = 'config/jobs';

/** The job files `vir run <id>` searches: config/jobs/*.yaml, then every kind's examples. */
export async function listJobFiles(): Promise<string[]> {
  const names = await readdir(JOBS_DIR).catch(() => [] as string[]);
  const own = names
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((n) => join(JOBS_DIR, n));
  return [...own, ...JOB_KINDS.flatMap((k) => k.examples)];
}

/** Finds a job by id in a given file, or in every job file `vir run` searches, with its file. */
export async function locateJob(
  id: string,
  file: string | undefined,
): Promise<{ job: AnyJob; file: string }> {
  if (file) return { job: findJob(await loadJobFile(file), id), file };
  const known: string[] = [];
  for (const path of await listJobFiles()) {
    const jf = await loadJobFile(path);
    const job = jf.jobs.find((j) => j.id === id);
    if (job) return { job, file: path };
    known.push(...jf.jobs.map((j) => j.id));
  }
  throw new CliError(
    `no job "${id}" in ${JOBS_DIR}/*.yaml or the examples of jobs/ (jobs: ${known.join(', ') || 'none'}); pass --file <job file>`,
  );
}

/** Finds a job by id in a given file, or in every job file `vir run` searches. */
export async function resolveJob(id: string, file: string | undefined): Promise<AnyJob> {
  return (await locateJob(id, file)).job;
}

/**
 * What `vir plan` prints: the job, its kind and scope, the estimate's lines, and, given limits
 * with their source ({@link serviceLimits}), where the rate limits came from.
 */
export function planLines(
  job: AnyJob,
  file: string,
  limits: Parameters<typeof describeEstimate>[1] | PlanLimits,
): string[] {
  const kind = kindOf(job);
  return [
    `${job.id} (${kind.kind}, ${file}): ${job.title}`,
    `scope: ${kind.scope(job)}`,
    ...describeEstimate(job, limits).map((line) => line.replace(/^estimate: /, '')),
    ...('sources' in limits ? [describeLimits(limits)] : []),
  ];
}

/** How a file of each format is named in the result lines. */
const FORMAT_LABELS: Record<string, string> = { pdf: 'PDF', xlsx: 'Workbook', csv: 'CSV', json: 'JSON' };

/** A file's label: `PDF`, `Workbook`, `CSV salesforce 2` for `csv-salesforce-2`. */
function fileLabel(format: string): string {
  const [base = format, ...rest] = format.split('-');
  const label = FORMAT_LABELS[base] ?? base.toUpperCase();
  return rest.length > 0 ? `${label} ${rest.join(' ')}` : label;
}

/**
 * How a file is printed: a store URL (s3://…, runs whose files are kept in the store) as it is; a
 * local path under the current folder relative to it (`.data/reports/…`, or under the folder the
 * user named); any other path absolute, never a relative path climbing out of the current folder
 * (`../../…`) when the reports folder lies elsewhere.
 *
 * @example
 * displayPath('/srv/app/.data/reports/x.pdf', '/srv/app') // '.data/reports/x.pdf'
 * displayPath('/tmp/reports/x.pdf', '/srv/app') // '/tmp/reports/x.pdf'
 */
export function displayPath(path: string, cwd = process.cwd()): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(path)) return path;
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  const climbs = rel === '..' || rel.startsWith(`..${sep}`);
  return rel === '' || climbs || isAbsolute(rel) ? absolute : rel;
}

/** Prints where a run's files are, then what the kind adds (when the job is known). */
export function printResult(ctx: CliContext, job: AnyJob | null, result: JobRunResult): void {
  ctx.io.out(`${result.partial ? 'Partial' : 'Complete'} run ${result.workflowId}`);
  const labels = [
    ...Object.entries(result.files).map(([format, path]) => [`${fileLabel(format)}:`, path] as const),
    ['Manifest:', result.manifestPath] as const,
  ];
  const width = Math.max(10, ...labels.map(([label]) => label.length + 1));
  for (const [label, path] of labels) ctx.io.out(`  ${label.padEnd(width)}${displayPath(path)}`);
  ctx.io.out(
    `  ${result.callsMade} calls, ${result.creditsSpent} of ${result.creditsBudget} budgeted credits spent`,
  );
  for (const line of (job && kindOf(job).resultLines?.(result)) || []) ctx.io.out(line);
  for (const r of result.reasons) ctx.io.out(`  partial: ${r}`);
  for (const line of deliveryLines(result.delivery, result.workflowId)) ctx.io.out(line);
}

/** A run's deliveries in lines: the status, then each destination's outcome. */
export function deliveryLines(delivery: RunDelivery | undefined, workflowId: string): string[] {
  if (!delivery) return [];
  if (delivery.status === 'skipped') return [`  Delivery: skipped (${delivery.reason ?? 'the job said so'})`];
  const lines = [`  Delivery: ${delivery.status}`];
  for (const o of delivery.outcomes) {
    const said = o.already ? 'already delivered' : o.ok ? 'ok' : 'FAILED';
    lines.push(`    ${o.destination} (${o.kind}): ${said}: ${o.detail}`);
  }
  if (delivery.outcomes.some((o) => !o.ok))
    lines.push(`  The files are kept; send what failed with: vir runs redeliver ${workflowId}`);
  return lines;
}

/** Runs a job and follows it; resolves with its result (null: detached, or no longer followed). */
async function runAndFollow(
  ctx: CliContext,
  job: AnyJob,
  file: string,
  detach: boolean,
): Promise<JobRunResult | null> {
  const settings = ctx.settings();
  await refuseBadJobs(ctx, [job], file);
  const client = await ctx.temporal();
  const limits = await serviceLimits(settings);
  for (const line of describeEstimate(job, limits)) ctx.io.err(line);
  ctx.io.err(`estimate: ${describeLimits(limits)}`);
  const handle = await startJobRun(client, settings, job);
  ctx.io.err(`started ${handle.workflowId} (${job.kind} job ${job.id}, ${kindOf(job).scope(job)})`);
  if (detach) {
    ctx.io.out(handle.workflowId);
    return null;
  }
  return followOrLetGo(ctx, handle, job);
}

/**
 * Follows a run to its end, prints its result and resolves with it. Ctrl-C stops following, not
 * the run: it says so, and how to follow it again, exits 130 and resolves with null.
 */
export async function followOrLetGo(
  ctx: CliContext,
  handle: WorkflowHandle,
  job: AnyJob | null,
): Promise<JobRunResult | null> {
  const signal = onShutdownSignal();
  try {
    const following = followRun(handle).then(
      (result) => ({ result }),
      (err: unknown) => ({ err }),
    );
    const outcome = await Promise.race([following, signal.received.then((s) => ({ signal: s }))]);
    if ('signal' in outcome) {
      ctx.io.err(
        `\n${outcome.signal}: stopped following; run ${handle.workflowId} goes on. Follow it again with: vir runs follow ${handle.workflowId}`,
      );
      ctx.exitCode = 130;
      return null;
    }
    if ('err' in outcome)
      throw new CliError(`run ${handle.workflowId} failed: ${explainFailure(outcome.err)}`);
    printResult(ctx, job, outcome.result);
    return outcome.result;
  } finally {
    signal.dispose();
  }
}

/** Adds `run` and `demo` to the program. */
export function registerRun(program: Command, ctx: CliContext): void {
  program
    .command('run <job>')
    .description('start a run of a job now and follow it until its reports are written')
    .option('-f, --file <path>', `job file (default: search ${JOBS_DIR}/*.yaml and the examples of jobs/)`)
    .option('--detach', 'print the workflow id and return without waiting')
    .action(async (id: string, opts: { file?: string; detach?: boolean }) => {
      const found = await locateJob(id, opts.file);
      await runAndFollow(ctx, found.job, found.file, opts.detach === true);
    });

  program
    .command('plan <job>')
    .description(
      'print what a run of a job would do (calls, credits, time, days under the daily limit) without running it',
    )
    .option('-f, --file <path>', `job file (default: search ${JOBS_DIR}/*.yaml and the examples of jobs/)`)
    .action(async (id: string, opts: { file?: string }) => {
      const found = await locateJob(id, opts.file);
      const limits = await serviceLimits(ctx.settings());
      for (const line of planLines(found.job, found.file, limits)) ctx.io.out(line);
      for (const line of await lookAheadLines(found.job, ctx.settings(), ctx.env)) ctx.io.out(line);
    });

  program
    .command('demo')
    .description(
      'start embedded Temporal, the sandbox and the workers, run the demo job once (or --runs times), print the reports',
    )
    .option('-f, --file <path>', 'job file', DEMO_JOB.file)
    .option('--job <id>', 'job id in the file', DEMO_JOB.id)
    .option(
      '--runs <n>',
      `run the job n times (at most ${MAX_DEMO_RUNS}), the sandbox's market moved on by a simulated week of news before each run after the first`,
      demoRunsOption,
      1,
    )
    .action(async (opts: { file: string; job: string; runs: number }) => {
      await runDemo(ctx, opts);
    });
}

/**
 * The store of a demo of several runs, where its job's history starts empty: a folder of its
 * own under `<VIR_DATA_DIR>/demo-runs/<time>/store`, or a prefix of its own in the S3 store's
 * bucket. Both `storeDir` and `store` (what the workers open) name it.
 */
export function demoStore(settings: Settings): Pick<Settings, 'storeDir' | 'store'> {
  const time = new Date().toISOString().replace(/[:.]/g, '-');
  const storeDir = resolve(settings.dataDir, 'demo-runs', time, 'store');
  const { store } = settings;
  if (store.kind === 'local') return { storeDir, store: { kind: 'local', dir: storeDir } };
  const prefix = [store.prefix, 'demo-runs', time].filter(Boolean).join('/');
  return { storeDir, store: { ...store, prefix, url: `s3://${store.bucket}/${prefix}` } };
}

/** The most runs `vir demo --runs` makes. */
export const MAX_DEMO_RUNS = 5;

function demoRunsOption(value: string): number {
  const n = positiveIntOption(value);
  if (n > MAX_DEMO_RUNS) throw new InvalidArgumentError(`it must be at most ${MAX_DEMO_RUNS}.`);
  return n;
}

/**
 * `vir demo`: starts embedded Temporal, the in-process sandbox and the workers, then runs the job
 * `runs` times. A kind with a demo of its own (jobs/kind.ts `JobKind.demo`) sets it up first (its
 * servers, the sandbox options and worker settings it needs) and says before each run what
 * changed; it is closed with the stack. For the other kinds, before each run after the first,
 * the sandbox's market moves on by a simulated week of news about the fund thesis of the demo's
 * key (new startups that fit it, a matched startup past the thesis stages, one acquired, one with
 * another round at its stage; seeded by the run's number, so the same every time), said in one
 * line. A demo of several runs keeps its job's history in a store of its own
 * (`<VIR_DATA_DIR>/demo-runs/<time>/store`): its first run is the baseline, whatever earlier
 * demos left. Resolves with each run's result (null for a run no longer followed, which ends the
 * demo).
 */
export async function runDemo(
  ctx: CliContext,
  opts: { file: string; job: string; runs: number },
): Promise<(JobRunResult | null)[]> {
  const found = await locateJob(opts.job, opts.file);
  const kind = kindOf(found.job);
  const { sandboxKey } = kind;
  shutdownSignalFor(ctx);
  const settings = ctx.settings();
  // Closed after the stack (the context's closers run last first).
  const demo = kind.demo ? await kind.demo({ dataDir: settings.dataDir, job: found.job }) : null;
  if (demo) ctx.defer(() => demo.close());
  const base = {
    ...settings,
    ...demo?.settings,
    ...(opts.runs > 1 ? demoStore(settings) : {}),
  };
  const stack = await startLocalStack(base, {
    temporal: { port: 0, uiPort: 0, dbFile: resolve(base.dataDir, 'demo-temporal.sqlite') },
    sandbox: {
      port: 0,
      ...(sandboxKey ? { key: sandboxKey } : {}),
      ...(demo?.sandbox ? { extra: demo.sandbox } : {}),
    },
    workers: {},
    logger: ctx.logger(),
  });
  ctx.defer(() => stack.close());
  ctx.useSettings(stack.settings);
  ctx.io.err(`Temporal UI ${stack.uiUrl ?? '(headless)'}, sandbox ${stack.sandboxUrl}`);
  if (opts.runs > 1) ctx.io.err(`job history of this demo: ${displayPath(base.storeDir)}`);
  const results: (JobRunResult | null)[] = [];
  for (let run = 1; run <= opts.runs; run++) {
    if (demo?.beforeRun) {
      const said = await demo.beforeRun(run);
      if (said) ctx.io.out(`demo: ${said}`);
    } else if (run > 1 && stack.sandbox) {
      const { description } = stack.sandbox.simulateMarketWeek({
        ...(stack.settings.visApiKey ? { key: stack.settings.visApiKey } : {}),
        seed: run - 1,
      });
      ctx.io.out(`sandbox: a week of market news before run ${run}: ${description}`);
    }
    if (opts.runs > 1) ctx.io.out(`Run ${run} of ${opts.runs}:`);
    const result = await runAndFollow(ctx, found.job, found.file, false);
    results.push(result);
    if (result === null) break;
  }
  return results;
}
