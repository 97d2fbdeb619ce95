/**
 * `vir schedules …`: make Temporal Schedules match a job file (`apply`), list them, pause,
 * unpause, trigger and backfill one. The planning is pure (cli/schedules/); this file makes
 * the Temporal calls.
 */
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
} from '@temporalio/client';
import type { Command } from 'commander';
import { loadJobFile } from '../../jobs/files.js';
import { refuseBadJobs } from '../job-checks.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import {
  desiredSchedule,
  parseOverlap,
  readManagedMemo,
  type DesiredSchedule,
} from '../schedules/desired.js';
import { planSchedules, type ExistingSchedule, type PlanStep } from '../schedules/plan.js';

/** One line of what `apply` did. */
export interface ApplyOutcome {
  action: 'created' | 'updated' | 'deleted' | 'unchanged';
  scheduleId: string;
}

export interface ApplyOptions {
  /** Plan only: report what would change, change nothing. */
  dryRun?: boolean;
}

/** A schedule as Temporal has it now (a describe is current, unlike the list), or null when there is none. */
async function describeSchedule(client: Client, scheduleId: string): Promise<ScheduleDescription | null> {
  try {
    return await client.schedule.getHandle(scheduleId).describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return null;
    throw err;
  }
}

async function describeOrNull(client: Client, scheduleId: string): Promise<ExistingSchedule | null> {
  const d = await describeSchedule(client, scheduleId);
  return d ? { scheduleId, memo: d.memo } : null;
}

/** The schedules that exist for a group, plus whatever holds the ids the file wants. */
async function existingFor(
  client: Client,
  group: string,
  desired: readonly DesiredSchedule[],
): Promise<ExistingSchedule[]> {
  const found = new Map<string, ExistingSchedule>();
  for (const d of desired) {
    const e = await describeOrNull(client, d.scheduleId);
    if (e) found.set(e.scheduleId, e);
  }
  // The list is eventually consistent: confirm each candidate with a describe before acting on it.
  for await (const s of client.schedule.list()) {
    if (found.has(s.scheduleId) || readManagedMemo(s.memo)?.group !== group) continue;
    const e = await describeOrNull(client, s.scheduleId);
    if (e) found.set(e.scheduleId, e);
  }
  return [...found.values()];
}

async function execute(client: Client, step: PlanStep): Promise<ApplyOutcome> {
  switch (step.kind) {
    case 'create':
      await client.schedule.create(step.desired.options);
      return { action: 'created', scheduleId: step.scheduleId };
    case 'update':
      // Temporal keeps a schedule's memo (where the definition's hash lives) from its creation,
      // so a changed schedule is replaced: deleted and created again with the new definition.
      await client.schedule.getHandle(step.scheduleId).delete();
      await client.schedule.create(step.desired.options);
      return { action: 'updated', scheduleId: step.scheduleId };
    case 'delete':
      try {
        await client.schedule.getHandle(step.scheduleId).delete();
      } catch (err) {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      }
      return { action: 'deleted', scheduleId: step.scheduleId };
    case 'unchanged':
      return { action: 'unchanged', scheduleId: step.scheduleId };
  }
}

/**
 * Makes the schedules of a job file's group match the file: creates missing ones, replaces
 * changed ones, deletes the group's schedules that the file no longer has. Schedules that vir
 * does not manage, or of other groups, are never touched.
 *
 * @example
 * const outcomes = await applySchedules(ctx, 'config/jobs/weekly.yaml');
 */
export async function applySchedules(
  ctx: CliContext,
  file: string,
  options: ApplyOptions = {},
): Promise<ApplyOutcome[]> {
  const jobFile = await loadJobFile(file);
  const settings = ctx.settings();
  // Refused before any schedule is created, updated or deleted.
  await refuseBadJobs(ctx, jobFile.jobs, file);
  const desired = jobFile.jobs
    .map((job) => desiredSchedule(job, jobFile.group, settings))
    .filter((d): d is DesiredSchedule => d !== null);
  const client = await ctx.temporal();
  const steps = planSchedules(jobFile.group, desired, await existingFor(client, jobFile.group, desired));
  const outcomes: ApplyOutcome[] = [];
  for (const step of steps) {
    if (options.dryRun) {
      const action = (
        { create: 'created', update: 'updated', delete: 'deleted', unchanged: 'unchanged' } as const
      )[step.kind];
      outcomes.push({ action, scheduleId: step.scheduleId });
    } else {
      outcomes.push(await execute(client, step));
    }
  }
  return outcomes;
}

