/**
 * Where a rerender's files go besides its own folder: a folder named with `--to`, the run's own
 * folder with `--replace` (the files replaced kept under `replaced/` in the rerender's folder,
 * the run's manifest told what replaced them), and the run's destinations for `--deliver`.
 * Every step can be tried again: a retry finds what the last attempt did and does the rest.
 */
import { copyFile, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { claimRunFolder, destinationRoot, renderedFileNames, type RenderDeps } from './render-files.js';
import { contentTypeOf, destinationsRef } from './delivery/deliver.js';
import { manifestPlace, StoreObjectMissingError, type Store, type StoreFiles } from './store.js';
import type { Destination } from '../config/destinations.js';
import type { RenderOutput, RerenderReplaced } from '../shared/types.js';

/** The failure type of a rerender asked something it cannot do (not retried). */
export const RERENDER_REFUSED = 'RerenderRefused';

function refused(message: string): ApplicationFailure {
  return ApplicationFailure.create({ message, type: RERENDER_REFUSED, nonRetryable: true });
}

/**
 * The folder `--to` names, claimed for the rerender `workflowId`: inside the reports folder (a
 * relative one is resolved there) or an allowed root, new or empty (or already this rerender's,
 * on a retry). Refused with the store keeping files (S3): workers share no folder then.
 */
export async function claimFolder(
  deps: Pick<RenderDeps, 'store' | 'reportsDir' | 'destinationRoots'>,
  to: string,
  workflowId: string,
): Promise<string> {
  if (deps.store.files) {
    throw refused(
      `--to ${to}: this worker keeps reports in the store (VIR_STORE_URL), not in a folder other workers share; leave --to out and the files go to the store beside the run's`,
    );
  }
  let dir: string;
  try {
    dir = destinationRoot(to, deps.reportsDir, deps.destinationRoots);
  } catch (err) {
    throw refused(`--to: ${(err as Error).message}`);
  }
  if (await claimRunFolder(dir, workflowId)) return dir;
  throw refused(`--to ${to}: the folder ${dir} is not empty; name a new or empty folder`);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Copies `from` to `to` so that `to` is never half written (a copy beside it, renamed). */
async function copyWhole(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const part = `${to}.part`;
  await copyFile(from, part);
  await rename(part, to);
}

/** Fetches a store object into a scratch file of this worker; null when the store holds none. */
async function fetchObject(files: StoreFiles, ref: string, scratch: string): Promise<string | null> {
  const local = join(scratch, `${Math.random().toString(36).slice(2)}-${basename(ref)}`);
  try {
    await files.getFile(ref, local);
    return local;
  } catch (err) {
    if (err instanceof StoreObjectMissingError) return null;
    throw err;
  }
}

/** Copies a store object to another reference; false when there was none to copy. */
async function copyObject(files: StoreFiles, from: string, to: string, scratch: string): Promise<boolean> {
  const local = await fetchObject(files, from, scratch);
  if (local === null) return false;
  await files.putFile(to, local, contentTypeOf(to));
  return true;
}

/** The input of {@link replaceRunFiles}. */
export interface ReplaceInput {
  runWorkflowId: string;
  runManifestPath: string;
  /** The rerender's workflow id, for the run's manifest. */
  rerenderWorkflowId: string;
  render: RenderOutput;
}

/**
 * `--replace`: writes the rerender's files over the run's own, each file whole. The files
 * replaced are copied first into the rerender's folder under `replaced/` (a retry that finds
 * the copy keeps it: the run's file may already be the new one), and the run's manifest gets
 * `replacedBy` (the rerender, its files, when), once however often this is tried.
 */
export async function replaceRunFiles(store: Store, input: ReplaceInput): Promise<RerenderReplaced> {
  const run = manifestPlace(store, input.runManifestPath);
  const names = renderedFileNames(input.render);
  const files = store.files;
  if (run.inStore !== (files !== null && files.refOf(input.render.outDir) !== null)) {
    throw refused(
      `--replace: run ${input.runWorkflowId}'s files are ${run.inStore ? 'in the store' : 'in a folder'} and this worker keeps reports ${files ? 'in the store' : 'in folders'}; replace them from a worker set up like the run's`,
    );
  }
  if (files && run.inStore) {
    const rerenderFolder = files.refOf(input.render.outDir)!;
    const scratch = await mkdtemp(join(tmpdir(), 'vir-replace-'));
    try {
      for (const name of names) {
        const kept = `${rerenderFolder}/replaced/${name}`;
        if ((await fetchObject(files, kept, scratch)) === null)
          await copyObject(files, `${run.folder}/${name}`, kept, scratch);
        await copyObject(files, `${rerenderFolder}/${name}`, `${run.folder}/${name}`, scratch);
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  } else {
    for (const name of names) {
      const original = join(run.folder, name);
      const kept = join(input.render.outDir, 'replaced', name);
      if (!(await exists(kept)) && (await exists(original))) await copyWhole(original, kept);
      await copyWhole(join(input.render.outDir, name), original);
    }
  }
  const manifest = await run.read();
  const earlier = Array.isArray(manifest.replacedBy)
    ? (manifest.replacedBy as { workflowId?: string }[])
    : [];
  const entry = { workflowId: input.rerenderWorkflowId, files: names, at: new Date().toISOString() };
  await run.write({
    ...manifest,
    replacedBy: [...earlier.filter((e) => e.workflowId !== input.rerenderWorkflowId), entry],
  });
  const folder = files && run.inStore ? files.urlOf(run.folder) : run.folder;
  return { folder, files: names, keptIn: `${input.render.outDir}/replaced` };
}

/**
 * `--deliver`: the run's destinations, kept again under the rerender's own id, so its delivery
 * has records and idempotency keys of its own (a rerender is a new delivery). Returns them for
 * the workflow (id and kind: the activity reads the rest from the store).
 */
export async function shareDestinations(
  store: Store,
  input: { runWorkflowId: string; rerenderWorkflowId: string },
): Promise<{ id: string; kind: Destination['kind'] }[]> {
  const destinations = await store
    .getJson<Destination[]>(destinationsRef(input.runWorkflowId))
    .catch((err: unknown) => {
      if (err instanceof StoreObjectMissingError) return [] as Destination[];
      throw err;
    });
  await store.putJsonAt(destinationsRef(input.rerenderWorkflowId), destinations);
  return destinations.map((d) => ({ id: d.id, kind: d.kind }));
}
