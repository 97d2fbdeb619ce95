/**
 * The activities every job kind shares on the jobs task queue: the first records of stored
 * pages, the account's balance, the run's output folder, the previous run's snapshot, and the
 * manifest written when a run ends (which also makes the run the one the next compares with).
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { readAccount } from '../api/read-account.js';
import { recordKey } from '../api/read-keys.js';
import { readPage } from '../api/read-page.js';
import { writeJsonAtomic } from '../lib/files.js';
import { safeFileName } from '../lib/names.js';
import { headlineText } from '../reports/format.js';
import type { AccountLink } from './account.js';
import { contentTypeOf, destinationsRef, manifestDestinations } from './delivery/deliver.js';
import type { DeliveryFigure } from '../shared/delivery.js';
import type { Store } from './store.js';
import type {
  FailedRunInput,
  FinalizeInput,
  FinalizeOutput,
  JobIdentity,
  OperationAttempts,
  OutputFolderInput,
  RenderOutput,
  RunStats,
  SelectTopInput,
  StoreRef,
  StoredCall,
} from '../shared/types.js';

/** Where a job's latest snapshot lives in the store. */
export function snapshotRefOf(jobId: string): StoreRef {
  return `snapshots/${safeFileName(jobId)}/latest.json`;
}

/** The snapshot the previous run of a job committed, or null on a first run. */
export async function readPreviousSnapshot<T>(store: Store, jobId: string): Promise<T | null> {
  return store.getJson<T>(snapshotRefOf(jobId)).catch(() => null);
}

/**
 * Picks a free output folder: <root>/<job>/<date>, or <date>_2, <date>_3... when another run used it.
 * A folder is claimed by creating its `.run.json` marker exclusively (`wx`), so runs started in the
 * same instant on different workers never share one; a retry of the same run finds its marker.
 */
export async function outputFolder(
  root: string,
  jobId: string,
  date: string,
  workflowId: string,
): Promise<string> {
  const base = join(root, safeFileName(jobId), safeFileName(date));
  const ownedBy = async (dir: string): Promise<boolean> => {
    try {
      const marker = JSON.parse(await readFile(join(dir, '.run.json'), 'utf8')) as { workflowId?: string };
      return marker.workflowId === workflowId;
    } catch {
      // Missing, or being written by the run that claimed it this instant: not this run's.
      return false;
    }
  };
  for (let i = 1; i < 1000; i++) {
    const dir = i === 1 ? base : `${base}_${i}`;
    await mkdir(dir, { recursive: true });
    const entries = await readdir(dir);
    if (entries.includes('.run.json')) {
      if (await ownedBy(dir)) return dir;
      continue;
    }
    // A folder with files but no marker belongs to a run of an older version: leave it.
    if (entries.length > 0) continue;
    try {
      await writeFile(join(dir, '.run.json'), JSON.stringify({ workflowId }), { flag: 'wx' });
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await ownedBy(dir)) return dir;
    }
  }
  throw new Error(`no free output folder under ${base}`);
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

/**
 * The manifest's account of requests: sent, succeeded and failed in all and per operation,
 * retries included (what the service's request log shows).
 */
export function attemptsSummary(byOperation: Record<string, OperationAttempts>) {
  const sum = (key: keyof OperationAttempts) =>
    Object.values(byOperation).reduce((total, row) => total + row[key], 0);
  return {
    attempted: sum('attempted'),
    succeeded: sum('succeeded'),
    failed: sum('failed'),
    byOperation,
  };
}

/** Keys of the records of a stored page's list (investors, startups, customers, matches). */
function pageKeys(call: StoredCall): string[] {
  return readPage(call.operation, call.result.data)
    .items.map((it) => recordKey(call.operation, it))
    .filter((k): k is string => k !== null);
}

export interface RunActivityDeps {
  store: Store;
  /** Default root of the output folders (VIR_REPORTS_DIR). */
  reportsDir: string;
  /** The account workflow's link (credit ledger, the day's calls); absent: nothing to settle. */
  account?: AccountLink | undefined;
  /** Absolute folders outside the reports folder a job's destination may be in (VIR_DESTINATION_ROOTS). */
  destinationRoots?: readonly string[];
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
  deps: Pick<RunActivityDeps, 'reportsDir' | 'destinationRoots'>,
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
  deps: Pick<RunActivityDeps, 'store' | 'reportsDir' | 'destinationRoots'>,
  place: RenderPlace,
  write: (target: RenderTarget) => Promise<Omit<RenderOutput, 'outDir'>>,
): Promise<RenderOutput> {
  const target =
    'outDir' in place
      ? { outDir: place.outDir, fileBase: runFileBase(place.job.id, place.date) }
      : await runOutput(deps, place);
  const written = await write(target);
  return keepRenderedFiles(deps.store, { outDir: target.outDir, ...written }, place.workflowId);
}

