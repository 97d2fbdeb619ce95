/**
 * `vir runs rerender`: a completed run's reports made again, with today's templates, from what
 * the run kept (activities/rerender.ts). The run's render recipe, a new folder beside the run's
 * (or the one `--to` names), the kind's own render in it, the run's files replaced when asked
 * (`--replace`), and a manifest that says what it was made from; then, when asked
 * (`--deliver`), a delivery of its own to the job's destinations. No API activity is ever
 * scheduled: a rerender costs no call and no credit.
 * Workflow code: no I/O here, only decisions and commands.
 */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { RerenderActivities } from '../activities/rerender.js';
import type { RenderOutput, RerenderInput, RerenderResult } from '../shared/types.js';
import { JOB_ACTIVITY_OPTIONS } from './calls.js';
import { deliverRun } from './delivery.js';

const rerender = proxyActivities<RerenderActivities>(JOB_ACTIVITY_OPTIONS);
/** The kinds' render activities, by the name the recipe keeps. */
const renders =
  proxyActivities<Record<string, (input: Record<string, unknown>) => Promise<RenderOutput>>>(
    JOB_ACTIVITY_OPTIONS,
  );

/** Whether a render wrote a format: its file key is the format, or the format and a profile (`csv-hubspot`). */
function wrote(render: RenderOutput, format: string): boolean {
  return Object.keys(render.files).some((k) => k === format || k.startsWith(`${format}-`));
}

export async function rerenderRunWorkflow(input: RerenderInput): Promise<RerenderResult> {
  const recipe = await rerender.loadRenderRecipe({ runWorkflowId: input.runWorkflowId });
  const { job: recipeJob, date } = recipe.input;
  const { outDir } = await rerender.prepareRerenderFolder({
    job: { id: recipeJob.id, destination: recipeJob.destination },
    date,
    ...(input.to !== undefined ? { to: input.to } : {}),
  });
  // The run's own input, in the new folder (its workflow id no longer picks the folder), with
  // the formats asked in place of the job's.
  const { workflowId: _run, ...kept } = recipe.input;
  const job = input.outputs ? { ...recipeJob, outputs: input.outputs } : recipeJob;
  const render = await renders[recipe.activity]!({ ...kept, job, outDir });
  const replaced =
    input.replace && input.runManifestPath
      ? await rerender.replaceRunFiles({
          runWorkflowId: input.runWorkflowId,
          runManifestPath: input.runManifestPath,
          render,
        })
      : undefined;
  const { manifestPath } = await rerender.recordRerender({
    ...input,
    activity: recipe.activity,
    jobId: recipeJob.id,
    date,
    render,
    replaced,
  });
  let delivery;
  if (input.deliver) {
    const destinations = await rerender.shareRunDestinations({ runWorkflowId: input.runWorkflowId });
    delivery = await deliverRun(
      manifestPath,
      destinations,
      destinations.length === 0 ? `the job of run ${input.runWorkflowId} names no destination` : undefined,
    );
  }
  return {
    workflowId: workflowInfo().workflowId,
    rerenderOf: input.runWorkflowId,
    outDir: render.outDir,
    files: render.files,
    manifestPath,
    pages: render.pages,
    charts: render.charts,
    notWritten: (input.outputs ?? []).filter((f) => !wrote(render, f)),
    ...(replaced ? { replaced } : {}),
    ...(delivery ? { delivery } : {}),
  };
}
