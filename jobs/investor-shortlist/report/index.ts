/** The investor shortlist's report: the service's charts, the PDF and the workbook. */
export { renderShortlistCharts, companyCharts } from './charts.js';
export type { ShortlistChart } from './charts.js';
export { writeShortlistReport, buildShortlistReport } from './pdf.js';
export { openingFigures, openingHeadline } from './opening.js';
export {
  writeShortlistWorkbook,
  investorColumns,
  INVESTOR_PRINTED_COLUMNS,
  RUN_COLUMNS,
  SHARED_COLUMNS,
} from './workbook.js';
export type { ShortlistWorkbookResult } from './workbook.js';
export { OVERVIEW_COLUMNS } from './summary-sheet.js';
export { BASELINE_LINE, NEW_MARK } from './text.js';
