/** The weekly market report: model, charts, PDF and workbook. */
export { renderMarketReport } from './render.js';
export type * from './model.js';
export { planCharts, renderCharts } from './charts.js';
export type { PlannedChart, RenderedCharts } from './charts.js';
export { buildMarketPdf } from './pdf.js';
export { reportTitle } from './title.js';
export { buildMarketWorkbook } from './workbook.js';
export {
  countryFigures,
  openingFigures,
  openingHeadline,
  totals,
  yearRows,
  summaryParagraphs,
} from './figures.js';
