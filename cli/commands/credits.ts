/**
 * `vir credits`: the account's plan and balance (my_account); its ledger (the account workflow):
 * credits spent this day, week and month in all and per job, reserved by calls in flight now,
 * and the caps; for a job (or every job of config/jobs) the credits one run needs against its
 * budget and how many runs the balance pays; and what the scheduled jobs will need for the rest
 * of the month at their current plans.
 */
import type { Command } from 'commander';
import { loadJobFile, type AnyJob } from '../../jobs/files.js';
import { serviceClient } from '../../runtime/service.js';
import { readAccount } from '../../api/read-account.js';
import { AccountLink, accountIdOf, tighterCaps } from '../../activities/account.js';
import { requireApiKey, type Settings } from '../../config/settings.js';
import { nextMonthStart, scheduledRunsBetween } from '../../jobs/schedule-runs.js';
import type { AccountView } from '../../shared/account.js';
import type { CreditCaps } from '../../shared/account.js';
import type { CliContext } from '../context.js';
import { kindOf } from '../run-job.js';
import { scheduleIdFor } from '../schedules/desired.js';
import { JOBS_DIR, listJobFiles, locateJob } from './run.js';
import { pausedSchedules } from './schedules.js';

/** A count and its noun, singular or plural, digits as they are: `1 credit`, `33333 runs`. */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line per job: what a run spends (at most its budget) and how many runs the balance covers. */
export function describeJobCredits(job: AnyJob, balance: number | null): string {
  const plan = kindOf(job).estimate(job);
  const spend = Math.min(plan.creditsNeeded, job.budget.credits);
  const skipped = plan.paidCalls - plan.paidCallsInBudget;
  const [one, many] = plan.paidCallNoun;
  const needs = plan.paidCalls === 1 ? `${one} needs` : `${many} need`;
  const head =
    `${job.id}: ${plan.paidCalls} ${needs} ${count(plan.creditsNeeded, 'credit')}; budget ${job.budget.credits}` +
    (skipped > 0 ? ` (${skipped} would be skipped)` : '') +
    `; at most ${spend} a run`;
  if (balance === null) return `${head}; balance unknown`;
  if (spend === 0) return `${head}; runs spend no credits`;
  const runs = Math.floor(balance / spend);
  return runs === 0
    ? `${head}; the balance of ${balance} does not cover one full run (${many} past it would be skipped)`
    : `${head}; the balance pays for ${count(runs, 'run')}`;
}

/** The most a run of the job spends: what its plan needs, within its budget. */
function spendPerRun(job: AnyJob): number {
  return Math.min(kindOf(job).estimate(job).creditsNeeded, job.budget.credits);
}

/** Caps in words: `20 a day, 50 a month`, or `none`. */
export const capsText = (caps: CreditCaps) =>
  (['day', 'week', 'month'] as const)
    .filter((p) => caps[p] !== undefined)
    .map((p) => `${caps[p]} a ${p}`)
    .join(', ') || 'none';

/** The ledger's lines: spending per period (all jobs, then each), reservations, caps. */
export function describeLedger(
  accountId: string,
  view: AccountView | null,
  settingsCaps: CreditCaps,
): string[] {
  if (view === null) {
    return [`account ${accountId}: no runs recorded yet; caps ${capsText(settingsCaps)}`];
  }
  const { day, week, month } = view.spent;
  const lines = [
    `account ${accountId}: spent ${day.total} today, ${week.total} this week, ${month.total} this month (UTC); ` +
      `${view.reserved} reserved by calls in flight; caps ${capsText(tighterCaps(settingsCaps, view.caps))}`,
  ];
  for (const job of Object.keys(month.byJob).sort()) {
    lines.push(
      `  ${job}: ${day.byJob[job] ?? 0} today, ${week.byJob[job] ?? 0} this week, ${month.byJob[job] ?? 0} this month`,
    );
  }
  return lines;
}

/**
 * What the scheduled jobs will spend at most from `now` to the month's end, at their current
 * plans. A job whose schedule is paused, in its file or in Temporal (`pausedJobs`: job ids), has
 * no run left.
 */
export function describeMonthAhead(
  jobs: AnyJob[],
  now: Date,
  balance: number | null,
  pausedJobs: ReadonlySet<string> = new Set(),
): string[] {
  const end = nextMonthStart(now);
  const rows = jobs
    .filter((j) => j.schedule !== undefined)
    .map((j) => {
      const paused = j.schedule!.paused || pausedJobs.has(j.id);
      const runs = paused ? 0 : scheduledRunsBetween(j.schedule!, now, end);
      return { job: j, paused, runs, each: spendPerRun(j) };
    });
  if (rows.length === 0) return ['no scheduled jobs'];
  const total = rows.reduce((s, r) => s + r.runs * r.each, 0);
  const lines = rows.map(
    (r) =>
      `  ${r.job.id}: ${count(r.runs, 'more run')} this month x at most ${r.each} = ${count(r.runs * r.each, 'credit')}` +
      (r.paused ? ' (paused)' : ''),
  );
  const against =
    balance === null
      ? ''
      : balance >= total
        ? `; the balance of ${balance} covers it`
        : `; the balance of ${balance} does not cover it`;
  return [
    `scheduled jobs until ${end.toISOString().slice(0, 10)}: at most ${count(total, 'credit')}${against}`,
    ...lines,
  ];
}

