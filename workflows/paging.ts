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
import type { ApiCallOutput, CallAttempts, StoreRef } from '../shared/types.js';
import { createCaller } from './calls.js';
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

export interface PagingResult {
  refs: StoreRef[];
  records: number;
  pages: number;
  total: number | null;
  /** True when the cap stopped the paging before the end of the result set. */
  capped: boolean;
}

/**
 * Pages an operation. The workflow type keeps the name it had when it paged only the two
 * searches: runs in flight and recorded histories refer to it.
 */
export async function pageSearchWorkflow(input: PagingInput): Promise<PagingResult> {
  const pageSize = input.pageSize ?? pageSizeOf(input.operation);
  const parallel = Math.max(1, input.parallelPages ?? DEFAULT_PARALLEL_PAGES);
  const refs = [...(input.refs ?? [])];
  let offset = input.offset ?? 0;
  let pageIndex = input.pageIndex ?? 0;
  let records = input.records ?? 0;
  let total: number | null = input.total ?? null;
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
  const plannedPages = () =>
    total === null ? pageIndex + 1 : Math.max(pageIndex, Math.ceil(Math.min(total, input.cap) / pageSize));

  const fetchPage = async (pageOffset: number, limit: number, index: number) => {
    const name = `pages/${input.label}-${String(index).padStart(4, '0')}`;
    const params = { ...input.params, limit, offset: pageOffset } as ParamsIn<PagedOperation>;
    const out = await call(input.operation, params, input.runKey, name);
    total = out.total ?? total;
    if (parent) {
      const attempts = unreported;
      unreported = { sent: 0, failed: 0 };
      await parent.signal(pageDoneSignal, {
        label: input.label,
        operation: input.operation,
        records: out.records,
        total,
        calls: 1,
        plannedPages: plannedPages(),
        attempts,
      });
    }
    return out;
  };

  for (;;) {
    const room = input.cap - records;
    if (room <= 0)
      return { refs, records, pages: pageIndex, total, capped: total === null || records < total };
    if (total === null) {
      // The first page (or a service that reports no total): follow next_offset one page at a time.
      const limit = Math.min(pageSize, room);
      const out = await fetchPage(offset, limit, pageIndex);
      refs.push(out.ref);
      pageIndex += 1;
      records += out.records;
      const next = out.nextOffset ?? (out.records < limit ? null : offset + out.records);
      if (next === null || out.records === 0)
        return { refs, records, pages: pageIndex, total, capped: false };
      offset = next;
    } else {
      // The total is known, so are the next pages' offsets: up to `parallel` pages are kept in
      // flight (the rate-limited task queue paces them; the stable order of the search keeps
      // them disjoint, and records are deduplicated by key later). New pages stop being
      // started when the history should continue as new; the ones in flight finish first.
      const end = Math.min(total, offset + room);
      const outs = new Map<number, ApiCallOutput>();
      const inflight = new Set<Promise<void>>();
      let short = false;
      const firstIndex = pageIndex;
      while (inflight.size > 0 || (offset < end && !short && !workflowInfo().continueAsNewSuggested)) {
        while (inflight.size < parallel && offset < end && !short && !workflowInfo().continueAsNewSuggested) {
          const limit = Math.min(pageSize, end - offset);
          const index = pageIndex;
          const p: Promise<void> = fetchPage(offset, limit, index).then((out) => {
            outs.set(index, out);
            if (out.records < limit) short = true;
            inflight.delete(p);
          });
          inflight.add(p);
          offset += limit;
          pageIndex += 1;
        }
        await Promise.race(inflight);
      }
      for (let i = firstIndex; i < pageIndex; i += 1) {
        const out = outs.get(i);
        if (!out) continue;
        refs.push(out.ref);
        records += out.records;
      }
      if (short || offset >= end) {
        return { refs, records, pages: pageIndex, total, capped: !short && end < total };
      }
    }
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof pageSearchWorkflow>({ ...input, offset, pageIndex, refs, records, total });
    }
  }
}
