/**
 * The investor shortlist's own activities on the jobs task queue: the account's plan (a free
 * plan allows one find_investors run), and the report's model built from each company's list,
 * the profiles of its top investors and the job's last run (investors new since it marked).
 */
import { join } from 'node:path';
import { readPreviousSnapshot, runOpening } from '../../activities/run.js';
import { renderInto } from '../../activities/render-files.js';
import { SourceBook } from '../../activities/sources.js';
import { runOfRef } from '../../reports/sources.js';
import type { RenderOutput, StoredCall, StoreRef } from '../../shared/types.js';
import { readAccount } from '../../api/read-account.js';
import { stageLabel } from '../../reports/editorial.js';
import type { KindActivityDeps } from '../kind.js';
import {
  asShortlistSnapshot,
  markNew,
  nextShortlist,
  sharedInvestors,
  type ShortlistInvestor,
} from './changes.js';
import type { InvestorShortlistJob } from './job.js';
import { chartsOf, enrichInvestor, readInvestorList } from './read.js';
import {
  openingFigures,
  openingHeadline,
  renderShortlistCharts,
  writeShortlistReport,
  writeShortlistWorkbook,
} from './report/index.js';
import type { CompanySection, ShortlistReport } from './types.js';

export interface BuildShortlistInput {
  runKey: string;
  job: Pick<InvestorShortlistJob, 'id' | 'title' | 'companies' | 'budget'>;
  date: string;
  /** Each company's stored find_investors answer (null: not asked, or failed: `problem` says why). */
  companies: { name: string; ref: StoreRef | null; charged: number; problem: string | null }[];
  /** The stored get_investor answers of the companies' top investors. */
  profiles: { key: string; ref: StoreRef | null }[];
  creditsSpent: number;
  planNote: string | null;
}

/** What the job asked for a company, in words. */
function askedOf(c: InvestorShortlistJob['companies'][number]): string {
  return [
    c.website ?? (c.description ? `"${c.description}"` : null),
    c.raising_stage ? `raising ${stageLabel(c.raising_stage)}` : null,
    c.investor_countries
      ? `investors in ${c.investor_countries.join(', ')}`
      : c.investor_region
        ? `investors in ${c.investor_region}`
        : null,
    c.sector ?? null,
  ]
    .filter((x): x is string => x !== null)
    .join(' · ');
}

/**
 * Creates the investor shortlist's activities.
 *
 * @example
 * const acts = createInvestorShortlistActivities({ store: new LocalStore('.data/store'), reportsDir: '.data/reports' });
 */
