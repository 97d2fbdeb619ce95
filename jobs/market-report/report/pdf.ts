/**
 * The weekly market report as a PDF: cover, contents, executive summary, one section per
 * country, the data agent's answers, a cross-country comparison and the methodology.
 *
 * Layout: a table and its chart share a row when the table is narrow; charts go two by two;
 * each chart the service returned is drawn once, in the subsection it belongs to (see
 * `planCharts`); a heading stays with the block under it, and a block moves to the next page
 * only when it does not fit (pdf-layout.ts). Each section is drawn by its own module; this one
 * lays them out in order.
 */
import type { ServiceLinks } from '../../../reports/links.js';
import { formatDate } from '../../../reports/format.js';
import { ReportPdf } from '../../../reports/pdf/index.js';
import { answersSection } from './answers-section.js';
import type { PlannedChart, RenderedCharts } from './charts.js';
import { comparisonSection } from './comparison.js';
import { countrySection } from './country.js';
import { cover } from './cover.js';
import { executiveSummary } from './executive-summary.js';
import { methodology } from './methodology.js';
import type { MarketReportModel } from './model.js';
import type { Ctx } from './pdf-layout.js';
import { runAppendix } from './run-appendix.js';
import { reportTitle } from './title.js';

/** Lays the report out with `contentsPages` pages reserved for the contents. */
function layout(
  model: MarketReportModel,
  charts: RenderedCharts,
  planned: PlannedChart[],
  creationDate: Date,
  contentsPages: number,
  links: ServiceLinks | null,
  runKey?: string,
): Ctx {
  const title = reportTitle(model);
  const pdf = new ReportPdf({
    title,
    subject: `Venture market report: ${model.countries.map((c) => c.country).join(', ')}`,
    keywords: ['venture', 'market report', ...model.countries.map((c) => c.country)].join(', '),
    creationDate,
    footerText: `${title} · data as of ${formatDate(model.period.asOf)}`,
  });
  const ctx: Ctx = { pdf, model, charts, planned, drawn: new Set(), links, ...(runKey ? { runKey } : {}) };
  cover(ctx);
  pdf.reserveContentsPages(contentsPages);
  executiveSummary(ctx);
  model.countries.forEach((c, i) => countrySection(ctx, c, i));
  answersSection(ctx);
  comparisonSection(ctx);
  methodology(ctx);
  runAppendix(ctx);
  return ctx;
}

/**
 * Lays out the market report PDF; returns the document (call `finish`) and the charts drawn.
 * The contents get exactly the pages they need: when the headings need more than one page,
 * the report is laid out again with that many reserved (the page numbers move).
 */
export function buildMarketPdf(
  model: MarketReportModel,
  charts: RenderedCharts,
  planned: PlannedChart[],
  options: { creationDate?: Date; links?: ServiceLinks | null; runKey?: string } = {},
): { pdf: ReportPdf; drawn: Set<string> } {
  const creationDate = options.creationDate ?? new Date(model.generatedAt);
  const links = options.links ?? null;
  let ctx = layout(model, charts, planned, creationDate, 1, links, options.runKey);
  const needed = ctx.pdf.contentsPagesNeeded();
  if (needed !== ctx.pdf.contentsPageCount)
    ctx = layout(model, charts, planned, creationDate, needed, links, options.runKey);
  return { pdf: ctx.pdf, drawn: ctx.drawn };
}
