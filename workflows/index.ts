/** Every workflow the workers register. */
export { marketReportWorkflow } from './market-report.js';
export { expandQuestions, planMarketReport, PAGE_SIZE } from './plan.js';
export type { RunPlan } from './plan.js';
export type { MarketReportInput, MarketReportResult } from './market-report.js';
export { pageSearchWorkflow } from './paging.js';
export type { PagingInput, PagingResult } from './paging.js';
export { progressQuery, pageDoneSignal } from './progress.js';
export type { RunProgress, PageDone } from './progress.js';