/** The base name of a run's files: `<job>-<date>`. */
function runFileBase(jobId: string, date: string): string {
  return safeFileName(`${jobId}-${date}`);
}

/**
 * What a render activity returns about the run's opening, whatever the outputs asked: the key
 * figures the PDF opens with (label, value and note; the tile's colour stays in the PDF) and the
 * headline on one line, cut to its length (absent when empty).
 *
 * @example
 * return { outDir, files, charts, pages, ...runOpening(openingFigures(model), openingHeadline(model)) };
 */
export function runOpening(
  tiles: readonly DeliveryFigure[],
  headline: string,
): Pick<RenderOutput, 'figures' | 'headline'> {
  const line = headlineText(headline);
  return {
    figures: tiles.map((t) => ({
      label: t.label,
      value: t.value,
      ...(t.note !== undefined ? { note: t.note } : {}),
    })),
    ...(line ? { headline: line } : {}),
  };
}

/**
 * What every manifest opens with, whatever the run's end: the run, the job and its parameters
 * (destinations without secrets), its times, calls and credits.
 */
function manifestHead(job: JobIdentity, stats: RunStats, finishedAt: string) {
  return {
    runId: stats.runId,
    workflowId: stats.workflowId,
    job: { id: job.id, title: job.title, kind: job.kind },
    parameters: job.delivery ? { ...job, delivery: manifestDestinations(job.delivery) } : job,
    startedAt: stats.startedAt,
    finishedAt,
    durationMs: Date.parse(finishedAt) - Date.parse(stats.startedAt),
    calls: {
      total: stats.callsMade,
      byOperation: stats.callsByOperation,
      pages: stats.pages,
      records: stats.records,
      ...(stats.attempts ? { attempts: attemptsSummary(stats.attempts) } : {}),
    },
    credits: { charged: stats.creditsSpent, budget: stats.creditsBudget },
  };
}

/** A day-calls reservation of a run that ends before the day does is freed at its end; else after this. */
export const DAY_CALLS_TTL_MS = 24 * 3600_000;

/**
 * Creates the activities every job kind shares.
 *
 * @example
 * const acts = createRunActivities({ store: new LocalStore('.data/store'), reportsDir: '.data/reports' });
 */
