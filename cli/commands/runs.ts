/**
 * `vir runs …`: list job runs (workflow executions of the job workflow types), show one with
 * its live progress or its result, cancel one.
 */
import { queryWhenReady } from '../../lib/temporal-errors.js';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowNotFoundError,
  type Client,
  type WorkflowExecutionInfo,
} from '@temporalio/client';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { positiveIntOption } from '../options.js';
import { deliveryLines, followOrLetGo } from './run.js';
import { failureManifestPath } from '../run-job.js';
import type { RunDelivery } from '../../shared/delivery.js';
import { redeliverRunWorkflow } from '../../workflows/delivery.js';
import { failureReason } from '../../workflows/failure.js';
import { JOB_KINDS, JOB_WORKFLOW_TYPES } from '../../jobs/registry.js';
import { describeAttempts, progressQuery, type RunProgress } from '../../workflows/progress.js';
import { registerRunsDiff } from './runs-diff.js';
import { registerRerender } from './runs-rerender.js';
import { completedRunResult } from './completed-run.js';

/** A row of `runs list`. */
export interface RunRow {
  workflowId: string;
  runId: string;
  type: string;
  status: string;
  jobId: string | null;
  trigger: string | null;
  startTime: Date;
  closeTime: Date | null;
  scheduledBy: string | null;
}

/** What `runs show` reports. */
export interface RunDetails extends RunRow {
  historyLength: number;
  progress: RunProgress | null;
  /** Why progress is missing while the run is running (no worker answered the query). */
  progressError: string | null;
  result: { files: unknown; manifestPath: unknown; partial: unknown; [key: string]: unknown } | null;
  /** Why the run failed: the root cause of its failure chain (not "Activity task failed"). */
  failure: string | null;
  /** The manifest a failed run wrote, saying why (null: none, or a run from before it was written). */
  failureManifest?: string | null;
  /** The deliveries as the last completed `vir runs redeliver` left them (the run's result keeps its first ones). */
  redelivery?: RunDelivery | null;
}

/** The manifest of a run: its result's when it completed, else the one a failed run wrote (null: none). */
export function runManifestPath(d: RunDetails): string | null {
  return typeof d.result?.manifestPath === 'string' ? d.result.manifestPath : (d.failureManifest ?? null);
}

