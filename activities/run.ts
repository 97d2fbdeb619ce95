/**
 * The activities every job kind shares on the jobs task queue: the first records of stored
 * pages, the account's balance, the run's output folder, the previous run's snapshot, and the
 * manifest written when a run ends (which also makes the run the one the next compares with).
 */
import { join } from 'node:path';
import { readAccount } from '../api/read-account.js';
import { recordKey } from '../api/read-keys.js';
import { readPage } from '../api/read-page.js';
import { writeJsonAtomic } from '../lib/files.js';
import { safeFileName } from '../lib/names.js';
import { headlineText } from '../reports/format.js';
import type { AccountLink } from './account.js';
import { destinationsRef, manifestDestinations } from './delivery/deliver.js';
import type { DeliveryFigure } from '../shared/delivery.js';
import type { Store } from './store.js';
import {
  destinationRoot,
  outputFolder,
  renderedFileNames,
  reportsRefOf,
  writeManifestBeside,
} from './render-files.js';
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
        files: renderedFileNames(render),
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
      const manifestPath = await writeManifestBeside(store, render.outDir, manifest);
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
