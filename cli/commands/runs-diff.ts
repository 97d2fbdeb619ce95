/**
 * `vir runs diff <runA> <runB> [--xlsx <path>] [--json]`: what changed between two completed
 * runs of one job, from the answers each kept in the store (activities/run-diff.ts): per
 * operation the records added, removed and changed by key (a search's pages merged), and the
 * figures of single answers that moved. No call to the service, no credit.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_REFUSED } from '../errors.js';
import { completedRunResult } from './completed-run.js';
import { JOB_WORKFLOW_TYPES } from '../../jobs/registry.js';
import { LocalStore, runFolderRef, type Store } from '../../activities/store.js';
import {
  answerCount,
  diffRuns,
  readRunDocuments,
  type ChangedRecord,
  type GroupDiff,
  type RecordRef,
  type RunDiffReport,
  type RunSide,
} from '../../activities/run-diff.js';
import { changeText, leafText } from '../../activities/run-diff-leaves.js';

/** Records listed per section in the text (the workbook and --json hold them all). */
export const TEXT_RECORDS_CAP = 20;
/** Changed fields shown per record in the text. */
export const TEXT_FIELDS_CAP = 4;

/** The store the settings name (VIR_STORE_URL), as the workers open it; closed with the context. */
async function storeOf(ctx: CliContext): Promise<Store> {
  const s = ctx.settings().store;
  if (s.kind !== 's3') return new LocalStore(s.dir);
  const { S3Store } = await import('../../activities/s3-store.js');
  const store = S3Store.fromEnv({ bucket: s.bucket, prefix: s.prefix, region: s.region }, ctx.env);
  ctx.defer(() => store.close());
  return store;
}

/** Where a store folder is, for people: a path, or an s3:// URL. */
function whereOf(store: Store, folder: string): string {
  if (store instanceof LocalStore) return store.pathOf(folder);
  return store.files ? `${store.files.urlOf(folder)}/` : folder;
}

/** The job a run belongs to: its memo's jobId, else its input's job id (null when neither says). */
async function jobIdOfRun(client: Client, workflowId: string, memo: Record<string, unknown> | undefined) {
  if (typeof memo?.jobId === 'string') return memo.jobId;
  try {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    const input = payload ? defaultPayloadConverter.fromPayload<{ job?: { id?: unknown } }>(payload) : null;
    return typeof input?.job?.id === 'string' ? input.job.id : null;
  } catch {
    return null;
  }
}

/**
 * A completed run of a job, or a CliError saying why not: no such run, a workflow that is no
 * job's run, a run not completed.
 */
async function completedJobRun(client: Client, workflowId: string): Promise<Omit<RunSide, 'where'>> {
  await completedRunResult(client, workflowId, 'answers can be compared', (type) => {
    if (!JOB_WORKFLOW_TYPES.includes(type))
      throw new CliError(
        `${workflowId} is a ${type} workflow, not a job's run: only runs of a job can be compared`,
      );
  });
  const desc = await client.workflow.getHandle(workflowId).describe();
  const jobId = await jobIdOfRun(client, workflowId, desc.memo);
  if (jobId === null) throw new CliError(`run ${workflowId} names no job (neither its memo nor its input)`);
  return {
    workflowId,
    type: desc.type,
    jobId,
    startTime: desc.startTime.toISOString(),
    closeTime: desc.closeTime?.toISOString() ?? null,
  };
}

/**
 * Compares two completed runs of one job from the answers they kept (A the earlier, as named).
 *
 * @example
 * const report = await diffRunsOf(ctx, 'fund-match-weekly-2026-11-16…', 'fund-match-weekly-2026-11-23…');
 */
export async function diffRunsOf(ctx: CliContext, runA: string, runB: string): Promise<RunDiffReport> {
  if (runA === runB) throw new CliError(`${runA} twice: name two runs of one job to compare`, EXIT_REFUSED);
  const client = await ctx.temporal();
  const a = await completedJobRun(client, runA);
  const b = await completedJobRun(client, runB);
  if (a.jobId !== b.jobId)
    throw new CliError(
      `${runA} is a run of job ${a.jobId} and ${runB} of job ${b.jobId}: only two runs of the same job can be compared`,
      EXIT_REFUSED,
    );
  const store = await storeOf(ctx);
  const [docsA, docsB] = await Promise.all([readRunDocuments(store, runA), readRunDocuments(store, runB)]);
  for (const run of [docsA, docsB]) {
    if (answerCount(run) === 0)
      throw new CliError(
        `run ${run.runKey} has no stored answers: the store holds none under ${whereOf(store, run.folder)}`,
      );
  }
  const diff = diffRuns(docsA, docsB);
  return {
    jobId: a.jobId,
    a: { ...a, where: whereOf(store, runFolderRef(runA)) },
    b: { ...b, where: whereOf(store, runFolderRef(runB)) },
    ...diff,
  };
}

/** At most `cap` lines of a list, then "and N more". */
function capped<T>(items: readonly T[], line: (item: T) => string, indent: string, cap = TEXT_RECORDS_CAP) {
  const lines = items.slice(0, cap).map((x) => `${indent}${line(x)}`);
  if (items.length > cap) lines.push(`${indent}… and ${items.length - cap} more`);
  return lines;
}

const named = (r: RecordRef) => (r.name ? `${r.name} (${r.key})` : r.key);

/** `field before → after (+change)`, each move of a record, the first few. */
function movesText(r: ChangedRecord): string {
  const shown = r.fields.slice(0, TEXT_FIELDS_CAP).map((f) => {
    const change = changeText(f.change);
    return `${f.field} ${leafText(f.before, 40)} → ${leafText(f.after, 40)}${change ? ` (${change})` : ''}`;
  });
  const more = r.fields.length - TEXT_FIELDS_CAP;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more field${more === 1 ? '' : 's'}` : ''}`;
}

