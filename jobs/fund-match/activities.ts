/**
 * The fund match's own activities on the jobs task queue: which profiles a run reads (the batch's
 * and the watchlist's), and the digest built from the batch, the profiles and the job's history
 * (the history after the run is its snapshot, committed when the run finishes).
 */
import { ApplicationFailure } from '@temporalio/common';
import { join } from 'node:path';
import { readPreviousSnapshot, runOpening } from '../../activities/run.js';
import { renderInto } from '../../activities/render-files.js';
import { SourceBook } from '../../activities/sources.js';
import { runOfRef } from '../../reports/sources.js';
import type { RenderOutput, StoredCall, StoreRef } from '../../shared/types.js';
import { readProfile, readStartupPeople } from '../../api/read-profiles.js';
import type { KindActivityDeps } from '../kind.js';
import { buildDigest, type FundDigest } from './digest.js';
import { asMatchHistory, compareBatch, nextHistory, type ProfileState } from './history.js';
import type { FundMatchJob } from './job.js';
import { profilesToRead } from './plan.js';
import { readBatch, readProfileState } from './read.js';
import {
  openingFigures,
  openingHeadline,
  renderFundCharts,
  writeFundDigest,
  writeFundWorkbook,
} from './report/index.js';

export interface PlanProfilesInput {
  job: Pick<FundMatchJob, 'id' | 'watchlist'>;
  batchRef: StoreRef;
}

export interface BuildDigestInput {
  runKey: string;
  job: Pick<FundMatchJob, 'id' | 'title' | 'enrichNew'>;
  date: string;
  workflowId: string;
  batchRef: StoreRef;
  /** The stored get_startup answer of each profile read (null: the call failed). */
  profiles: { key: string; ref: StoreRef | null }[];
}

export interface RenderDigestInput {
  digestRef: StoreRef;
  job: Pick<FundMatchJob, 'id' | 'destination' | 'outputs' | 'digestWhenQuiet'> & {
    /** The charts also as pictures in the workbook (the job's `chartImages`). */
    chartImages?: boolean;
  };
  date: string;
  workflowId: string;
}

export interface BuildDigestOutput {
  digestRef: StoreRef;
  /** The job's history after this run: the next run compares with it. */
  snapshotRef: StoreRef;
  baseline: boolean;
  quiet: boolean;
  counts: { batch: number; new: number; changed: number; dropped: number; events: number };
}

/**
 * Creates the fund match's activities.
 *
 * @example
 * const acts = createFundMatchActivities({ store: new LocalStore('.data/store'), reportsDir: '.data/reports' });
 */
