/** The run engine: building blocks of every job workflow, and the engine's own workflows. */
export { pageSearchWorkflow } from './paging.js';
export type { PagingInput, PagingResult, PageParams } from './paging.js';
export { startRun, maxPagesOf } from './engine.js';
export { deliverRun, redeliverRunWorkflow, DELIVERY } from './delivery.js';
export { rerenderRunWorkflow } from './rerender.js';
export type { DestinationRef, RedeliverInput } from './delivery.js';
export type { Run, RunOptions, JobRunInput, JobRunResult, PagingStream, PaidCall } from './engine.js';
export {
  progressQuery,
  pageDoneSignal,
  estimateEta,
  describePhase,
  PHASE_STARTING,
  PHASE_DONE,
} from './progress.js';
export type { RunProgress, PageDone } from './progress.js';
export { CreditBudget } from './budget.js';
export {
  createCaller,
  failureMessage,
  failureType,
  stopsRun,
  DEFAULT_API_TASK_QUEUE,
  RUN_STOPPING_FAILURES,
} from './calls.js';
