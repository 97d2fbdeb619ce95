/**
 * Activities of the jobs task queue that touch the store and the file system: choosing the
 * top records, building the report model, rendering, and writing the manifest and snapshot.
 */
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { renderMarketReport as renderMarket } from '../reports/market/index.js';
import { safeFileName } from '../reports/index.js';
import {
  compare,
  readAnswers,
  readCountry,
  snapshotOf,
  type RunSnapshot,
  type StoredCall,
} from './market-data.js';
import { toMarketReportModel } from './market-model.js';
import type { Store } from './store.js';
import type {
  BuildModelInput,
  BuildModelOutput,
  FinalizeInput,
  FinalizeOutput,
  RenderInput,
  RenderOutput,
  SelectTopInput,
  StoreRef,
} from './types.js';

const SNAPSHOT = (jobId: string) => `snapshots/${safeFileName(jobId)}/latest.json`;

async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(value, null, 2));
  await rename(tmp, path);
}

/** Picks a free output folder: <root>/<job>/<date>, or <date>_2, <date>_3... when another run used it. */
async function outputFolder(root: string, jobId: string, date: string, workflowId: string): Promise<string> {
  const base = join(root, safeFileName(jobId), safeFileName(date));
  for (let i = 1; i < 1000; i++) {
    const dir = i === 1 ? base : `${base}_${i}`;
    try {
      const marker = JSON.parse(await readFile(join(dir, '.run.json'), 'utf8')) as { workflowId?: string };
      if (marker.workflowId === workflowId) return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        const entries = await readdir(dir).catch(() => null);
        if (entries === null || entries.length === 0) {
          await mkdir(dir, { recursive: true });
          await writeFile(join(dir, '.run.json'), JSON.stringify({ workflowId }));
          return dir;
        }
      } else {
        throw err;
      }
    }
  }
  throw new Error(`no free output folder under ${base}`);
}

/**
 * Creates the store and report activities.
 *
 * @example
 * const acts = createReportActivities({ store: new LocalStore('.vir/store'), reportsDir: 'reports' });
 */
export function createReportActivities(deps: { store: Store; reportsDir: string }) {
  const { store } = deps;
  const rootOf = (destination: string | undefined) => {
    const d = destination ?? deps.reportsDir;
    return isAbsolute(d) ? d : resolve(d);
  };
  return {
    /** Keys of the first `n` distinct records of stored search pages (the service's order). */
    async selectTop(input: SelectTopInput): Promise<string[]> {
      const keys = new Set<string>();
      for (const ref of input.refs) {
        const call = await store.getJson<StoredCall>(ref);
        const data = call.result.data ?? {};
        const arr = (data.investors ?? data.startups ?? []) as { key?: unknown }[];
        for (const it of arr) {
          if (typeof it?.key === 'string') keys.add(it.key);
          if (keys.size >= input.n) return [...keys];
        }
      }
      return [...keys];
    },

    /** The balance of a stored my_account call whose envelope did not carry credits.remaining. */
    async readAccountBalance(input: { ref: StoreRef }): Promise<number | null> {
      const call = await store.getJson<StoredCall>(input.ref);
      const d = call.result.data ?? {};
      return typeof d.credits_balance === 'number'
        ? d.credits_balance
        : (call.result.credits?.remaining ?? null);
    },

    /** Reads everything the run stored, compares with the previous run, writes the model. */
    async buildMarketModel(input: BuildModelInput): Promise<BuildModelOutput> {
      const countries = [];
      for (const c of input.countries) countries.push(await readCountry(store, c));
      const answers = await readAnswers(store, input.answers);
      const previous = await store.getJson<RunSnapshot>(SNAPSHOT(input.job.id)).catch(() => null);
      const asOf =
        countries.map((c) => c.overview?.as_of).find((d): d is string => typeof d === 'string') ??
        input.stats.startedAt.slice(0, 10);
      const comparisons = compare(countries, previous, input.job.top);
      const model = toMarketReportModel({
        job: input.job,
        countries,
        answers,
        comparisons,
        previous,
        stats: input.stats,
        asOf,
      });
      const modelRef = await store.putJson(input.runKey, 'report/model', model);
      const snapshot = snapshotOf(
        input.job.id,
        input.stats.workflowId,
        input.stats.startedAt,
        countries,
        input.job.top,
      );
      const snapshotRef = await store.putJson(input.runKey, 'report/snapshot', snapshot);
      return { modelRef, snapshotRef, asOf };
    },

    /** Renders the workbook and the PDF into <destination>/<job>/<date>/. */
    async renderMarketReport(input: RenderInput): Promise<RenderOutput> {
      const model = await store.getJson<Parameters<typeof renderMarket>[0]>(input.modelRef);
      const outDir = await outputFolder(
        rootOf(input.job.destination),
        input.job.id,
        input.date,
        input.workflowId,
      );
      const fileBase = safeFileName(`${input.job.id}-${input.date}`);
      const res = await renderMarket(model, { outDir, formats: input.job.outputs, fileBase });
      return { outDir, files: res.files, charts: res.charts, pages: res.pages ?? null };
    },

    /** Writes the manifest beside the files and makes this run the one the next run compares with. */
    async finalizeRun(input: FinalizeInput): Promise<FinalizeOutput> {
      const { stats, render, job } = input;
      const manifest = {
        runId: stats.runId,
        workflowId: stats.workflowId,
        job: { id: job.id, title: job.title, kind: job.kind },
        parameters: job,
        startedAt: stats.startedAt,
        finishedAt: input.finishedAt,
        durationMs: Date.parse(input.finishedAt) - Date.parse(stats.startedAt),
        calls: {
          total: stats.callsMade,
          byOperation: stats.callsByOperation,
          pages: stats.pages,
          records: stats.records,
        },
        credits: { charged: stats.creditsSpent, budget: stats.creditsBudget },
        status: stats.partial ? 'partial' : 'complete',
        reasons: stats.reasons,
        files: Object.values(render.files).map((f) => f.slice(render.outDir.length + 1)),
        charts: render.charts,
        pages: render.pages,
      };
      const manifestPath = join(render.outDir, 'manifest.json');
      await writeJsonAtomic(manifestPath, manifest);
      const snapshot = await store.getJson<RunSnapshot>(input.snapshotRef);
      const snapPath = store.pathOf(SNAPSHOT(job.id));
      await mkdir(resolve(snapPath, '..'), { recursive: true });
      await writeJsonAtomic(snapPath, snapshot);
      return { manifestPath };
    },
  };
}

export type ReportActivities = ReturnType<typeof createReportActivities>;
