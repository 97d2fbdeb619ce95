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
import { manifestPlace, runDocumentRef, StoreObjectMissingError, type Store } from './store.js';
import {
  destinationRoot,
  outputFolder,
  RENDER_RECIPE,
  renderedFileNames,
  writeManifestBeside,
  type RenderDeps,
} from './render-files.js';
import { claimFolder, replaceRunFiles, shareDestinations } from './rerender-place.js';
import {
  RENDER_RECIPE_FORMAT,
  type RenderOutput,
  type RenderRecipe,
  type RerenderInput,
  type RerenderReplaced,
} from '../shared/types.js';

/** The failure type of a run that cannot be made again from what it kept (not retried). */
export const NOT_RERENDERABLE = 'NotRerenderable';

/** What the rerender's manifest is given: the run, its recipe, the new render, the formats asked. */
export interface RecordRerenderInput extends RerenderInput {
  activity: string;
  jobId: string;
  date: string;
  render: RenderOutput;
  /** What `--replace` wrote over. */
  replaced?: RerenderReplaced | undefined;
}

/** What the rerender's manifest keeps of the run's own (for messages that deliver it). */
async function runManifestHead(store: Store, path: string | undefined) {
  if (!path) return {};
  let run: Record<string, unknown>;
  try {
    run = await manifestPlace(store, path).read();
  } catch {
    // A manifest moved or removed since: the rerender still says which run it was made from.
    return {};
  }
  const status = run.status === 'partial' ? 'partial' : 'complete';
  return {
    ...(run.job && typeof run.job === 'object' ? { job: run.job } : {}),
    ...(typeof run.startedAt === 'string' ? { startedAt: run.startedAt } : {}),
    runStatus: status,
    reasons: Array.isArray(run.reasons) ? run.reasons : [],
  };
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

    /**
     * A new folder beside the run's: `<destination>/<job>/<date>_rerender-N`, the first free N;
     * or the folder `to` names (`--to`: new or empty, in an allowed place).
     */
    async prepareRerenderFolder(input: {
      job: { id: string; destination?: string | undefined };
      date: string;
      to?: string | undefined;
    }): Promise<{ outDir: string }> {
      const workflowId = Context.current().info.workflowExecution!.workflowId;
      if (input.to !== undefined) return { outDir: await claimFolder(deps, input.to, workflowId) };
      const root = destinationRoot(input.job.destination, deps.reportsDir, deps.destinationRoots);
      const folder = (i: number) => `${input.date}_rerender-${i}`;
      return { outDir: await outputFolder(root, input.job.id, input.date, workflowId, folder) };
    },

    /** Writes the rerender's manifest beside its files: what it was made from, and with what. */
    async recordRerender(input: RecordRerenderInput): Promise<{ manifestPath: string }> {
      const { render } = input;
      const info = Context.current().info;
      const manifest = {
        job: { id: input.jobId },
        ...(await runManifestHead(store, input.runManifestPath)),
        workflowId: info.workflowExecution!.workflowId,
        status: 'rerendered',
        rerenderOf: {
          workflowId: input.runWorkflowId,
          manifest: input.runManifestPath ?? null,
          renderActivity: input.activity,
        },
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
        summary: { headline: render.headline ?? null, figures: render.figures ?? [] },
        ...(input.replaced ? { replaced: input.replaced } : {}),
      };
      return { manifestPath: await writeManifestBeside(store, render.outDir, manifest) };
    },

    /** `--replace`: the new files over the run's own, the old ones kept (see `replaceRunFiles`). */
    async replaceRunFiles(input: {
      runWorkflowId: string;
      runManifestPath: string;
      render: RenderOutput;
    }): Promise<RerenderReplaced> {
      const rerenderWorkflowId = Context.current().info.workflowExecution!.workflowId;
      return replaceRunFiles(store, { ...input, rerenderWorkflowId });
    },

    /** `--deliver`: the run's destinations, kept under the rerender's id (its own delivery records). */
    async shareRunDestinations(input: { runWorkflowId: string }) {
      const rerenderWorkflowId = Context.current().info.workflowExecution!.workflowId;
      return shareDestinations(store, { runWorkflowId: input.runWorkflowId, rerenderWorkflowId });
    },
  };
}

export type RerenderActivities = ReturnType<typeof createRerenderActivities>;
