/**
 * Starting a job run now and following it to the end with a progress bar: used by `vir run`
 * and the demo. Every kind's run goes the same way: the registry gives its workflow, its id
 * prefix and its estimate.
 */
import { randomBytes } from 'node:crypto';
import {
  ApplicationFailure,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import cliProgress from 'cli-progress';
import type { AnyJob } from '../jobs/files.js';
import type { Settings } from '../config/settings.js';
import type { AnyJobKind } from '../jobs/kind.js';
import { findKind } from '../jobs/registry.js';
import { runStamp } from '../lib/names.js';
import { describePhase, failedAttempts, progressQuery } from '../workflows/progress.js';
import type { JobRunResult, RunFailureDetails } from '../workflows/engine.js';
import { causeChain, failureReason } from '../workflows/failure.js';

/** The kind of a validated job (it was validated against a registered kind). */
export function kindOf(job: Pick<AnyJob, 'kind'>): AnyJobKind {
  const kind = findKind(job.kind);
  if (!kind) throw new Error(`job kind ${job.kind} is not registered (jobs/registry.ts)`);
  return kind;
}

/** The workflow id every run of a job starts with: `<kind prefix>-<job id>`. */
export function jobWorkflowIdBase(job: Pick<AnyJob, 'kind' | 'id'>): string {
  return `${kindOf(job).idPrefix}-${job.id}`;
}

/**
 * Workflow id of a manual run: the job's base, the start time to the millisecond and a random
 * part (see {@link runStamp}), so two starts of one job never collide, even in the same
 * millisecond or from two machines.
 *
 * @example manualWorkflowId(job) // 'market-report-weekly-dach-20261122-005428-123-3fa9c2'
 */
export function manualWorkflowId(
  job: Pick<AnyJob, 'kind' | 'id'>,
  now = new Date(),
  random = randomBytes(3).toString('hex'),
): string {
  return `${jobWorkflowIdBase(job)}-${runStamp(now, random)}`;
}

/**
 * Starts a run of a job now. The job carries no secret: the key stays in the workers. Without
 * a `workflowId`, the run gets a new {@link manualWorkflowId}; should that id be taken anyway
 * (a one-in-16-million draw in the same millisecond), the start is made once more with a new one.
 */
export async function startJobRun(
  client: Client,
  settings: Pick<Settings, 'taskQueue' | 'apiTaskQueue'>,
  job: AnyJob,
  workflowId?: string,
): Promise<WorkflowHandle> {
  const start = (id: string) =>
    client.workflow.start(kindOf(job).workflow, {
      taskQueue: settings.taskQueue,
      workflowId: id,
      args: [{ job, trigger: 'manual', apiTaskQueue: settings.apiTaskQueue }],
      memo: { jobId: job.id, trigger: 'manual' },
    });
  if (workflowId !== undefined) return start(workflowId);
  try {
    return await start(manualWorkflowId(job));
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return start(manualWorkflowId(job));
  }
}

/**
 * Polls the run's progress query until it finishes; shows a bar on a TTY and a line per
 * change otherwise. Resolves with the result, rejects with the failure.
 */
export async function followRun<R extends JobRunResult = JobRunResult>(
  handle: WorkflowHandle,
  opts: { intervalMs?: number; out?: NodeJS.WriteStream; tty?: boolean } = {},
): Promise<R> {
  const out = opts.out ?? process.stderr;
  const tty = opts.tty ?? Boolean(out.isTTY);
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format:
            ' {bar} {percentage}% | {value}/{total} calls | {pages} pages | {records} records | {failed} failed requests | {credits} credits | ETA {eta_s} | {phase}',
          hideCursor: true,
          stream: out,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let started = false;
  let lastLine = '';
  const resultPromise = handle.result() as Promise<R>;
  let done = false;
  void resultPromise.then(
    () => (done = true),
    () => (done = true),
  );
  try {
    while (!done) {
      try {
        const p = await handle.query(progressQuery);
        const payload = {
          failed: failedAttempts(p.attempts),
          pages: p.pages,
          records: p.records,
          credits: `${p.creditsSpent}/${p.creditsBudget}`,
          eta_s: p.etaSeconds === null ? '?' : `${p.etaSeconds}s`,
          phase: describePhase(p),
        };
        if (bar) {
          if (!started) {
            bar.start(Math.max(1, p.callsPlanned), p.callsMade, payload);
            started = true;
          }
          bar.setTotal(Math.max(1, p.callsPlanned));
          bar.update(p.callsMade, payload);
        } else {
          // A line when the counts or the phase change (not for the ETA alone).
          const line = `[${payload.phase}] ${p.callsMade}/${p.callsPlanned} calls, ${p.pages} pages, ${p.records} records, ${payload.failed} failed requests, ${payload.credits} credits`;
          if (line !== lastLine) out.write(`${line}, ETA ${payload.eta_s}\n`);
          lastLine = line;
        }
      } catch {
        // The query fails before the first workflow task ran or after it closed; poll again.
      }
      await Promise.race([
        resultPromise.catch(() => undefined),
        new Promise((r) => setTimeout(r, opts.intervalMs ?? 500)),
      ]);
    }
    return await resultPromise;
  } finally {
    if (bar && started) bar.stop();
  }
}

/**
 * Why a run failed, in a line: the root cause of its failure chain (the deepest
 * ApplicationFailure: what the activity or the workflow said), not Temporal's wrappers
 * ("Activity task failed"), and where the run's manifest records it when it wrote one.
 *
 * @example
 * explainFailure(err) // 'job "crm": suppress: suppression list crm.csv, line 3: … (manifest: …/manifest.json)'
 */
export function explainFailure(err: unknown): string {
  const reason = failureReason(err instanceof WorkflowFailedError && err.cause ? err.cause : err);
  const manifestPath = failureManifestPath(err);
  return manifestPath ? `${reason} (manifest: ${manifestPath})` : reason;
}

/** The manifest a failed run wrote (the details of its failure, see the engine's `guard`), or null. */
export function failureManifestPath(err: unknown): string | null {
  for (const e of causeChain(err)) {
    if (!(e instanceof ApplicationFailure)) continue;
    const details = e.details?.[0] as Partial<RunFailureDetails> | undefined;
    if (details && typeof details.manifestPath === 'string') return details.manifestPath;
  }
  return null;
}

/**
 * The estimate printed before a run starts: the most calls it makes, how long that takes at
 * the key's rate limit, whether it crosses the daily limit, and the paid calls the budget pays for.
 */
export function describeEstimate(
  job: AnyJob,
  settings: Pick<Settings, 'rateLimitPerMinute' | 'rateLimitPerDay'>,
  rateShare = 0.95,
): string[] {
  const kind = kindOf(job);
  if (kind.planLines) {
    const limits = { perMinute: settings.rateLimitPerMinute, perDay: settings.rateLimitPerDay };
    return kind.planLines(job, limits).map((line) => `estimate: ${line}`);
  }
  const plan = kind.estimate(job);
  const [one, many] = plan.paidCallNoun;
  const nouns = plan.paidCalls === 1 ? one : many;
  const minutes = plan.maxCalls / (settings.rateLimitPerMinute * rateShare);
  const lines = [
    `estimate: at most ${plan.maxCalls} calls, about ${minutes < 0.5 ? '<1' : Math.ceil(minutes)} min at ${settings.rateLimitPerMinute} calls/min`,
  ];
  if (plan.paidCalls > 0) {
    lines.push(
      plan.paidCallsInBudget < plan.paidCalls
        ? `estimate: the budget of ${job.budget.credits} credits pays for ${plan.paidCallsInBudget} of ${plan.paidCalls} ${nouns}; the rest will be skipped and listed (partial report)`
        : `estimate: ${plan.paidCalls} ${nouns}, ${plan.creditsNeeded} credits of the budget of ${job.budget.credits}`,
    );
  }
  if (plan.maxCalls > settings.rateLimitPerDay) {
    lines.push(
      `estimate: more calls than the daily limit of ${settings.rateLimitPerDay}: the run will wait for the daily reset and go on`,
    );
  }
  return lines;
}
