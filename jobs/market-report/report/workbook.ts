/**
 * The weekly market report as a workbook: Summary (key figures, comparison, charts), one sheet
 * per country (figures and charts), data sheets as Excel tables (Investors, Startups, Rounds by
 * year, Agent answers, one sheet per answer's rows), Methodology, Run statistics and, last,
 * Sources (every stored answer the report was made from, which each row's Source names). Every text cell from the
 * service is formula-safe; numbers stay numbers; links go to the service's http(s) urls only.
 * Each sheet is written by its own module; this one writes them in order.
 */
import { ReportWorkbook } from '../../../reports/excel/index.js';
import { readerUrl, type ServiceLinks } from '../../../reports/links.js';
import { addSourcesSheet } from '../../../reports/sources.js';
import { writeAnswerSheets } from './answer-sheets.js';
import type { PlannedChart, RenderedCharts } from './charts.js';
import { writeCountrySheet } from './country-sheet.js';
import { writeDataSheets } from './data-sheets.js';
import { countryFigures, totals } from './figures.js';
import { writeMethodologySheet } from './methodology-sheet.js';
import type { MarketReportModel } from './model.js';
import { writeRunStatisticsSheet } from './run-statistics-sheet.js';
import type { SheetCtx } from './sheet-helpers.js';
import { writeSummarySheet } from './summary-sheet.js';
import { reportTitle } from './title.js';

/**
 * Builds the market report workbook. Returns the workbook, the number of images placed and of
 * native charts (beside the images of the charts whose data is a table on the same sheet).
 */
export function buildMarketWorkbook(
  model: MarketReportModel,
  charts: RenderedCharts,
  planned: PlannedChart[],
  options: { created?: Date; links?: ServiceLinks | null; chartImages?: boolean; runKey?: string } = {},
): { book: ReportWorkbook; images: number; nativeCharts: number } {
  const links = options.links ?? null;
  const book = new ReportWorkbook({
    title: reportTitle(model),
    created: options.created ?? new Date(model.generatedAt),
  });
  const ctx: SheetCtx = {
    book,
    model,
    charts,
    planned,
    pictures: options.chartImages ?? false,
    url: (u) => readerUrl(u, links),
    totals: totals(model),
    figs: model.countries.map((c) => countryFigures(model, c)),
    placed: { images: 0, nativeCharts: 0 },
    ...(options.runKey ? { runKey: options.runKey } : {}),
  };
  writeSummarySheet(ctx);
  // One sheet per country: figures and tables on the left (A to G), charts on the right (from I).
  model.countries.forEach((c, i) => writeCountrySheet(ctx, c, i));
  writeDataSheets(ctx);
  writeAnswerSheets(ctx);
  writeMethodologySheet(ctx);
  writeRunStatisticsSheet(ctx);
  addSourcesSheet(book, model.sources, options.runKey);
  return { book, images: ctx.placed.images, nativeCharts: ctx.placed.nativeCharts };
}
