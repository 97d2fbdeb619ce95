/** The prospect list's report: charts, the streamed workbook and the sales lead's PDF brief. */
export { planProspectCharts, renderProspectCharts, topWithOther, TOP_CATEGORIES } from './charts.js';
export type { PlannedProspectChart, ProspectChart, ProspectChartId } from './charts.js';
export { writeProspectWorkbook, PROSPECT_COLUMNS, SUPPRESSED_COLUMNS } from './workbook.js';
export type { ProspectWorkbookResult } from './workbook.js';
export { writeProspectBrief, buildProspectBrief, BRIEF_BUDGETS, MAX_BRIEF_PAGES } from './pdf.js';
export type { BriefBudget } from './pdf.js';
export { openingFigures, openingHeadline } from './opening.js';
