/**
 * How every job's run ends (the engine's `run.renderAndFinish` and `run.finish`): the kind's
 * render activity writes the run's files, the manifest goes beside them and the snapshot the
 * next run compares with is committed, the run is delivered to its job's destinations, and the
 * run's result is given.
 *
 * Runs in flight replay through this code: the order of its commands is frozen, whatever the
 * kind (see the README's "Changing a workflow safely"); a change goes behind `patched()`.
 * Workflow code: no I/O here, only decisions and commands.
 */
import { patched, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { RunActivities } from '../activities/run.js';
import type { RunDelivery } from '../shared/delivery.js';
import type { JobIdentity, RenderOutput, StoreRef } from '../shared/types.js';
import { deliverRun, DELIVERY } from './delivery.js';
import { ACCOUNT_LEDGER, LEAN_HISTORY } from './patches.js';
import { PHASE_DELIVERING, PHASE_RENDERING } from './progress.js';
import type { RunBooks, RunFigures } from './run-books.js';

/** What every job workflow returns (`vir run` prints it; a kind may add fields). */
export interface JobRunResult extends RunFigures {
  workflowId: string;
  outDir: string;
  /** Path of each file by its format. */
  files: Record<string, string>;
  manifestPath: string;
  /** The run's deliveries (absent when its job names no destination). */
  delivery?: RunDelivery;
}

/** What a run's end needs: who it is, its books and the generic activities. */
export interface RunEndContext {
  workflowId: string;
  /** The run's folder in the store (its workflow id). */
  runKey: string;
  books: RunBooks;
  activities: ActivityInterfaceFor<RunActivities>;
}

/** What a job gives `run.finish`. */
export interface FinishInput {
  job: JobIdentity;
  render: RenderOutput;
  snapshotRef: StoreRef | null;
  /** Why the run sends nothing to its destinations (a digest's quiet week), if so. */
  skipDelivery?: string;
}

/** What a job gives `run.renderAndFinish`: `run.finish`'s input, the render still to make. */
export interface RenderAndFinishInput extends Omit<FinishInput, 'render'> {
  /** Writes the run's files: the kind's render activity (and any activity it needs first). */
  render: () => Promise<RenderOutput>;
  /** The phase the run is in while it renders (default `rendering`). */
  phase?: string;
}

/**
 * Ends a job's run the way every kind does: enters the render's phase, has the kind's render
 * activity write the files, then finishes (`finishRun`). The commands are the render's, then
 * the finish's, in that order.
 *
 * @example
 * return run.renderAndFinish({
 *   job,
 *   snapshotRef: built.snapshotRef,
 *   render: () => report.renderMarketReport({ modelRef: built.modelRef, job, date: run.date, workflowId: run.workflowId }),
 * });
 */
export async function renderAndFinish(
  ctx: RunEndContext,
  input: RenderAndFinishInput,
): Promise<JobRunResult> {
  const { render: renderFiles, phase, ...end } = input;
  ctx.books.phase(phase ?? PHASE_RENDERING);
  const render = await renderFiles();
  return finishRun(ctx, { ...end, render });
}

/**
 * Ends the run: writes the manifest beside the files, commits the snapshot the next run
 * compares with, and gives the run's result.
 */
export async function finishRun(ctx: RunEndContext, input: FinishInput): Promise<JobRunResult> {
  const { books, activities } = ctx;
  // The run time ends where the job stopped the clock (the one its report states), else now.
  const finishedAt = books.finishedAt(Date.now());
  // The day's calls the run reserved are freed by the manifest's activity (lean history), else
  // by one of their own first.
  const ledger = patched(ACCOUNT_LEDGER);
  const releaseWithManifest = ledger && patched(LEAN_HISTORY);
  if (ledger && !releaseWithManifest) await activities.releaseDayCalls({ runId: ctx.runKey });
  const { manifestPath } = await activities.finalizeRun({
    job: input.job,
    stats: books.stats(),
    render: input.render,
    snapshotRef: input.snapshotRef,
    finishedAt,
    ...(releaseWithManifest ? { releaseDayCalls: true } : {}),
  });
  // Delivery, after the manifest: each destination once (runs from before it send nothing).
  const destinations = input.job.delivery ?? [];
  let delivery: RunDelivery | undefined;
  if (destinations.length > 0 && patched(DELIVERY)) {
    books.phase(PHASE_DELIVERING);
    delivery = await deliverRun(
      manifestPath,
      destinations.map((d) => ({ id: d.id, kind: d.kind })),
      input.skipDelivery,
    );
  }
  books.done();
  return {
    workflowId: ctx.workflowId,
    outDir: input.render.outDir,
    files: input.render.files,
    manifestPath,
    ...books.figures(),
    ...(delivery ? { delivery } : {}),
  };
}