/** The result of a run's last completed redelivery, or null when there was none. */
async function lastRedelivery(client: Client, workflowId: string): Promise<RunDelivery | null> {
  const handle = client.workflow.getHandle(`${workflowId}/redeliver`);
  try {
    const desc = await handle.describe();
    return desc.status.name === 'COMPLETED' ? ((await handle.result()) as RunDelivery) : null;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

export interface ListRunsOptions {
  job?: string;
  limit?: number;
}

/** Upper bound of executions read to sort newest first. */
const LIST_SCAN_CAP = 2000;

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The workflow id bases a job's runs may have: one per kind, as the job id alone names no kind. */
function idBases(job: string): string[] {
  return JOB_KINDS.map((k) => `${k.idPrefix}-${job}`);
}

/** Visibility query of `runs list`. */
export function runsQuery(job?: string): string {
  const types = JOB_WORKFLOW_TYPES.map(quote).join(', ');
  let q = `WorkflowType IN (${types})`;
  if (job)
    q += ` AND (${idBases(job)
      .map((b) => `WorkflowId STARTS_WITH ${quote(b)}`)
      .join(' OR ')})`;
  return q;
}

/** Fields of a listed or described execution that the rows use. */
type ExecutionFields = Omit<WorkflowExecutionInfo, 'raw'>;

function jobIdOf(info: ExecutionFields): string | null {
  const memo = info.memo;
  return typeof memo?.jobId === 'string' ? memo.jobId : null;
}

/** Whether a run belongs to a job: its memo says so, or its id is the job's id plus a time suffix. */
function belongsTo(info: ExecutionFields, job: string): boolean {
  const fromMemo = jobIdOf(info);
  if (fromMemo !== null) return fromMemo === job;
  return idBases(job).some(
    (base) =>
      info.workflowId === base ||
      (info.workflowId.startsWith(base) && /^-\d{4}-?\d{2}-?\d{2}/.test(info.workflowId.slice(base.length))),
  );
}

function rowOf(info: ExecutionFields): RunRow {
  const memo = info.memo;
  const scheduledBy = info.searchAttributes?.TemporalScheduledById;
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    type: info.type,
    status: info.status.name,
    jobId: jobIdOf(info),
    trigger: typeof memo?.trigger === 'string' ? memo.trigger : null,
    startTime: info.startTime,
    closeTime: info.closeTime ?? null,
    scheduledBy: Array.isArray(scheduledBy) && typeof scheduledBy[0] === 'string' ? scheduledBy[0] : null,
  };
}

/** Job runs, newest first. */
export async function listRuns(ctx: CliContext, options: ListRunsOptions = {}): Promise<RunRow[]> {
  const client = await ctx.temporal();
  const limit = options.limit ?? 20;
  const rows: RunRow[] = [];
  let scanned = 0;
  for await (const info of client.workflow.list({ query: runsQuery(options.job) })) {
    if (++scanned > LIST_SCAN_CAP) break;
    if (options.job && !belongsTo(info, options.job)) continue;
    rows.push(rowOf(info));
  }
  rows.sort((a, b) => b.startTime.getTime() - a.startTime.getTime());
  return rows.slice(0, limit);
}

async function queryProgress(client: Client, workflowId: string, timeoutMs: number): Promise<RunProgress> {
  // A run that just started or continued as new answers a moment later: asked again meanwhile.
  return queryWhenReady(client, workflowId, progressQuery, [], timeoutMs);
}

/**
 * A run's status, times, and its progress (running) or result (completed) or failure.
 *
 * @example
 * const run = await showRun(ctx, 'market-report-weekly-big-three-2025-01-06T07:00:00Z');
 */
export async function showRun(
  ctx: CliContext,
  workflowId: string,
  opts: { queryTimeoutMs?: number } = {},
): Promise<RunDetails> {
  const client = await ctx.temporal();
  const handle = client.workflow.getHandle(workflowId);
  let desc;
  try {
    desc = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError)
      throw new CliError(`no run "${workflowId}" in namespace ${ctx.settings().temporalNamespace}`);
    throw err;
  }
  const details: RunDetails = {
    ...rowOf(desc),
    historyLength: desc.historyLength,
    progress: null,
    progressError: null,
    result: null,
    failure: null,
  };
  if (desc.status.name === 'RUNNING') {
    try {
      details.progress = await queryProgress(client, workflowId, opts.queryTimeoutMs ?? 5000);
    } catch (err) {
      details.progressError = `no progress: ${(err as Error).message.split('\n')[0]} (is a worker running?)`;
    }
  } else if (desc.status.name === 'COMPLETED') {
    details.result = (await handle.result()) as RunDetails['result'];
    if (details.result?.delivery) details.redelivery = await lastRedelivery(client, workflowId);
  } else if (desc.status.name === 'FAILED') {
    try {
      await handle.result();
    } catch (err) {
      details.failure = failureReason(err instanceof WorkflowFailedError && err.cause ? err.cause : err);
      details.failureManifest = failureManifestPath(err);
    }
  }
  return details;
}

/** Requests cancellation of a run. */
export async function cancelRun(ctx: CliContext, workflowId: string): Promise<void> {
  const client = await ctx.temporal();
  try {
    await client.workflow.getHandle(workflowId).cancel();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new CliError(`no running run "${workflowId}"`);
    throw err;
  }
}

function iso(d: Date | null): string {
  return d ? d.toISOString() : '-';
}

/** The text `runs show` prints. */
export function formatRun(r: RunDetails): string[] {
  const lines = [
    `run        ${r.workflowId}`,
    `status     ${r.status}`,
    `type       ${r.type}`,
    `job        ${r.jobId ?? '-'}${r.trigger ? ` (${r.trigger})` : ''}${r.scheduledBy ? ` schedule ${r.scheduledBy}` : ''}`,
    `started    ${iso(r.startTime)}`,
    `closed     ${iso(r.closeTime)}`,
  ];
  if (r.progress) {
    const p = r.progress;
    lines.push(
      `phase      ${p.phase}`,
      `calls      ${p.callsMade}/${p.callsPlanned}`,
      `requests   ${describeAttempts(p.attempts)}`,
      `pages      ${p.pages}`,
      `records    ${p.records}`,
      `credits    ${p.creditsSpent}/${p.creditsBudget}`,
      `eta        ${p.etaSeconds === null ? '-' : `${p.etaSeconds}s`}`,
      `partial    ${p.partial ? `yes (${p.reasons.join('; ')})` : 'no'}`,
    );
  }
  if (r.progressError) lines.push(`progress   ${r.progressError}`);
  if (r.result) {
    lines.push(`files      ${JSON.stringify(r.result.files)}`, `manifest   ${String(r.result.manifestPath)}`);
    lines.push(`partial    ${r.result.partial ? 'yes' : 'no'}`);
  }
  if (r.failure) lines.push(`failure    ${r.failure}`);
  if (r.failureManifest) lines.push(`manifest   ${r.failureManifest}`);
  const delivery = r.redelivery ?? (r.result?.delivery as RunDelivery | undefined);
  if (delivery) {
    const when = r.redelivery ? ' (after vir runs redeliver)' : '';
    lines.push(`delivery   ${delivery.status}${delivery.reason ? ` (${delivery.reason})` : ''}${when}`);
    for (const o of delivery.outcomes)
      lines.push(`           ${o.destination} (${o.kind}): ${o.ok ? 'ok' : 'FAILED'}: ${o.detail}`);
  }
  return lines;
}

