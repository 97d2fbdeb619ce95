/**
 * The prospect list's own activities on the jobs task queue: merging the sources under the rules
 * (suppression list, net-new), finishing the list with the enrichment and its summary, and
 * writing the CSV files, the workbook and the brief.
 */
import { basename, join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { readPreviousSnapshot, runOpening } from '../../activities/run.js';
import { renderInto } from '../../activities/render-files.js';
import { SourceBook } from '../../activities/sources.js';
import type { RenderOutput, RunStats, SourceRow, StoreRef } from '../../shared/types.js';
import { absentFields } from '../../api/read.js';
import { readPage } from '../../api/read-page.js';
import { STARTUP_FIELDS } from '../../api/read-records.js';
import type { KindActivityDeps } from '../kind.js';
import { putChunk, putChunks, readChunks } from './chunks.js';
import { raisedSince, type ProspectListJob } from './job.js';
import { ProspectMerger, SearchOrder } from './merge.js';
import { writeProspectCsvs } from './csv.js';
import { asDeliveredSnapshot, applyRules, enrichRow, nextSnapshot } from './rules.js';
import { readSuppressionList, SuppressionFileError, type SuppressionList } from './suppression.js';
import { ListTally } from './tally.js';
import type {
  BriefSource,
  ProspectListRefs,
  ProspectRow,
  ProspectSummary,
  SearchSource,
  SuppressedRow,
} from './types.js';
import {
  openingFigures,
  openingHeadline,
  renderProspectCharts,
  writeProspectBrief,
  writeProspectWorkbook,
} from './report/index.js';
import { capSentence } from './report/text.js';

/** Rows of the summary's top list (the brief's table). */
export const TOP_ROWS = 25;

export interface MergeInput {
  runKey: string;
  job: ProspectListJob;
  /**
   * The run's date (YYYY-MM-DD), from which `raisedWithin` counts back; absent in inputs
   * recorded before it was added (then today's date, UTC).
   */
  date?: string;
  /** Each brief's stored find_customers answer (null: not asked or failed). */
  briefs: { label: string; ref: StoreRef | null }[];
  /** Each search's stored pages. */
  searches: { label: string; refs: StoreRef[] }[];
}

export interface MergeOutput {
  rowChunks: StoreRef[];
  suppressedChunks: StoreRef[];
  /** Keys of the top rows to enrich, in list order. */
  enrichKeys: string[];
  /** Customers each brief returned (in the order of `briefs`). */
  briefReturned: number[];
  /** The order each search's rows came in (in the order of `searches`; see `SearchSource.order`). */
  searchOrders?: (string | null)[];
  /** The first day a last round counts as recent under `raisedWithin`; null: no such rule. */
  raisedSince?: string | null;
  counts: Pick<
    ProspectSummary['counts'],
    | 'merged'
    | 'listed'
    | 'sourceRecords'
    | 'suppressedByDomain'
    | 'suppressedByName'
    | 'suppressedDelivered'
    | 'markedDelivered'
    | 'leftOutClosed'
    | 'leftOutAcquired'
    | 'leftOutRaisedBefore'
    | 'leftOutNoRoundDate'
    | 'flaggedClosed'
  >;
  suppression: ProspectSummary['suppression'];
  notProvided: string[];
  /**
   * The stored answers the merge read, numbered (a `MergeSources` document); absent in merges
   * made before sources were kept.
   */
  sourcesRef?: StoreRef;
}

/**
 * The stored answers a merge read, as ids the finished list goes on from: every answer (the
 * briefs' in order, then each search's pages), and the ids of each brief's and each search's.
 */
export interface MergeSources {
  sources: SourceRow[];
  /** Ids of each brief's answer (in the order of `MergeInput.briefs`; empty when not asked). */
  briefs: string[][];
  /** Ids of each search's pages (in the order of `MergeInput.searches`). */
  searches: string[][];
}

export interface FinishInput {
  runKey: string;
  job: ProspectListJob;
  date: string;
  merged: MergeOutput;
  /** The stored get_startup answer of each enriched key (null: the call failed). */
  enrichment: { key: string; ref: StoreRef | null }[];
  briefs: BriefSource[];
  searches: SearchSource[];
  limits: string[];
  stats: RunStats;
}

export interface FinishOutput extends ProspectListRefs {
  snapshotRef: StoreRef;
  listed: number;
  netNew: number;
}

export interface RenderListInput {
  refs: ProspectListRefs;
  job: Pick<ProspectListJob, 'id' | 'destination' | 'outputs' | 'crm'>;
  date: string;
  workflowId: string;
}

/** Reads the suppression list; an unreadable file fails the run, naming the file and the line. */
async function suppressionOf(job: ProspectListJob): Promise<SuppressionList | null> {
  if (!job.suppress) return null;
  try {
    return await readSuppressionList(job.suppress);
  } catch (err) {
    if (err instanceof SuppressionFileError) {
      throw ApplicationFailure.create({
        message: err.message,
        type: 'suppression_list_unreadable',
        nonRetryable: true,
      });
    }
    throw err;
  }
}

/**
 * Creates the prospect list's activities.
 *
 * @example
 * const acts = createProspectListActivities({ store: new LocalStore('.data/store'), reportsDir: '.data/reports' });
 */
export function createProspectListActivities(deps: KindActivityDeps) {
  const { store } = deps;
  return {
    /**
     * Merges the briefs' customers and the searches' rows into one row per company, leaves out
     * what the suppression list and the net-new rule say, ranks the rest and stores it in chunks.
     */
    async mergeProspects(input: MergeInput): Promise<MergeOutput> {
      const { job } = input;
      const suppression = await suppressionOf(job);
      const merger = new ProspectMerger();
      // Every answer read gets its source id (S1, S2, ... in the order read: the briefs, then
      // each search's pages), which each row it gives keeps.
      const book = new SourceBook(store);
      const ids: Pick<MergeSources, 'briefs' | 'searches'> = { briefs: [], searches: [] };
      const briefReturned: number[] = [];
      const searchItems: unknown[] = [];
      for (const brief of input.briefs) {
        if (brief.ref === null) {
          briefReturned.push(0);
          ids.briefs.push([]);
          continue;
        }
        const { call, source } = await book.read(brief.ref);
        const items = readPage('find_customers', call.result.data).items;
        briefReturned.push(items.length);
        ids.briefs.push([source]);
        for (const item of items) merger.add(item, brief.label, true, source);
      }
      const searchOrders: (string | null)[] = [];
      for (const search of input.searches) {
        const order = new SearchOrder();
        const pages: string[] = [];
        for (const ref of search.refs) {
          const { call, source } = await book.read(ref);
          const items = readPage('search_startups', call.result.data).items;
          pages.push(source);
          order.page(call.result.data, items);
          if (searchItems.length < 200) searchItems.push(...items.slice(0, 200 - searchItems.length));
          for (const item of items) merger.add(item, search.label, false, source);
        }
        ids.searches.push(pages);
        searchOrders.push(order.result());
      }
      const mergeSources: MergeSources = { sources: book.rows(), ...ids };
      const previous = asDeliveredSnapshot(await readPreviousSnapshot(store, job.id), job.id);
      const date = input.date ?? new Date().toISOString().slice(0, 10);
      const since = job.raisedWithin ? raisedSince(date, job.raisedWithin) : null;
      const missing = absentFields(searchItems, STARTUP_FIELDS).filter((f) => f !== 'url');
      // A service that gives no last round date at all: raisedWithin cannot judge, so it leaves
      // no one out for want of a date, and the report says so.
      const undated = since !== null && missing.includes('last_round_date');
      const ruled = applyRules(merger.ordered(), suppression, previous, job.delivered, {
        keepClosed: job.keepClosed ?? false,
        raisedSince: since,
        keepUndated: undated,
      });
      const enrichKeys = ruled.listed
        .slice(0, job.enrich)
        .map((r) => r.key)
        .filter((k): k is string => k !== null);
      return {
        rowChunks: await putChunks(store, input.runKey, 'list/merged', ruled.listed),
        suppressedChunks: await putChunks(store, input.runKey, 'list/suppressed', ruled.suppressed),
        sourcesRef: await store.putJson(input.runKey, 'list/merge-sources', mergeSources),
        enrichKeys,
        briefReturned,
        searchOrders,
        raisedSince: since,
        counts: {
          merged: merger.size,
          listed: ruled.listed.length,
          sourceRecords: merger.counts.records,
          ...ruled.counts,
        },
        // The file's name only: the report goes to people who do not share the worker's folders.
        suppression: suppression && {
          file: basename(suppression.file),
          rows: suppression.rows,
          malformed: suppression.malformed,
          examples: suppression.examples.map((e) => `line ${e.line}: ${e.reason}`),
        },
        notProvided: [
          ...missing.map((f) => `search_startups: ${String(f)}`),
          ...(undated
            ? [
                `raisedWithin (${job.raisedWithin ?? ''}): not applied to companies without a last round date, which the service does not give`,
              ]
            : []),
        ],
      };
    },

    /**
     * Finishes the list: the top rows enriched from get_startup, the summary (counts, charts,
     * the top 25), and the snapshot of what this and every earlier run delivered.
     */
    async finishProspectList(input: FinishInput): Promise<FinishOutput> {
      const { job, merged } = input;
      // The merge's sources keep their ids; the profiles' go on after them. A merge made before
      // sources were kept (no `sourcesRef`) leaves the list without any.
      const mergeSources = merged.sourcesRef ? await store.getJson<MergeSources>(merged.sourcesRef) : null;
      const book = new SourceBook(store);
      for (const s of mergeSources?.sources ?? []) book.idOf(s.ref);
      const profiles = new Map<string, { data: unknown; source: string }>();
      for (const e of input.enrichment) {
        if (e.ref === null) continue;
        const { call, source } = await book.read(e.ref);
        profiles.set(e.key, { data: call.result.data, source });
      }
      const enrich = (row: ProspectRow): ProspectRow => {
        const profile = row.key !== null ? profiles.get(row.key) : undefined;
        if (profile === undefined) return row;
        const enriched = enrichRow(row, profile.data);
        if (enriched === row || mergeSources === null) return enriched;
        return { ...enriched, sourceIds: [...(row.sourceIds ?? []), profile.source] };
      };
      const tally = new ListTally();
      const top: ProspectRow[] = [];
      const rowChunks: StoreRef[] = [];
      const delivered: Pick<ProspectRow, 'key' | 'domain'>[] = [];
      let index = 0;
      for (const ref of merged.rowChunks) {
        const rows = (await store.getJson<ProspectRow[]>(ref)).map(enrich);
        for (const row of rows) {
          tally.add(row);
          if (top.length < TOP_ROWS) top.push(row);
          delivered.push({ key: row.key, domain: row.domain });
        }
        rowChunks.push(await putChunk(store, input.runKey, 'list/rows', index, rows));
        index += 1;
      }
      const previous = asDeliveredSnapshot(await readPreviousSnapshot(store, job.id), job.id);
      const snapshot = nextSnapshot(previous, job.id, input.date, delivered);
      // Each capped search says how its cap chose the rows (the service's order), in place of
      // the workflow's bare "stopped at its cap".
      const searches = input.searches.map((s, i) => ({ ...s, order: merged.searchOrders?.[i] ?? null }));
      const capped = searches.filter((s) => s.capped && s.problem === null);
      const limits = [
        ...capped.map(capSentence),
        ...input.limits.filter((l) => !capped.some((s) => l.startsWith(`${s.label} stopped at its cap`))),
      ];
      const summary: ProspectSummary = {
        job: {
          id: job.id,
          title: job.title,
          delivered: job.delivered,
          crm: job.crm,
          enrich: job.enrich,
          outputs: job.outputs,
          keepClosed: job.keepClosed ?? false,
          chartImages: job.chartImages ?? false,
          ...(job.raisedWithin ? { raisedWithin: job.raisedWithin } : {}),
        },
        raisedSince: merged.raisedSince ?? null,
        date: input.date,
        counts: {
          ...merged.counts,
          netNew: tally.netNew,
          scored: tally.scored,
          enriched: tally.enriched,
          enrichAsked: merged.enrichKeys.length,
        },
        briefs: input.briefs.map((b, i) =>
          mergeSources ? { ...b, sourceIds: mergeSources.briefs[i] ?? [] } : b,
        ),
        searches: searches.map((s, i) =>
          mergeSources ? { ...s, sourceIds: mergeSources.searches[i] ?? [] } : s,
        ),
        suppression: merged.suppression,
        limits,
        top,
        charts: tally.charts(),
        notProvided: merged.notProvided,
        stats: input.stats,
        ...(mergeSources ? { sources: [...mergeSources.sources, ...book.rows()] } : {}),
      };
      return {
        summaryRef: await store.putJson(input.runKey, 'list/summary', summary),
        rowChunks,
        suppressedChunks: merged.suppressedChunks,
        snapshotRef: await store.putJson(input.runKey, 'list/snapshot', snapshot),
        listed: tally.rows,
        netNew: tally.netNew,
      };
    },

    /**
     * Writes the CSV files (one or numbered files per CRM profile), the workbook and the brief;
     * returns, whatever the outputs, the key figures and the headline the brief opens with.
     */
    async renderProspectList(input: RenderListInput): Promise<RenderOutput> {
      const summary = await store.getJson<ProspectSummary>(input.refs.summaryRef);
      return renderInto(deps, input, async ({ outDir, fileBase }) => {
        const rows = () => readChunks<ProspectRow>(store, input.refs.rowChunks);
        const suppressed = () => readChunks<SuppressedRow>(store, input.refs.suppressedChunks);
        const files: Record<string, string> = {};
        let pages: number | null = null;
        let urlsLeftOut = 0;
        if (input.job.outputs.includes('csv')) {
          const written = await writeProspectCsvs(rows(), input.job.crm, outDir, fileBase, deps.serviceLinks);
          for (const profile of input.job.crm) {
            urlsLeftOut += written[profile]?.urlsLeftOut ?? 0;
            const list = written[profile]?.files ?? [];
            list.forEach((f, i) => {
              files[list.length === 1 ? `csv-${profile}` : `csv-${profile}-${i + 1}`] = f;
            });
          }
        }
        // The charts are rendered once, for the workbook and the brief alike.
        const needCharts = input.job.outputs.includes('xlsx') || input.job.outputs.includes('pdf');
        const rendered = needCharts ? await renderProspectCharts(summary) : [];
        const charts = rendered.filter((c) => c.rendered !== null).length;
        if (input.job.outputs.includes('xlsx')) {
          const path = join(outDir, `${fileBase}.xlsx`);
          urlsLeftOut += (
            await writeProspectWorkbook(summary, rows(), suppressed(), path, rendered, {
              links: deps.serviceLinks,
              runKey: input.workflowId,
            })
          ).urlsLeftOut;
          files.xlsx = path;
        }
        if (input.job.outputs.includes('pdf')) {
          const path = join(outDir, `${fileBase}.pdf`);
          pages = (
            await writeProspectBrief(summary, path, rendered, {
              links: deps.serviceLinks,
              runKey: input.workflowId,
            })
          ).pages;
          files.pdf = path;
        }
        return {
          files,
          charts,
          pages,
          notProvided: summary.notProvided,
          urlsLeftOut,
          ...runOpening(openingFigures(summary), openingHeadline(summary)),
        };
      });
    },
  };
}

export type ProspectListActivities = ReturnType<typeof createProspectListActivities>;
