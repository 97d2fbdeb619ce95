/**
 * `vir credits`: the account's plan and balance (my_account), and for a job (or every job of
 * config/jobs) the credits one run needs against its budget and how many runs the balance pays.
 */
import type { Command } from 'commander';
import { loadJobFile, type AnyJob } from '../../config/jobs.js';
import { serviceClient } from '../../runtime/service.js';
import { readAccount } from '../../api/read.js';
import type { CliContext } from '../context.js';
import { kindOf } from '../run-job.js';
import { JOBS_DIR, listJobFiles, resolveJob } from './run.js';

/** One line per job: what a run spends (at most its budget) and how many runs the balance covers. */
export function describeJobCredits(job: AnyJob, balance: number | null): string {
  const plan = kindOf(job).estimate(job);
  const spend = Math.min(plan.creditsNeeded, job.budget.credits);
  const skipped = plan.paidCalls - plan.paidCallsInBudget;
  const [one, many] = plan.paidCallNoun;
  const needs = plan.paidCalls === 1 ? `${one} needs` : `${many} need`;
  const head =
    `${job.id}: ${plan.paidCalls} ${needs} ${plan.creditsNeeded} credits; budget ${job.budget.credits}` +
    (skipped > 0 ? ` (${skipped} would be skipped)` : '') +
    `; at most ${spend} a run`;
  if (balance === null) return `${head}; balance unknown`;
  if (spend === 0) return `${head}; runs spend no credits`;
  const runs = Math.floor(balance / spend);
  return runs === 0
    ? `${head}; the balance of ${balance} does not cover one full run (${many} past it would be skipped)`
    : `${head}; the balance pays for ${runs} runs`;
}

/** Adds `credits` to the program. */
export function registerCredits(program: Command, ctx: CliContext): void {
  program
    .command('credits')
    .description("the account's plan and credit balance, and what each job's runs spend")
    .option('--job <id>', 'only this job')
    .option('-f, --file <path>', `job file (default: every ${JOBS_DIR}/*.yaml)`)
    .action(async (opts: { job?: string; file?: string }) => {
      const settings = ctx.settings();
      const client = serviceClient(settings);
      ctx.defer(() => client.close());
      const account = readAccount(await client.call('my_account', {}));
      const balance = account.balance;
      ctx.io.out(`plan ${account.plan ?? 'not provided by the service'}, ${balance ?? 'unknown'} credits`);
      let jobs: AnyJob[];
      if (opts.job) jobs = [await resolveJob(opts.job, opts.file)];
      else if (opts.file) jobs = (await loadJobFile(opts.file)).jobs;
      else
        jobs = (await Promise.all((await listJobFiles()).map((f) => loadJobFile(f)))).flatMap((f) => f.jobs);
      for (const job of jobs) ctx.io.out(describeJobCredits(job, balance));
    });
}
