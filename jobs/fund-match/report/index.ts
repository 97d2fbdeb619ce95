/** The fund-match digest's report: charts, the partner's PDF and the workbook. */
export { planFundCharts, renderFundCharts, trendSpec, TREND_COLOURED } from './charts.js';
export type { FundChart, FundChartId, PlannedFundChart } from './charts.js';
export { writeFundDigest, buildFundDigest, FIRST_PAGE_BUDGETS } from './pdf.js';
export type { FirstPageBudget } from './pdf.js';
export { openingFigures, openingHeadline, whatsNewLine } from './opening.js';
export {
  writeFundWorkbook,
  historyColumns,
  BATCH_COLUMNS,
  WATCHLIST_COLUMNS,
  DROPPED_COLUMNS,
} from './workbook.js';
export type { FundWorkbookResult } from './workbook.js';
