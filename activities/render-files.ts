/**
 * Where a run's files go and how they are kept: the output folder inside the job's checked
 * destination, the render-and-keep tail every kind's render activity goes through (which also
 * keeps the render's recipe for `vir runs rerender`), and the manifest beside the files.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { writeJsonAtomic } from '../lib/files.js';
import { safeFileName } from '../lib/names.js';
import { contentTypeOf } from './delivery/deliver.js';
import { withHouseStyle } from '../reports/house-style.js';
import type { Store } from './store.js';
import {
  RENDER_RECIPE_FORMAT,
  type RenderOutput,
  type RenderRecipe,
  type StoreRef,
} from '../shared/types.js';

/** What a render needs of the worker: the store, and where output folders may be. */
export interface RenderDeps {
  store: Store;
  /** Default root of the output folders (VIR_REPORTS_DIR). */
  reportsDir: string;
  /** Absolute folders outside the reports folder a job's destination may be in (VIR_DESTINATION_ROOTS). */
  destinationRoots?: readonly string[] | undefined;
  /** Printed in every footer of what is rendered (VIR_REPORT_NOTICE). */
  reportNotice?: string | null | undefined;
}

/** Whether the folder's `.run.json` marker names the run `workflowId` (missing, or being written: not). */
async function ownedBy(dir: string, workflowId: string): Promise<boolean> {
  try {
    const marker = JSON.parse(await readFile(join(dir, '.run.json'), 'utf8')) as { workflowId?: string };
    return marker.workflowId === workflowId;
  } catch {
    // Missing, or being written by the run that claimed it this instant: not this run's.
    return false;
  }
}

/**
 * Claims the folder `dir` (made when missing) for the run `workflowId`: true when it is this
 * run's (its `.run.json` marker names the run: a retry finds it) or was empty and now is; false
 * when another run's, or a folder with files but no marker (a run of an older version, or
 * someone's own files). The marker is created exclusively (`wx`), so runs started in the same
 * instant on different workers never share a folder.
 */