export function createRunActivities(deps: RunActivityDeps) {
  const { store } = deps;
  const rootOf = (destination: string | undefined) =>
    destinationRoot(destination, deps.reportsDir, deps.destinationRoots);
  return {
    /** Keys of the first `n` distinct records of stored pages (the service's order). */
    async selectTop(input: SelectTopInput): Promise<string[]> {
      const keys = new Set<string>();
      for (const ref of input.refs) {
        for (const key of pageKeys(await store.getJson<StoredCall>(ref))) {
          keys.add(key);
          if (keys.size >= input.n) return [...keys];
        }
      }
      return [...keys];
    },

    /**
     * Reserves the calls a run is about to make of the service's day, across every run of the
     * account. Null: granted (or no account link); else when to ask again (the day's end).
     */
    async reserveDayCalls(input: {
      runId: string;
      calls: number;
    }): Promise<{ retryAt: string; left: number } | null> {
      if (!deps.account || input.calls <= 0) return null;
      const d = await deps.account.reserveDayCalls({
        runId: input.runId,
        calls: input.calls,
        ttlMs: DAY_CALLS_TTL_MS,
      });
      return d.granted ? null : { retryAt: new Date(d.retryAt).toISOString(), left: d.left };
    },

    /** Frees what is left of a run's reservation of the day's calls (the run ended). */
    async releaseDayCalls(input: { runId: string }): Promise<void> {
      await deps.account?.releaseDayCalls(input.runId);
    },

    /** Records in the account's ledger what a paid call of unknown outcome cost, once the balance showed it. */
    async settleAccountCredits(input: {
      reservationId: string;
      jobId: string;
      credits: number;
      /** The balance read after the call (null: not read). */
      remaining?: number | null;
    }): Promise<void> {
      await deps.account?.settleCredits({
        id: input.reservationId,
        jobId: input.jobId,
        credits: input.credits,
        remaining: input.remaining ?? null,
      });
    },

    /**
     * The account's balance when a paid call's reservation was granted: paid calls of the account
     * go one at a time, so the balance then less the balance now is what that call cost, whatever
     * other runs of the account did before. Null when the ledger did not know it.
     */
    async reservationBalance(input: { reservationId: string }): Promise<number | null> {
      return (await deps.account?.reservationBalance(input.reservationId)) ?? null;
    },

    /** The balance of a stored my_account call whose envelope did not carry credits.remaining. */
    async readAccountBalance(input: { ref: StoreRef }): Promise<number | null> {
      const call = await store.getJson<StoredCall<'my_account'>>(input.ref);
      return readAccount(call.result).balance;
    },

    /** The run's output folder: <destination>/<job>/<date>[_n]/, the same one again for a retry. */
    async prepareOutputFolder(input: OutputFolderInput): Promise<string> {
      return outputFolder(rootOf(input.job.destination), input.job.id, input.date, input.workflowId);
    },

    /** The store reference of the previous run's snapshot of a job, or null on a first run. */
    async previousSnapshot(input: { jobId: string }): Promise<StoreRef | null> {
      const ref = snapshotRefOf(input.jobId);
      return (await store.getJson(ref).then(
        () => true,
        () => false,
      ))
        ? ref
        : null;
    },

    /**
     * Writes the manifest of a run that failed, saying why (`status: failed`, `failure`: the root
     * cause), where its files would have gone: its output folder (the one it already has, else a
     * free one), or beside its files in a store that keeps them (S3). Commits no snapshot and
     * delivers nothing. Null when the job's destination itself is refused (the failure says so).
     */
    async recordFailedRun(input: FailedRunInput): Promise<{ manifestPath: string | null }> {
      const { stats, job } = input;
      const manifest = {
        ...manifestHead(job, stats, input.finishedAt),
        status: 'failed',
        failure: input.failure,
        reasons: stats.reasons,
        files: [],
      };
      const files = store.files;
      if (files) {
        const ref = `${reportsRefOf(stats.workflowId)}/manifest.json`;
        await files.putBytes(ref, `${JSON.stringify(manifest, null, 2)}\n`, 'application/json');
        return { manifestPath: files.urlOf(ref) };
      }
      let root: string;
      try {
        root = rootOf(job.destination);
      } catch {
        return { manifestPath: null };
      }
      const outDir = await outputFolder(root, job.id, input.date, stats.workflowId);
      const manifestPath = join(outDir, 'manifest.json');
      await writeJsonAtomic(manifestPath, manifest, true);
      return { manifestPath };
    },

    /** Writes the manifest beside the files and makes this run the one the next run compares with. */
    async finalizeRun(input: FinalizeInput): Promise<FinalizeOutput> {
      const { stats, render, job } = input;
      const manifest = {
        ...manifestHead(job, stats, input.finishedAt),
        status: stats.partial ? 'partial' : 'complete',
        reasons: stats.reasons,
        files: Object.values(render.files).map((f) => f.slice(render.outDir.length + 1)),
        charts: render.charts,
        pages: render.pages,
        notProvided: render.notProvided ?? [],
        urlsLeftOut: render.urlsLeftOut ?? 0,
        ...(render.figures || render.headline
          ? { summary: { headline: render.headline ?? null, figures: render.figures ?? [] } }
          : {}),
      };
      if (job.delivery && job.delivery.length > 0) {
        await store.putJsonAt(destinationsRef(stats.workflowId), job.delivery);
      }
      // A render kept in the store (S3): the manifest goes beside its files there, and says
      // where each file is. Else beside the files in the output folder.
      const files = store.files;
      const folderRef = files?.refOf(render.outDir) ?? null;
      let manifestPath: string;
      if (files && folderRef !== null) {
        const ref = `${folderRef}/manifest.json`;
        const locations = Object.fromEntries(
          manifest.files.map((n) => [n, files.urlOf(`${folderRef}/${n}`)]),
        );
        const text = `${JSON.stringify({ ...manifest, locations }, null, 2)}\n`;
        await files.putBytes(ref, text, 'application/json');
        manifestPath = files.urlOf(ref);
      } else {
        manifestPath = join(render.outDir, 'manifest.json');
        await writeJsonAtomic(manifestPath, manifest, true);
      }
      if (input.snapshotRef !== null) {
        await store.putJsonAt(snapshotRefOf(job.id), await store.getJson(input.snapshotRef));
      }
      // The run makes no more calls: what it reserved of the service's day is free for others.
      if (input.releaseDayCalls) await deps.account?.releaseDayCalls(stats.workflowId);
      return { manifestPath };
    },
  };
}

export type RunActivities = ReturnType<typeof createRunActivities>;
