/**
 * `vir runs rerender <run>`: a completed run's reports made again with this version's templates
 * from what the run kept (workflows/rerender.ts): no call to the service, no credit. In a new
 * folder beside the run's (`<date>_rerender-N`), or `--to` a folder, or `--replace` over the
 * run's own files; `--deliver` sends them to the job's destinations as a delivery of their own.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, type Client } from '@temporalio/client';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { completedRunResult } from './completed-run.js';
import { deliveryLines } from './run.js';
import { failureReason } from '../../workflows/failure.js';
import { rerenderRunWorkflow } from '../../workflows/rerender.js';
import { JOB_WORKFLOW_TYPES } from '../../jobs/registry.js';
import type { RerenderInput, RerenderResult } from '../../shared/types.js';

/** The formats a rerender may be asked for (each kind writes some of them). */
export const RERENDER_FORMATS = ['pdf', 'xlsx', 'csv', 'json'] as const;

/** `--outputs pdf,xlsx`: the formats, each known and named once; a bad one names the option. */
export function parseOutputs(text: string): string[] {
  const formats = text
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter((f) => f !== '');
  const unknown = formats.filter((f) => !(RERENDER_FORMATS as readonly string[]).includes(f));
  if (formats.length === 0 || unknown.length > 0) {
    throw new CliError(
      `--outputs: ${unknown.length > 0 ? `unknown format ${unknown.join(', ')}` : 'no format given'}; use a comma-separated list of ${RERENDER_FORMATS.join(', ')}`,
    );
  }
  return [...new Set(formats)];
}

/**
 * Starts the rerender of a run as `<run>/rerender-N` (the first N not taken) and waits for it.
 * Each rerender is a workflow of its own, so none is lost to another started at the same time.
 */
export async function startRerender(
  client: Client,
  taskQueue: string,
  input: RerenderInput,
): Promise<RerenderResult> {
  for (let n = 1; n < 1000; n += 1) {
    let handle;
    try {
      handle = await client.workflow.start(rerenderRunWorkflow, {
        taskQueue,
        workflowId: `${input.runWorkflowId}/rerender-${n}`,
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args: [input],
      });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) continue;
      throw err;
    }
    return handle.result();
  }
  throw new CliError(`run ${input.runWorkflowId} has 999 rerenders: no more workflow ids`);
}

/** What a rerender may be asked besides the run: the formats, where the files go, a delivery. */
export interface RerenderOptions {
  outputs?: string[] | undefined;
  to?: string | undefined;
  replace?: boolean | undefined;
  deliver?: boolean | undefined;
}

/** Options that cannot go together, refused before anything starts. */
export function checkRerenderOptions(options: RerenderOptions): void {
  if (options.to !== undefined && options.replace)
    throw new CliError('--to and --replace name two places for the same files: give one of them');
  if (options.to !== undefined && options.to.trim() === '') throw new CliError('--to: no folder given');
}

/**
 * Makes a completed run's reports again from what it kept, with this version's templates, in a
 * new folder beside the run's (or where the options say): no call to the service and no credit.
 */
export async function rerenderRun(
  ctx: CliContext,
  workflowId: string,
  options: RerenderOptions = {},
): Promise<RerenderResult> {
  checkRerenderOptions(options);
  const client = await ctx.temporal();
  const result = await completedRunResult(client, workflowId, 'reports can be made again', (type) => {
    if (!JOB_WORKFLOW_TYPES.includes(type))
      throw new CliError(
        `${workflowId} is a ${type} workflow, not a job's run: only a run's reports can be made again`,
      );
  });
  if (options.replace && !result.manifestPath)
    throw new CliError(`--replace: run ${workflowId} names no manifest, so its files cannot be found`);
  try {
    return await startRerender(client, ctx.settings().taskQueue, {
      runWorkflowId: workflowId,
      runManifestPath: result.manifestPath,
      ...(options.outputs ? { outputs: options.outputs } : {}),
      ...(options.to !== undefined ? { to: options.to } : {}),
      ...(options.replace ? { replace: true } : {}),
      ...(options.deliver ? { deliver: true } : {}),
    });
  } catch (err) {
    if (err instanceof WorkflowFailedError)
      throw new CliError(`rerender of ${workflowId} failed: ${failureReason(err)}`);
    throw err;
  }
}

/** What a rerender made, in lines: its files, manifest, what it replaced and its delivery. */
export function rerenderLines(made: RerenderResult, workflowId: string): string[] {
  const lines = [`${made.workflowId}: ${workflowId}'s reports made again, 0 calls, 0 credits`];
  for (const [format, path] of Object.entries(made.files)) lines.push(`  ${format}: ${path}`);
  lines.push(`  manifest: ${made.manifestPath}`);
  if (made.notWritten.length > 0)
    lines.push(`  not written: ${made.notWritten.join(', ')} (this kind's reports have no such format)`);
  if (made.replaced)
    lines.push(
      `  replaced in ${made.replaced.folder}: ${made.replaced.files.join(', ')} (the old files kept in ${made.replaced.keptIn})`,
    );
  if (made.delivery) lines.push(...deliveryLines(made.delivery, made.workflowId));
  return lines;
}

/** Adds `runs rerender` to the `runs` command. */
export function registerRerender(cmd: Command, ctx: CliContext): void {
  cmd
    .command('rerender')
    .description(
      "make a completed run's reports again with this version's templates, from what the run kept: no call, no credit; in a new folder <date>_rerender-N beside the run's",
    )
    .argument('<workflowId>', 'the run')
    .option('--outputs <formats>', "formats to write, comma-separated (default: the job's)", parseOutputs)
    .option('--to <folder>', 'write into this new or empty folder (in the reports folder or an allowed root)')
    .option('--replace', "write over the run's own files (the old ones are kept in the rerender's folder)")
    .option('--deliver', "send the new files to the job's destinations (a delivery of their own)")
    .option('--json', 'print JSON')
    .action(async (workflowId: string, opts: RerenderOptions & { json?: boolean }) => {
      const { json, ...options } = opts;
      const made = await rerenderRun(ctx, workflowId, options);
      if (json) ctx.io.out(JSON.stringify(made, null, 2));
      else for (const line of rerenderLines(made, workflowId)) ctx.io.out(line);
      if (made.delivery && made.delivery.status !== 'delivered' && made.delivery.status !== 'skipped')
        ctx.exitCode = 1;
    });
}