/** The sections of one search, or of one operation's single answers together. */
function sectionLines(added: RecordRef[], removed: RecordRef[], changed: ChangedRecord[], indent: string) {
  const lines: string[] = [];
  const section = (title: string, n: number, body: string[]) => {
    if (n > 0) lines.push(`${indent}${title} ${n}:`, ...body);
  };
  const inner = `${indent}  `;
  section(
    'added',
    added.length,
    capped(added, (r) => `+ ${named(r)}`, inner),
  );
  section(
    'removed',
    removed.length,
    capped(removed, (r) => `- ${named(r)}`, inner),
  );
  section(
    'changed',
    changed.length,
    capped(changed, (r) => `~ ${named(r)}: ${movesText(r)}`, inner),
  );
  return lines;
}

function groupLines(g: GroupDiff): string[] {
  const head = `  ${g.label}: pages A ${g.answers.a}, B ${g.answers.b}`;
  if (g.notComparable !== null) return [`${head}; not comparable: ${g.notComparable}`];
  const records = g.records ? `; records A ${g.records.a}, B ${g.records.b}` : '';
  const unkeyed =
    g.unkeyed.a + g.unkeyed.b > 0 ? `; without a key, not compared: A ${g.unkeyed.a}, B ${g.unkeyed.b}` : '';
  const lines = [`${head}${records}${unkeyed}; unchanged ${g.unchanged}`];
  lines.push(...sectionLines(g.added, g.removed, g.changed, '    '));
  if (g.figures.length > 0)
    lines.push(
      `    figures moved ${g.figures.length}:`,
      ...capped(
        g.figures,
        (f) =>
          `${f.field} ${leafText(f.before, 40)} → ${leafText(f.after, 40)}${f.change !== null ? ` (${changeText(f.change)})` : ''}`,
        '      ',
      ),
    );
  return lines;
}

/**
 * A line without control characters: text from the service (names, values) could otherwise move
 * the cursor, recolour the terminal or break a line in two.
 */
function printable(line: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  return line.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/** The text `vir runs diff` prints (service text with its control characters shown as `?`). */
export function formatRunsDiff(r: RunDiffReport): string[] {
  const side = (n: string, s: RunSide) =>
    `  ${n}  ${s.workflowId}  started ${s.startTime}  closed ${s.closeTime ?? '-'}`;
  const leftOut = Object.entries(r.leftOut).map(([op, n]) => `; ${op} left out (A ${n.a}, B ${n.b})`);
  const lines = [
    `runs diff of job ${r.jobId}`,
    side('A', r.a),
    side('B', r.b),
    `  stored answers: A ${r.answers.a}, B ${r.answers.b}${leftOut.join('')}`,
  ];
  for (const op of r.operations) {
    const kind =
      op.kind === 'records'
        ? `${op.groups.length} search${op.groups.length === 1 ? '' : 'es'}`
        : 'single answers';
    const nc = op.notComparable > 0 ? `, not comparable ${op.notComparable}` : '';
    lines.push(
      '',
      `${op.operation} (${kind}): added ${op.added}, removed ${op.removed}, changed ${op.changed}, unchanged ${op.unchanged}${nc}`,
    );
    if (op.kind === 'records') {
      for (const g of op.groups) lines.push(...groupLines(g));
      continue;
    }
    const all = (pick: (g: GroupDiff) => RecordRef[]) => op.groups.flatMap(pick);
    lines.push(
      ...sectionLines(
        all((g) => g.added),
        all((g) => g.removed),
        op.groups.flatMap((g) => g.changed),
        '  ',
      ),
    );
    for (const g of op.groups)
      if (g.notComparable !== null) lines.push(`  ${g.label}: not comparable: ${g.notComparable}`);
  }
  if (r.operations.length === 0) lines.push('', 'no answers to compare (only answers left out)');
  if (r.notComparable.length > 0) {
    lines.push('', `not comparable ${r.notComparable.length}:`);
    lines.push(
      ...capped(
        r.notComparable,
        (n) => `run ${n.run.toUpperCase()} ${n.ref}${n.operation ? ` (${n.operation})` : ''}: ${n.reason}`,
        '  ',
      ),
    );
  }
  return lines.map(printable);
}

/** Adds `runs diff` to the `runs` command. */
export function registerRunsDiff(runs: Command, ctx: CliContext): void {
  runs
    .command('diff')
    .description(
      "what changed between two completed runs of one job, from the answers they kept: per operation the records added, removed and changed by key (a search's pages merged), and the figures of single answers (profiles, overviews, ask) that moved; my_account answers (the balance) are left out and only counted. No call, no credit",
    )
    .argument('<runA>', 'the earlier run (workflow id)')
    .argument('<runB>', 'the later run (workflow id)')
    .option(
      '--xlsx <path>',
      'also write the whole diff as a workbook (Summary, Added, Removed, Changed, Figures)',
    )
    .option('--json', 'print the whole diff as JSON')
    .action(async (runA: string, runB: string, opts: { xlsx?: string; json?: boolean }) => {
      const report = await diffRunsOf(ctx, runA, runB);
      if (opts.xlsx) {
        const { writeRunDiffWorkbook } = await import('../../activities/run-diff-workbook.js');
        await writeRunDiffWorkbook(report, opts.xlsx);
      }
      if (opts.json) ctx.io.out(JSON.stringify(report, null, 2));
      else {
        for (const line of formatRunsDiff(report)) ctx.io.out(line);
        if (opts.xlsx) for (const line of ['', `workbook: ${opts.xlsx}`]) ctx.io.out(line);
      }
    });
}
