/**
 * `vir runs rerender`: a completed run's reports made again from what the run kept, with today's
 * templates. The run's render activity kept its recipe (its name and input: the stored model's
 * references, the job's outputs, the date) in the run's store folder; the rerender workflow asks
 * the same activity again in a new folder (`<date>_rerender-N` beside the delivered one). No
 * call to the service, no credit, no change to the job's snapshot or history: the model already
 * holds the comparisons with earlier runs as they were when the run was made.
 */
import { readFileSync } from 'node:fs';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { runDocumentRef, StoreObjectMissingError, type Store } from './store.js';
import {
  destinationRoot,
  outputFolder,
  RENDER_RECIPE,
  renderedFileNames,
  writeManifestBeside,
  type RenderDeps,
} from './render-files.js';
import {
  RENDER_RECIPE_FORMAT,
  type RenderOutput,
  type RenderRecipe,
  type RerenderInput,
} from '../shared/types.js';

/** The failure type of a run that cannot be made again from what it kept (not retried). */
export const NOT_RERENDERABLE = 'NotRerenderable';

/** What the rerender's manifest is given: the run, its recipe, the new render, the formats asked. */
export interface RecordRerenderInput extends RerenderInput {
  activity: string;
  jobId: string;
  date: string;
  render: RenderOutput;
}

/** The version of the code that made the files: package version and commit where known. */
export function codeVersion(root = new URL('../', import.meta.url)): {
  package: string;
  commit: string | null;
} {
  const read = (path: string) => {
    try {
      return readFileSync(new URL(path, root), 'utf8').trim();
    } catch {
      return null;
    }
  };
  const pkg = JSON.parse(read('package.json') ?? '{}') as { version?: string };
  let commit = process.env.VIR_CODE_COMMIT ?? null;
  const head = read('.git/HEAD');
  if (!commit && head) {
    const ref = head.startsWith('ref: ') ? head.slice(5) : null;
    commit = ref
      ? (read(`.git/${ref}`) ??
        read('.git/packed-refs')
          ?.split('\n')
          .find((l) => l.endsWith(` ${ref}`))
          ?.split(' ')[0] ??
        null)
      : head;
  }
  return { package: pkg.version ?? 'unknown', commit };
}

function notRerenderable(message: string): ApplicationFailure {
  return ApplicationFailure.create({ message, type: NOT_RERENDERABLE, nonRetryable: true });
}

/** Reads a run's recipe, saying exactly why a run cannot be made again when it cannot. */
export async function readRenderRecipe(store: Store, runWorkflowId: string): Promise<RenderRecipe> {
  let recipe: RenderRecipe;
  try {
    recipe = await store.getJson<RenderRecipe>(runDocumentRef(runWorkflowId, RENDER_RECIPE));
  } catch (err) {
    if (err instanceof StoreObjectMissingError) {
      throw notRerenderable(
        `run ${runWorkflowId} kept no render recipe (${err.ref}): it ended before its render, or was made before rerendering existed; only a new run can make its reports`,
      );
    }
    throw err;
  }
  if (recipe.format !== RENDER_RECIPE_FORMAT || typeof recipe.activity !== 'string' || !recipe.input?.job) {
    throw notRerenderable(
      `run ${runWorkflowId}'s render recipe is of format ${String(recipe.format)}; this version reads format ${RENDER_RECIPE_FORMAT}`,
    );
  }
  return recipe;
}

/**
 * The rerender's activities (jobs task queue). The kind's render activity itself is the one the
 * run used, registered by its kind.
 */
export function createRerenderActivities(deps: RenderDeps) {
  const { store } = deps;
  return {
    /** The run's render recipe; a run that kept none fails the rerender, saying why. */
    async loadRenderRecipe(input: { runWorkflowId: string }): Promise<RenderRecipe> {
      return readRenderRecipe(store, input.runWorkflowId);
    },

    /** A new folder beside the run's: `<destination>/<job>/<date>_rerender-N`, the first free N. */
    async prepareRerenderFolder(input: {
      job: { id: string; destination?: string | undefined };
      date: string;
    }): Promise<{ outDir: string }> {
      const root = destinationRoot(input.job.destination, deps.reportsDir, deps.destinationRoots);
      const workflowId = Context.current().info.workflowExecution!.workflowId;
      const folder = (i: number) => `${input.date}_rerender-${i}`;
      return { outDir: await outputFolder(root, input.job.id, input.date, workflowId, folder) };
    },

    /** Writes the rerender's manifest beside its files: what it was made from, and with what. */
    async recordRerender(input: RecordRerenderInput): Promise<{ manifestPath: string }> {
      const { render } = input;
      const info = Context.current().info;
      const manifest = {
        workflowId: info.workflowExecution!.workflowId,
        status: 'rerendered',
        rerenderOf: {
          workflowId: input.runWorkflowId,
          manifest: input.runManifestPath ?? null,
          renderActivity: input.activity,
        },
        job: { id: input.jobId },
        date: input.date,
        renderedAt: new Date().toISOString(),
        code: codeVersion(),
        outputs: input.outputs ?? null,
        // Made from the run's stored answers only: nothing was asked of the service.
        calls: { total: 0 },
        credits: { charged: 0 },
        files: renderedFileNames(render),
        charts: render.charts,
        pages: render.pages,
      };
      return { manifestPath: await writeManifestBeside(store, render.outDir, manifest) };
    },
  };
}

export type RerenderActivities = ReturnType<typeof createRerenderActivities>;
