/**
 * The market report's own activities on the jobs task queue: the report model (with the
 * comparison to the previous run) and the rendered workbook and PDF.
 */
import { readPreviousSnapshot, runOpening } from '../../activities/run.js';
import { SourceBook } from '../../activities/sources.js';
import { renderInto } from '../../activities/render-files.js';
import type { RenderOutput } from '../../shared/types.js';
import type { KindActivityDeps } from '../kind.js';
import { compare, snapshotOf, weekFigures, type RunSnapshot } from './previous-run.js';
import { readAnswers } from './read-answers.js';
import { readCountry } from './read-country.js';
import { toMarketReportModel } from './model.js';
import {
  openingFigures,
  openingHeadline,
  renderMarketReport as renderMarket,
  type MarketReportModel,
} from './report/index.js';
import type { BuildModelInput, BuildModelOutput, RenderInput } from './types.js';

/**
 * Creates the market report's activities.
 *
 * @example
 * const acts = createMarketReportActivities({ store: new LocalStore('.data/store'), reportsDir: '.data/reports' });
 */
export function createMarketReportActivities(deps: KindActivityDeps) {
  const { store } = deps;
  return {
    /**
     * Reads everything the run stored (each stored answer given its source id, in the order of
     * the countries and then the questions), compares with the previous run, writes the model.
     */
    async buildMarketModel(input: BuildModelInput): Promise<BuildModelOutput> {
      const book = new SourceBook(store);
      const countries = [];
      for (const c of input.countries) countries.push(await readCountry(store, c, book));
      const answers = await readAnswers(store, input.answers, book);
      const previous = await readPreviousSnapshot<RunSnapshot>(store, input.job.id);
      const asOf =
        countries.map((c) => c.overview?.as_of).find((d): d is string => typeof d === 'string') ??
        input.stats.startedAt.slice(0, 10);
      const comparisons = compare(countries, previous, input.job.top);
      const weeks = weekFigures(countries, previous, input.stats.startedAt);
      const model = toMarketReportModel({
        weeks,
        job: input.job,
        countries,
        answers,
        comparisons,
        previous,
        stats: input.stats,
        asOf,
        sources: book.rows(),
      });
      const modelRef = await store.putJson(input.runKey, 'report/model', model);
      const snapshot = snapshotOf(
        input.job.id,
        input.stats.workflowId,
        input.stats.startedAt,
        countries,
        input.job.top,
        weeks,
      );
      const snapshotRef = await store.putJson(input.runKey, 'report/snapshot', snapshot);
      return { modelRef, snapshotRef, asOf };
    },

    /**
     * Renders the workbook and the PDF into <destination>/<job>/<date>/; returns, whatever the
     * formats, the key figures and the headline the report opens with.
     */
    async renderMarketReport(input: RenderInput): Promise<RenderOutput> {
      const model = await store.getJson<MarketReportModel>(input.modelRef);
      return renderInto(deps, input, async ({ outDir, fileBase }) => {
        const res = await renderMarket(model, {
          outDir,
          formats: input.job.outputs,
          fileBase,
          links: deps.serviceLinks ?? null,
          runKey: input.workflowId,
        });
        const notProvided = model.countries.flatMap((c) =>
          (c.not_provided ?? []).map((w) => `${c.country}: ${w}`),
        );
        return {
          files: res.files,
          charts: res.charts,
          pages: res.pages ?? null,
          notProvided,
          urlsLeftOut: res.urlsLeftOut ?? 0,
          ...runOpening(openingFigures(model), openingHeadline(model)),
        };
      });
    },
  };
}

export type MarketReportActivities = ReturnType<typeof createMarketReportActivities>;