export async function claimRunFolder(dir: string, workflowId: string): Promise<boolean> {
  await mkdir(dir, { recursive: true });
  const entries = await readdir(dir);
  if (entries.includes('.run.json')) return ownedBy(dir, workflowId);
  if (entries.length > 0) return false;
  try {
    await writeFile(join(dir, '.run.json'), JSON.stringify({ workflowId }), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return ownedBy(dir, workflowId);
  }
}

/**
 * Picks a free output folder: <root>/<job>/<date>, or <date>_2, <date>_3... when another run used it
 * (`folderName` names the i-th candidate otherwise), claimed for the run (`claimRunFolder`).
 */
export async function outputFolder(
  root: string,
  jobId: string,
  date: string,
  workflowId: string,
  folderName: (i: number) => string = (i) => (i === 1 ? date : `${date}_${i}`),
): Promise<string> {
  const jobDir = join(root, safeFileName(jobId));
  for (let i = 1; i < 1000; i++) {
    const dir = join(jobDir, safeFileName(folderName(i)));
    if (await claimRunFolder(dir, workflowId)) return dir;
  }
  throw new Error(`no free output folder for ${folderName(1)} under ${jobDir}`);
}

/** The store folder of a run's rendered files and manifest (stores that keep files: S3): `reports/<run>`. */
export function reportsRefOf(runKey: string): StoreRef {
  return `reports/${safeFileName(runKey, 160, '_')}`;
}

/** The workflow id of the activity running now (the run's key in the store). */
function currentRunKey(): string {
  const id = Context.current().info.workflowExecution?.workflowId;
  if (!id) throw new Error('keepRenderedFiles: no run key given and no workflow runs this activity');
  return id;
}

/**
 * What every render activity does last. With a store that keeps files (S3: workers share no
 * folder), each rendered file goes to `reports/<run>/<name>` in the store, the worker's local
 * output folder is removed, and the render names the files by their store URLs
 * (`s3://bucket/…/reports/<run>/<name>`; `outDir` the folder's), which the manifest and the
 * delivery steps read on whichever worker they run. With the local store, the render as it is.
 *
 * @param runKey the run's workflow id (default: the running activity's).
 */
export async function keepRenderedFiles(
  store: Store,
  render: RenderOutput,
  runKey?: string,
): Promise<RenderOutput> {
  const files = store.files;
  if (!files) return render;
  const folder = reportsRefOf(runKey ?? currentRunKey());
  const stored: Record<string, string> = {};
  for (const [format, path] of Object.entries(render.files)) {
    const name = relative(render.outDir, path).split(sep).join('/');
    const ref = `${folder}/${name}`;
    await files.putFile(ref, path, contentTypeOf(name));
    stored[format] = files.urlOf(ref);
  }
  await rm(render.outDir, { recursive: true, force: true });
  return { ...render, outDir: files.urlOf(folder), files: stored };
}

/** Whether `path` is `root` or inside it (both absolute and normalised). */
function isInside(path: string, root: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * Where a job's files go: its destination inside the reports folder (a relative one is resolved
 * there), or inside one of the allowed roots; anything else is refused, naming the setting.
 */
export function destinationRoot(
  destination: string | undefined,
  reportsDir: string,
  allowed: readonly string[] = [],
): string {
  const root = resolve(reportsDir);
  if (destination === undefined) return root;
  const path = isAbsolute(destination) ? resolve(destination) : resolve(root, destination);
  if (isInside(path, root) || allowed.some((a) => isInside(path, resolve(a)))) return path;
  throw ApplicationFailure.create({
    message: `destination ${destination} is outside the reports folder ${root} (VIR_REPORTS_DIR); allow its folder with VIR_DESTINATION_ROOTS`,
    type: 'invalid_destination',
    nonRetryable: true,
  });
}

/**
 * A run's output folder (a free one inside its job's checked destination, see `outputFolder`) and
 * the base name of its files (`<job>-<date>`).
 */
export async function runOutput(
  deps: Pick<RenderDeps, 'reportsDir' | 'destinationRoots'>,
  input: { job: { id: string; destination?: string | undefined }; date: string; workflowId: string },
): Promise<{ outDir: string; fileBase: string }> {
  const root = destinationRoot(input.job.destination, deps.reportsDir, deps.destinationRoots);
  return {
    outDir: await outputFolder(root, input.job.id, input.date, input.workflowId),
    fileBase: runFileBase(input.job.id, input.date),
  };
}

/** Where a kind's writer puts a run's files: the output folder and the base name of its files. */
export interface RenderTarget {
  outDir: string;
  fileBase: string;
}

/** Which run a render activity writes for: its job, date and workflow id. */
export type RenderPlace =
  | { job: { id: string; destination?: string | undefined }; date: string; workflowId: string }
  /**
   * A folder the workflow already has (`prepareOutputFolder` found it, the destination checked).
   * Its files are kept under the running activity's workflow id.
   */
  | { job: { id: string }; date: string; outDir: string; workflowId?: undefined };

/**
 * What every render activity does around its kind's writer: finds the run's output folder
 * (`runOutput`, the job's destination checked against the allowed roots), has `write` put the
 * files there, and keeps them (`keepRenderedFiles`). `write` returns what it wrote (the files
 * by format, charts, pages, key figures), without the folder.
 *
 * @example
 * return renderInto(deps, input, async ({ outDir, fileBase }) => {
 *   const pdf = join(outDir, `${fileBase}.pdf`);
 *   return { files: { pdf }, charts: 0, pages: (await writePdf(model, pdf)).pages };
 * });
 */
export async function renderInto(
  deps: RenderDeps,
  place: RenderPlace,
  write: (target: RenderTarget) => Promise<Omit<RenderOutput, 'outDir'>>,
): Promise<RenderOutput> {
  const target =
    'outDir' in place
      ? { outDir: place.outDir, fileBase: runFileBase(place.job.id, place.date) }
      : await runOutput(deps, place);
  const written = await withHouseStyle({ notice: deps.reportNotice ?? null }, () => write(target));
  await recordRenderRecipe(deps.store, place);
  return keepRenderedFiles(deps.store, { outDir: target.outDir, ...written }, place.workflowId);
}

/** The store document of a run's render recipe: `runs/<run>/render.json`. */
export const RENDER_RECIPE = 'render';

/**
 * Keeps what the run's render activity was asked (its name and input: the stored model's
 * references, the job's outputs, the date) in the run's store folder, so `vir runs rerender`
 * can ask it again with today's templates and no call to the service. Outside an activity
 * (a writer tested alone) there is no run to keep it for.
 */
async function recordRenderRecipe(store: Store, place: RenderPlace): Promise<void> {
  let info: ReturnType<typeof Context.current>['info'];
  try {
    info = Context.current().info;
  } catch {
    return;
  }
  const workflowId = info.workflowExecution?.workflowId;
  if (!workflowId) return;
  const recipe: RenderRecipe = {
    format: RENDER_RECIPE_FORMAT,
    activity: info.activityType,
    input: place,
    recordedAt: new Date().toISOString(),
  };
  await store.putJson(workflowId, RENDER_RECIPE, recipe);
}

/** The base name of a run's files: `<job>-<date>`. */
function runFileBase(jobId: string, date: string): string {
  return safeFileName(`${jobId}-${date}`);
}

/** The names of a render's files within its folder, as a manifest lists them. */
export function renderedFileNames(render: Pick<RenderOutput, 'outDir' | 'files'>): string[] {
  return Object.values(render.files).map((f) => f.slice(render.outDir.length + 1));
}

/**
 * Writes a manifest beside the files it lists (`files`: names within `outDir`). A render kept in
 * the store (S3): the manifest goes beside its files there, and says where each file is. Else
 * beside the files in the output folder. Returns where it is.
 */
export async function writeManifestBeside(
  store: Store,
  outDir: string,
  manifest: { files: string[] } & Record<string, unknown>,
): Promise<string> {
  const files = store.files;
  const folderRef = files?.refOf(outDir) ?? null;
  if (files && folderRef !== null) {
    const ref = `${folderRef}/manifest.json`;
    const locations = Object.fromEntries(manifest.files.map((n) => [n, files.urlOf(`${folderRef}/${n}`)]));
    const text = `${JSON.stringify({ ...manifest, locations }, null, 2)}\n`;
    await files.putBytes(ref, text, 'application/json');
    return files.urlOf(ref);
  }
  const manifestPath = join(outDir, 'manifest.json');
  await writeJsonAtomic(manifestPath, manifest, true);
  return manifestPath;
}