/** The account's ledger as its workflow answers it: the view (null: no runs recorded yet), or why it cannot be read. */
export interface LedgerRead {
  accountId: string;
  view: AccountView | null;
  /** Why the ledger cannot be read (no worker answered, Temporal not reached); null when read. */
  error: string | null;
}

/**
 * Reads the account's ledger from its workflow (`vir credits`, the portal's pages): the account
 * of VIS_BASE_URL and VIS_API_KEY (a SettingsError naming VIS_API_KEY when it is not set).
 */
export async function readLedger(
  ctx: CliContext,
  settings: Settings,
  timeoutMs?: number,
): Promise<LedgerRead> {
  const accountId = accountIdOf(settings.visBaseUrl, requireApiKey(settings));
  try {
    const client = await ctx.temporal();
    const link = new AccountLink({
      client,
      taskQueue: settings.accountTaskQueue,
      accountId,
      perMinute: settings.rateLimitPerMinute,
      perDay: settings.rateLimitPerDay,
      caps: settings.creditCaps,
    });
    return { accountId, view: await link.view(timeoutMs), error: null };
  } catch (err) {
    return { accountId, view: null, error: (err as Error).message };
  }
}

/** The account's ledger from its workflow, or a line saying why it cannot be read. */
async function ledgerLines(ctx: CliContext, settings: Settings): Promise<string[]> {
  const ledger = await readLedger(ctx, settings);
  if (ledger.error !== null)
    return [`account ${ledger.accountId}: the ledger cannot be read (${ledger.error})`];
  return describeLedger(ledger.accountId, ledger.view, settings.creditCaps);
}

/** A job and the id of its schedule in Temporal (null: it has none). */
export interface ScheduledJob {
  jobId: string;
  scheduleId: string | null;
}

/**
 * The jobs whose schedule is paused in Temporal now (a pause of `vir schedules pause` or the
 * portal, which the job file does not say), or why Temporal's schedules could not be read.
 */
export async function jobsPausedInTemporal(
  ctx: CliContext,
  jobs: readonly ScheduledJob[],
): Promise<{ jobs: Set<string>; error: string | null }> {
  const scheduled = jobs.filter((j): j is { jobId: string; scheduleId: string } => j.scheduleId !== null);
  if (scheduled.length === 0) return { jobs: new Set(), error: null };
  try {
    const paused = await pausedSchedules(
      ctx,
      scheduled.map((j) => j.scheduleId),
    );
    return {
      jobs: new Set(scheduled.filter((j) => paused.has(j.scheduleId)).map((j) => j.jobId)),
      error: null,
    };
  } catch (err) {
    return { jobs: new Set(), error: (err as Error).message };
  }
}

/** Adds `credits` to the program. */
export function registerCredits(program: Command, ctx: CliContext): void {
  program
    .command('credits')
    .description(
      "the account's plan, balance and ledger (spent per day/week/month and job, reserved, caps), what each job's runs spend, and what the schedules need this month",
    )
    .option('--job <id>', 'only this job')
    .option('-f, --file <path>', `job file (default: every ${JOBS_DIR}/*.yaml)`)
    .action(async (opts: { job?: string; file?: string }) => {
      const settings = ctx.settings();
      const client = serviceClient(settings);
      ctx.defer(() => client.close());
      const account = readAccount(await client.call('my_account', {}));
      const balance = account.balance;
      ctx.io.out(`plan ${account.plan ?? 'not provided by the service'}, ${balance ?? 'unknown'} credits`);
      const located = opts.job ? await locateJob(opts.job, opts.file) : null;
      const files = located ? [located.file] : opts.file ? [opts.file] : await listJobFiles();
      const entries = (await Promise.all(files.map((f) => loadJobFile(f))))
        .flatMap((jf) => jf.jobs.map((job) => ({ job, group: jf.group })))
        .filter((e) => located === null || e.job.id === located.job.id);
      const jobs: AnyJob[] = entries.map((e) => e.job);
      // Read together: with Temporal down, the ledger and the pauses wait on one connection attempt.
      const [ledger, paused] = await Promise.all([
        ledgerLines(ctx, settings),
        jobsPausedInTemporal(
          ctx,
          entries.map((e) => ({
            jobId: e.job.id,
            scheduleId: e.job.schedule ? scheduleIdFor(e.group, e.job.id) : null,
          })),
        ),
      ]);
      for (const line of ledger) ctx.io.out(line);
      for (const job of jobs) ctx.io.out(describeJobCredits(job, balance));
      for (const line of describeMonthAhead(jobs, new Date(), balance, paused.jobs)) ctx.io.out(line);
      if (paused.error !== null) {
        ctx.io.out(`  (schedules paused in Temporal not known: ${paused.error}; the job files' pauses only)`);
      }
    });
}
