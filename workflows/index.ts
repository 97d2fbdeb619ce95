/** Every workflow the workers register. */
export { marketReportWorkflow, expandQuestions } from './market-report.js';
export type { MarketReportInput, MarketReportResult } from './market-report.js';
export { pageSearchWorkflow } from './paging.js';
export type { PagingInput, PagingResult } from './paging.js';
export { progressQuery, pageDoneSignal } from './progress.js';
export type { RunProgress, PageDone } from './progress.js';