export function createInvestorShortlistActivities(deps: KindActivityDeps) {
  const { store } = deps;
  return {
    /** The account's plan from a stored my_account answer (`free`, `paid`, or null when not said). */
    async readAccountPlan(input: { ref: StoreRef }): Promise<string | null> {
      const call = await store.getJson<StoredCall<'my_account'>>(input.ref);
      return readAccount(call.result).plan?.toLowerCase() ?? null;
    },

    /** Builds the report's model and the snapshot the next run marks new investors against. */
    async buildShortlist(
      input: BuildShortlistInput,
    ): Promise<{ reportRef: StoreRef; snapshotRef: StoreRef; baseline: boolean }> {
      const previous = asShortlistSnapshot(await readPreviousSnapshot(store, input.job.id), input.job.id);
      // The answers' ids in a fixed order whatever the order of the reads: each company's list in
      // the job's order, then the profiles as asked (the same ids on a retry).
      const book = new SourceBook(store);
      for (const c of input.companies) if (c.ref !== null) book.idOf(c.ref);
      for (const p of input.profiles) if (p.ref !== null) book.idOf(p.ref);
      const profiles = new Map<string, { data: unknown; source: string }>();
      for (const p of input.profiles) {
        if (p.ref === null) continue;
        const { call, source } = await book.read(p.ref);
        profiles.set(p.key, { data: call.result.data, source });
      }
      const listSources = new Map<string, string>();
      const lists = new Map<string, ShortlistInvestor[]>();
      const sections: CompanySection[] = [];
      for (const [i, c] of input.companies.entries()) {
        const asked = askedOf(input.job.companies[i]!);
        const website = input.job.companies[i]?.website ?? null;
        if (c.ref === null) {
          sections.push({
            name: c.name,
            website,
            asked,
            readAs: null,
            investors: [],
            charts: [],
            reportUrl: null,
            charged: c.charged,
            problem: c.problem,
            newCount: 0,
          });
          continue;
        }
        const { call, source } = await book.read(c.ref);
        listSources.set(c.name, source);
        const list = readInvestorList(call.result.data);
        const marked = markNew(
          previous,
          c.name,
          list.rows.map((r) => ({ key: r.key, name: r.name, fitPct: r.fitPct })),
        );
        const investors = list.rows.map((r, n) => {
          const profile = profiles.get(r.key);
          const row = { ...r, isNew: marked[n]!.isNew };
          const read = profile === undefined ? row : enrichInvestor(row, profile.data);
          // Its list, and the profile when that enriched it.
          return { ...read, sources: read.enriched && profile ? [source, profile.source] : [source] };
        });
        lists.set(
          c.name,
          list.rows.map((r) => ({ key: r.key, name: r.name, fitPct: r.fitPct })),
        );
        sections.push({
          name: c.name,
          website,
          asked,
          readAs: list.readAs,
          investors,
          charts: chartsOf(call.result.charts),
          reportUrl: typeof call.result.url === 'string' ? call.result.url : null,
          charged: c.charged,
          problem: c.problem,
          newCount: investors.filter((r) => r.isNew).length,
          source,
        });
      }
      const report: ShortlistReport = {
        job: { id: input.job.id, title: input.job.title },
        date: input.date,
        baseline: previous === null,
        companies: sections,
        shared: sharedInvestors(lists).map((s) => ({
          ...s,
          sources: s.companies.flatMap((n) => {
            const id = listSources.get(n);
            return id ? [id] : [];
          }),
        })),
        planNote: input.planNote,
        credits: { spent: input.creditsSpent, budget: input.job.budget.credits },
        sources: book.rows(),
      };
      return {
        reportRef: await store.putJson(input.runKey, 'shortlist/report', report),
        snapshotRef: await store.putJson(
          input.runKey,
          'shortlist/snapshot',
          nextShortlist(previous, input.job.id, input.date, lists),
        ),
        baseline: report.baseline,
      };
    },

    /**
     * Writes the PDF and the workbook into <destination>/<job>/<date>/; returns, whatever the
     * outputs, the key figures and the headline the shortlist opens with.
     */
    async renderShortlist(input: {
      reportRef: StoreRef;
      job: Pick<InvestorShortlistJob, 'id' | 'destination' | 'outputs'> & {
        /** The charts also as pictures in the workbook (the job's `chartImages`). */
        chartImages?: boolean;
      };
      date: string;
      workflowId: string;
    }): Promise<RenderOutput> {
      const report = await store.getJson<ShortlistReport>(input.reportRef);
      // The run that made the report (its store folder), named where the report kept no sources.
      const runKey = runOfRef(input.reportRef);
      const named = runKey ? { runKey } : {};
      return renderInto(deps, input, async ({ outDir, fileBase }) => {
        const charts = await renderShortlistCharts(report);
        const files: Record<string, string> = {};
        let pages: number | null = null;
        let urlsLeftOut = 0;
        if (input.job.outputs.includes('pdf')) {
          files.pdf = join(outDir, `${fileBase}.pdf`);
          pages = (
            await writeShortlistReport(report, files.pdf, charts, {
              links: deps.serviceLinks ?? null,
              ...named,
            })
          ).pages;
        }
        if (input.job.outputs.includes('xlsx')) {
          files.xlsx = join(outDir, `${fileBase}.xlsx`);
          urlsLeftOut = (
            await writeShortlistWorkbook(report, files.xlsx, charts, {
              links: deps.serviceLinks ?? null,
              chartImages: input.job.chartImages === true,
              ...named,
            })
          ).urlsLeftOut;
        }
        return {
          files,
          charts: charts.filter((c) => c.rendered !== null).length,
          pages,
          notProvided: [],
          urlsLeftOut,
          ...runOpening(openingFigures(report), openingHeadline(report)),
        };
      });
    },
  };
}

export type InvestorShortlistActivities = ReturnType<typeof createInvestorShortlistActivities>;