/**
 * Delivers a completed run again to every destination of its job: those a record shows
 * delivered get nothing, the others are sent. One redelivery of a run at a time.
 */
export async function redeliverRun(ctx: CliContext, workflowId: string): Promise<RunDelivery> {
  const client = await ctx.temporal();
  const result = await completedRunResult(client, workflowId, 'files can be delivered');
  if (!result.delivery) throw new CliError(`run ${workflowId} has no delivery: its job names no destination`);
  try {
    return await client.workflow.execute(redeliverRunWorkflow, {
      taskQueue: ctx.settings().taskQueue,
      workflowId: `${workflowId}/redeliver`,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [{ runWorkflowId: workflowId, manifestPath: result.manifestPath }],
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError)
      throw new CliError(`a redelivery of ${workflowId} is already running`);
    throw err;
  }
}

/** Adds `runs` and its subcommands to the program. */
export function registerRuns(program: Command, ctx: CliContext): void {
  const cmd = program.command('runs').description('job runs (workflow executions)');

  cmd
    .command('list')
    .description('list runs, newest first')
    .option('--job <id>', 'only runs of this job')
    .option('--limit <n>', 'at most this many', positiveIntOption, 20)
    .option('--json', 'print JSON')
    .action(async (opts: { job?: string; limit: number; json?: boolean }) => {
      const rows = await listRuns(ctx, { job: opts.job, limit: opts.limit });
      if (opts.json) {
        ctx.io.out(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        ctx.io.out('no runs');
        return;
      }
      for (const r of rows) {
        ctx.io.out(`${r.workflowId}  ${r.status}  started ${iso(r.startTime)}  closed ${iso(r.closeTime)}`);
      }
    });

  cmd
    .command('show')
    .description('status, times, and progress (running) or result (completed) of a run')
    .argument('<workflowId>', 'the run')
    .option('--json', 'print JSON')
    .action(async (workflowId: string, opts: { json?: boolean }) => {
      const details = await showRun(ctx, workflowId);
      if (opts.json) ctx.io.out(JSON.stringify(details, null, 2));
      else for (const line of formatRun(details)) ctx.io.out(line);
    });

  cmd
    .command('follow')
    .description('follow a run again with the progress bar until it ends, then print its files')
    .argument('<workflowId>', 'the run')
    .action(async (workflowId: string) => {
      const client = await ctx.temporal();
      const handle = client.workflow.getHandle(workflowId);
      try {
        await handle.describe();
      } catch {
        throw new CliError(`no run ${workflowId} (vir runs list shows the runs)`);
      }
      await followOrLetGo(ctx, handle, null);
    });

  cmd
    .command('redeliver')
    .description("send a completed run's reports again to the destinations that did not get them")
    .argument('<workflowId>', 'the run')
    .action(async (workflowId: string) => {
      const delivery = await redeliverRun(ctx, workflowId);
      for (const line of deliveryLines(delivery, workflowId)) ctx.io.out(line);
      if (delivery.status !== 'delivered') ctx.exitCode = 1;
    });

  registerRerender(cmd, ctx);

  registerRunsDiff(cmd, ctx);

  cmd
    .command('cancel')
    .description('request cancellation of a run')
    .argument('<workflowId>', 'the run')
    .action(async (workflowId: string) => {
      await cancelRun(ctx, workflowId);
      ctx.io.out(`cancel requested for ${workflowId}`);
    });
}