/** A row of `schedules list`. */
export interface ScheduleRow {
  scheduleId: string;
  paused: boolean;
  managedBy: string | null;
  group: string | null;
  workflowType: string | null;
  nextRun: Date | null;
}

/**
 * Every schedule in the namespace (managed or not), sorted by id, plus those of `alsoIds` that
 * exist. Temporal's list is eventually consistent: a schedule paused a moment ago can still be
 * listed as active, and one just created can be missing. So the list only names the schedules;
 * each one's state is read with a describe, which is current.
 */
export async function listSchedules(
  ctx: CliContext,
  alsoIds: readonly string[] = [],
): Promise<ScheduleRow[]> {
  const client = await ctx.temporal();
  const ids = new Set(alsoIds);
  for await (const s of client.schedule.list()) ids.add(s.scheduleId);
  const rows: ScheduleRow[] = [];
  for (const scheduleId of ids) {
    const d = await describeSchedule(client, scheduleId);
    if (!d) continue;
    const memo = readManagedMemo(d.memo);
    rows.push({
      scheduleId,
      paused: d.state.paused,
      managedBy: memo ? memo.managedBy : null,
      group: memo ? memo.group : null,
      workflowType: d.action.type === 'startWorkflow' ? d.action.workflowType : null,
      nextRun: d.info.nextActionTimes[0] ?? null,
    });
  }
  return rows.sort((a, b) => a.scheduleId.localeCompare(b.scheduleId));
}

/**
 * Which of these schedules are paused in Temporal now (by a pause of `vir schedules` or the
 * portal, whatever the job file says): each read with a describe; one that does not exist is
 * not paused.
 */
export async function pausedSchedules(ctx: CliContext, scheduleIds: readonly string[]): Promise<Set<string>> {
  const client = await ctx.temporal();
  const paused = new Set<string>();
  for (const scheduleId of new Set(scheduleIds)) {
    if ((await describeSchedule(client, scheduleId))?.state.paused) paused.add(scheduleId);
  }
  return paused;
}

async function handleOf(ctx: CliContext, scheduleId: string) {
  const client = await ctx.temporal();
  const handle = client.schedule.getHandle(scheduleId);
  try {
    await handle.describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) {
      throw new CliError(`no schedule "${scheduleId}" in namespace ${ctx.settings().temporalNamespace}`);
    }
    throw err;
  }
  return handle;
}

/** Pauses a schedule with a note. */
export async function pauseSchedule(
  ctx: CliContext,
  scheduleId: string,
  note = 'paused with vir',
): Promise<void> {
  await (await handleOf(ctx, scheduleId)).pause(note);
}

/** Unpauses a schedule with a note. */
export async function unpauseSchedule(
  ctx: CliContext,
  scheduleId: string,
  note = 'unpaused with vir',
): Promise<void> {
  await (await handleOf(ctx, scheduleId)).unpause(note);
}

/** Starts the schedule's action now (overlap: the schedule's own policy unless given). */
export async function triggerSchedule(
  ctx: CliContext,
  scheduleId: string,
  overlap?: ScheduleOverlapPolicy,
): Promise<void> {
  await (await handleOf(ctx, scheduleId)).trigger(overlap);
}

function parseInstant(text: string, option: string): Date {
  const d = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(d.getTime())) {
    throw new CliError(
      `${option} must be an ISO date or date-time (e.g. 2025-01-01T00:00:00Z), got "${text}"`,
    );
  }
  return d;
}

/**
 * Runs the actions the schedule would have taken between `from` and `to`, with overlap
 * ALLOW_ALL so every backfilled run starts.
 */