export function createFundMatchActivities(deps: KindActivityDeps) {
  const { store } = deps;
  /** The batch of a stored answer (read through `book` when given: it then has a source id). */
  const batchOf = async (ref: StoreRef, book?: SourceBook) => {
    const call = book ? (await book.read(ref)).call : await store.getJson<StoredCall>(ref);
    const batch = readBatch(call.result.data);
    if (batch.startups.length === 0) {
      throw ApplicationFailure.create({
        message:
          'find_startups_for_fund gave no startups the runner could read (no list of startups with keys)',
        type: 'unreadable_batch',
        nonRetryable: true,
      });
    }
    return batch;
  };
  return {
    /** The startups whose profile the run reads: the batch's, then the watchlist's past matches. */
    async planFundProfiles(input: PlanProfilesInput): Promise<{ keys: string[]; batch: number }> {
      const batch = await batchOf(input.batchRef);
      const history = asMatchHistory(await readPreviousSnapshot(store, input.job.id), input.job.id);
      const keys = batch.startups.map((s) => s.key);
      return {
        keys: profilesToRead(keys, Object.values(history?.startups ?? {}), input.job.watchlist),
        batch: keys.length,
      };
    },

    /** Compares the batch with the job's history and writes the digest's model and the next history. */
    async buildFundDigest(input: BuildDigestInput): Promise<BuildDigestOutput> {
      // The answers through one book, in a fixed order (the batch S1, then the profiles in the
      // order asked): the same ids on a retry.
      const book = new SourceBook(store);
      const batch = await batchOf(input.batchRef, book);
      const batchSource = book.idOf(input.batchRef);
      const previous = asMatchHistory(await readPreviousSnapshot(store, input.job.id), input.job.id);
      const states = new Map<string, ProfileState>();
      const people = new Map<string, { founders: string[]; investors: string[] }>();
      const profileSources = new Map<string, string>();
      for (const p of input.profiles) {
        if (p.ref === null) continue;
        const { call, source } = await book.read(p.ref);
        profileSources.set(p.key, source);
        const data = call.result.data;
        const state = readProfileState(data);
        if (state) states.set(p.key, state);
        people.set(p.key, readStartupPeople(readProfile('startup', data)));
      }
      const changes = compareBatch(previous, batch.startups, states, batch.thesisStages);
      const history = nextHistory(
        previous,
        input.job.id,
        { run: changes.run, date: input.date, workflowId: input.workflowId },
        batch.startups,
        states,
      );
      const enrichment = new Map(
        changes.fresh.slice(0, input.job.enrichNew).flatMap((f) => {
          const p = people.get(f.key);
          return p ? [[f.key, p] as const] : [];
        }),
      );
      const digest = buildDigest({
        job: { id: input.job.id, title: input.job.title },
        date: input.date,
        fundName: batch.fundName,
        batch: batch.startups,
        changes,
        history,
        enrichment,
        sources: { rows: book.rows(), batch: batchSource, profiles: profileSources },
      });
      return {
        digestRef: await store.putJson(input.runKey, 'digest/model', digest),
        snapshotRef: await store.putJson(input.runKey, 'digest/history', history),
        baseline: digest.baseline,
        quiet: digest.quiet,
        counts: {
          batch: digest.counts.batch,
          new: digest.counts.new,
          changed: digest.counts.changed,
          dropped: digest.counts.dropped,
          events: digest.counts.events,
        },
      };
    },

    /**
     * Writes the digest PDF and the workbook into <destination>/<job>/<date>/. A quiet run (nothing
     * new, changed, dropped or watched) of a job with `digestWhenQuiet: false` writes the workbook only.
     * Whatever it writes, it returns the key figures and the headline the digest opens with.
     */
    async renderFundDigest(input: RenderDigestInput): Promise<RenderOutput> {
      const digest = await store.getJson<FundDigest>(input.digestRef);
      // The run that made the digest (its store folder), named where the digest kept no sources.
      const runKey = runOfRef(input.digestRef);
      const named = runKey ? { runKey } : {};
      return renderInto(deps, input, async ({ outDir, fileBase }) => {
        const charts = await renderFundCharts(digest);
        const files: Record<string, string> = {};
        let pages: number | null = null;
        let urlsLeftOut = 0;
        if (input.job.outputs.includes('xlsx')) {
          files.xlsx = join(outDir, `${fileBase}.xlsx`);
          urlsLeftOut = (
            await writeFundWorkbook(digest, files.xlsx, charts, {
              links: deps.serviceLinks ?? null,
              chartImages: input.job.chartImages === true,
              ...named,
            })
          ).urlsLeftOut;
        }
        if (input.job.outputs.includes('pdf') && (!digest.quiet || input.job.digestWhenQuiet)) {
          files.pdf = join(outDir, `${fileBase}.pdf`);
          pages = (
            await writeFundDigest(digest, files.pdf, charts, { links: deps.serviceLinks ?? null, ...named })
          ).pages;
        }
        return {
          files,
          charts: charts.filter((c) => c.rendered !== null).length,
          pages,
          notProvided: [],
          urlsLeftOut,
          ...runOpening(openingFigures(digest), openingHeadline(digest)),
        };
      });
    },
  };
}

export type FundMatchActivities = ReturnType<typeof createFundMatchActivities>;
