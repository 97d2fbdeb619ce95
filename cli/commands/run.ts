/**
 * `vir run <job>`: starts a run of a job now, shows a progress bar until it finishes, then
 * prints the report paths (or the failure, clearly). `vir demo`: the whole system on this
 * machine (embedded Temporal, sandbox, workers) running the demo job once.
 */
import { readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { findJob, loadJobFile, type MarketReportJob } from '../../config/jobs.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { describeEstimate, explainFailure, followRun, startJobRun } from '../run-job.js';
import type { MarketReportResult } from '../../workflows/index.js';
import { startTemporalDevServer } from '../../scripts/temporal-server.js';
import { SANDBOX_DEFAULT_KEY } from './dev.js';
import { shutdownSignalFor, startWorkersFor } from './worker.js';

export const JOBS_DIR = 'config/jobs';
export const DEMO_JOB_FILE = 'config/jobs/demo.yaml';

/** The job files of config/jobs/, sorted. */
export async function listJobFiles(): Promise<string[]> {
  const names = await readdir(JOBS_DIR).catch(() => [] as string[]);
  return names
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((n) => join(JOBS_DIR, n));
}

/** Finds a job by id in a given file, or in every job file of config/jobs/. */
export async function resolveJob(id: string, file: string | undefined): Promise<MarketReportJob> {
  if (file) return findJob(await loadJobFile(file), id);
  const known: string[] = [];
  for (const path of await listJobFiles()) {
    const jf = await loadJobFile(path);
    const job = jf.jobs.find((j) => j.id === id);
    if (job) return job;
    known.push(...jf.jobs.map((j) => j.id));
  }
  throw new CliError(
    `no job "${id}" in ${JOBS_DIR}/*.yaml (jobs: ${known.join(', ') || 'none'}); pass --file <job file>`,
  );
}

/** Prints where a run's files are. */
export function printResult(ctx: CliContext, result: MarketReportResult): void {
  const rel = (p: string) => relative(process.cwd(), p) || p;
  ctx.io.out(`${result.partial ? 'Partial' : 'Complete'} run ${result.workflowId}`);
  if (result.files.pdf) ctx.io.out(`  PDF:      ${rel(result.files.pdf)}`);
  if (result.files.xlsx) ctx.io.out(`  Workbook: ${rel(result.files.xlsx)}`);
  ctx.io.out(`  Manifest: ${rel(result.manifestPath)}`);
  ctx.io.out(
    `  ${result.callsMade} calls, ${result.creditsSpent} of ${result.creditsBudget} budgeted credits spent`,
  );
  for (const r of result.reasons) ctx.io.out(`  partial: ${r}`);
}

async function runAndFollow(ctx: CliContext, job: MarketReportJob, detach: boolean): Promise<void> {
  const client = await ctx.temporal();
  const settings = ctx.settings();
  for (const line of describeEstimate(job, settings)) ctx.io.err(line);
  const handle = await startJobRun(client, settings, job);
  ctx.io.err(`started ${handle.workflowId} (job ${job.id}, ${job.countries.length} countries)`);
  if (detach) {
    ctx.io.out(handle.workflowId);
    return;
  }
  try {
    printResult(ctx, await followRun(handle));
  } catch (err) {
    throw new CliError(`run ${handle.workflowId} failed: ${explainFailure(err)}`);
  }
}

/** Adds `run` and `demo` to the program. */
export function registerRun(program: Command, ctx: CliContext): void {
  program
    .command('run <job>')
    .description('start a run of a job now and follow it until its reports are written')
    .option('-f, --file <path>', `job file (default: search ${JOBS_DIR}/*.yaml)`)
    .option('--detach', 'print the workflow id and return without waiting')
    .action(async (id: string, opts: { file?: string; detach?: boolean }) => {
      const job = await resolveJob(id, opts.file);
      await runAndFollow(ctx, job, opts.detach === true);
    });

  program
    .command('demo')
    .description(
      'start embedded Temporal, the sandbox and the workers, run the demo job once, print the reports',
    )
    .option('-f, --file <path>', 'job file', DEMO_JOB_FILE)
    .option('--job <id>', 'job id in the file', 'demo-weekly')
    .action(async (opts: { file: string; job: string }) => {
      const job = await resolveJob(opts.job, opts.file);
      shutdownSignalFor(ctx);
      const base = ctx.settings();
      const server = await startTemporalDevServer({
        port: 0,
        uiPort: 0,
        dbFile: resolve(base.dataDir, 'demo-temporal.sqlite'),
        namespace: base.temporalNamespace,
      });
      ctx.defer(() => server.close());
      const { startSandbox } = await import('../../sandbox/index.js');
      const sandbox = await startSandbox({ port: 0 });
      ctx.defer(() => sandbox.close());
      const settings = {
        ...base,
        temporalAddress: server.address,
        visBaseUrl: sandbox.url,
        visApiKey: base.visApiKey ?? SANDBOX_DEFAULT_KEY,
      };
      ctx.useSettings(settings);
      ctx.io.err(`Temporal UI ${server.uiUrl ?? '(headless)'}, sandbox ${sandbox.url}`);
      await startWorkersFor(ctx, settings);
      await runAndFollow(ctx, job, false);
    });
}