export async function backfillSchedule(
  ctx: CliContext,
  scheduleId: string,
  from: string,
  to: string,
): Promise<void> {
  const start = parseInstant(from, '--from');
  const end = parseInstant(to, '--to');
  if (end.getTime() <= start.getTime()) throw new CliError('--to must be later than --from');
  await (
    await handleOf(ctx, scheduleId)
  ).backfill([{ start, end, overlap: ScheduleOverlapPolicy.ALLOW_ALL }]);
}

/** Adds `schedules` and its subcommands to the program. */
export function registerSchedules(program: Command, ctx: CliContext): void {
  const cmd = program.command('schedules').description('Temporal Schedules made from job files');

  cmd
    .command('apply')
    .description("make the schedules of a job file's group match the file (create, update, delete)")
    .argument('<file>', 'job file (YAML)')
    .option('--dry-run', 'show what would change, change nothing')
    .action(async (file: string, opts: { dryRun?: boolean }) => {
      const outcomes = await applySchedules(ctx, file, { dryRun: opts.dryRun === true });
      const prefix = opts.dryRun ? 'would be ' : '';
      for (const o of outcomes) ctx.io.out(`${prefix}${o.action.padEnd(9)} ${o.scheduleId}`);
      if (outcomes.length === 0) ctx.io.out('no schedules in this file and none to delete');
    });

  cmd
    .command('list')
    .description('list the schedules of the namespace')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await listSchedules(ctx);
      if (opts.json) {
        ctx.io.out(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        ctx.io.out('no schedules');
        return;
      }
      for (const r of rows) {
        const owner = r.managedBy ? `vir:${r.group}` : 'unmanaged';
        // Temporal keeps a paused schedule's next times; none of them starts a run.
        const next = r.paused ? 'none while paused' : r.nextRun ? r.nextRun.toISOString() : '-';
        ctx.io.out(
          `${r.scheduleId}  ${r.paused ? 'paused' : 'active'}  ${owner}  next ${next}  ${r.workflowType ?? ''}`.trimEnd(),
        );
      }
    });

  cmd
    .command('pause')
    .description('pause a schedule')
    .argument('<id>', 'schedule id')
    .option('--note <text>', 'why')
    .action(async (id: string, opts: { note?: string }) => {
      await pauseSchedule(ctx, id, opts.note);
      ctx.io.out(`paused ${id}`);
    });

  cmd
    .command('unpause')
    .description('unpause a schedule')
    .argument('<id>', 'schedule id')
    .option('--note <text>', 'why')
    .action(async (id: string, opts: { note?: string }) => {
      await unpauseSchedule(ctx, id, opts.note);
      ctx.io.out(`unpaused ${id}`);
    });

  cmd
    .command('trigger')
    .description("start the schedule's workflow now")
    .argument('<id>', 'schedule id')
    .option(
      '--overlap <policy>',
      "overlap policy for this run (skip, buffer_one, buffer_all, cancel_other, terminate_other, allow_all); default: the schedule's",
    )
    .action(async (id: string, opts: { overlap?: string }) => {
      let overlap: ScheduleOverlapPolicy | undefined;
      try {
        overlap = opts.overlap === undefined ? undefined : parseOverlap(opts.overlap);
      } catch (err) {
        throw new CliError(`--overlap: ${(err as Error).message}`);
      }
      await triggerSchedule(ctx, id, overlap);
      ctx.io.out(`triggered ${id}`);
    });

  cmd
    .command('backfill')
    .description('run the actions the schedule would have taken in a past period (overlap ALLOW_ALL)')
    .argument('<id>', 'schedule id')
    .requiredOption('--from <iso>', 'start of the period (ISO 8601)')
    .requiredOption('--to <iso>', 'end of the period (ISO 8601)')
    .action(async (id: string, opts: { from: string; to: string }) => {
      await backfillSchedule(ctx, id, opts.from, opts.to);
      ctx.io.out(`backfilled ${id} from ${opts.from} to ${opts.to}`);
    });
}
