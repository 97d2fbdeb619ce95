/**
 * Offset paging of any operation that takes `offset`, as a child workflow: pages at the
 * operation's largest page size until the result set is exhausted or the cap is reached; once
 * the first page gives the total, the following pages are fetched a few at a time (the
 * rate-limited task queue paces them). Each page is stored (claim check); the workflow keeps
 * only references and continues as new when its history grows long.
 */
import { continueAsNew, getExternalWorkflowHandle, patched, workflowInfo } from '@temporalio/workflow';
import { pageSizeOf, type PagedOperation } from '../api/catalog.js';
import type { ParamsIn } from '../api/operations.js';
import type { CallAttempts, StoreRef } from '../shared/types.js';
import { createCaller } from './calls.js';
import { pageFrom, pageName, plannedPagesOf, type PagerState, type PagingResult } from './pager.js';

export type { PagingResult } from './pager.js';
import { dailyLimitWaitSignal, pageDoneSignal, PAGING_WAIT_PROGRESS } from './progress.js';

/** The parameters of a paged operation without `limit` and `offset` (the paging sets them). */
export type PageParams<N extends PagedOperation> = N extends PagedOperation
  ? Omit<ParamsIn<N>, 'limit' | 'offset'>
  : never;

export interface PagingInput<N extends PagedOperation = PagedOperation> {
  runKey: string;
  operation: N;
  params: PageParams<N>;
  /** Stop after this many records. */
  cap: number;
  /** Page size (default: the operation's largest `limit`). */
  pageSize?: number;
  /** Label for store names and progress, e.g. `investors-germany-score`. */
  label: string;
  apiTaskQueue: string;
  /** Parent workflow to report pages to. */
  parentWorkflowId?: string;
  /** Carried over by continue-as-new. */
  offset?: number;
  pageIndex?: number;
  refs?: StoreRef[];
  records?: number;
  total?: number | null;
  /** Pages fetched at once once the total is known (default 8). */
  parallelPages?: number;
}

/** Pages a paging workflow fetches at once once it knows the total. */
export const DEFAULT_PARALLEL_PAGES = 8;

/**
 * Pages an operation. The workflow type keeps the name it had when it paged only the two
 * searches: runs in flight and recorded histories refer to it.
 */
export async function pageSearchWorkflow(input: PagingInput): Promise<PagingResult> {
  const pageSize = input.pageSize ?? pageSizeOf(input.operation);
  const parallel = Math.max(1, input.parallelPages ?? DEFAULT_PARALLEL_PAGES);
  const state: PagerState = {
    offset: input.offset ?? 0,
    pageIndex: input.pageIndex ?? 0,
    refs: [...(input.refs ?? [])],
    records: input.records ?? 0,
    total: input.total ?? null,
  };
  const parent = input.parentWorkflowId ? getExternalWorkflowHandle(input.parentWorkflowId) : null;
  // A wait for the daily limit shows in the run's progress (runs started before this patch do not).
  const tellWaits = parent !== null && patched(PAGING_WAIT_PROGRESS);
  /** Requests sent since the last page was reported (a page's retries, daily-limit waits). */
  let unreported: CallAttempts = { sent: 0, failed: 0 };
  const onAttempts = (_operation: unknown, sent: CallAttempts) => {
    unreported = { sent: unreported.sent + sent.sent, failed: unreported.failed + sent.failed };
  };
  const call = createCaller(
    input.apiTaskQueue,
    tellWaits
      ? {
          onWait: (until) => {
            parent.signal(dailyLimitWaitSignal, { label: input.label, until }).catch(() => undefined);
          },
          onAttempts,
        }
      : { onAttempts },
  );

  const fetchPage = async (pageOffset: number, limit: number, index: number) => {
    const name = pageName(input.label, index);
    const params = { ...input.params, limit, offset: pageOffset } as ParamsIn<PagedOperation>;
    const out = await call(input.operation, params, input.runKey, name);
    state.total = out.total ?? state.total;
    if (parent) {
      const attempts = unreported;
      unreported = { sent: 0, failed: 0 };
      await parent.signal(pageDoneSignal, {
        label: input.label,
        operation: input.operation,
        records: out.records,
        total: state.total,
        calls: 1,
        plannedPages: plannedPagesOf(state, input.cap, pageSize),
        attempts,
      });
    }
    return out;
  };

  const stopStarting = () => workflowInfo().continueAsNewSuggested;
  const result = await pageFrom(state, fetchPage, { cap: input.cap, pageSize, parallel, stopStarting });
  if (result) return result;
  return await continueAsNew<typeof pageSearchWorkflow>({ ...input, ...state });
}
