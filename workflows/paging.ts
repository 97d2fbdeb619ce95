/**
 * Offset paging of a search as a child workflow: pages at the largest page size until the
 * result set is exhausted or the cap is reached. Each page is stored (claim check); the
 * workflow keeps only references and continues as new when its history grows long.
 */
import { continueAsNew, getExternalWorkflowHandle, workflowInfo } from '@temporalio/workflow';
import type { StoreRef } from '../activities/types.js';
import { createCaller } from './calls.js';
import { pageDoneSignal } from './progress.js';

export interface PagingInput {
  runKey: string;
  operation: 'search_investors' | 'search_startups';
  /** Search parameters without limit and offset. */
  params: Record<string, unknown>;
  /** Stop after this many records. */
  cap: number;
  /** Largest page size of the operation (100). */
  pageSize: number;
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
}

export interface PagingResult {
  refs: StoreRef[];
  records: number;
  pages: number;
  total: number | null;
  /** True when the cap stopped the paging before the end of the result set. */
  capped: boolean;
}

export async function pageSearchWorkflow(input: PagingInput): Promise<PagingResult> {
  const call = createCaller(input.apiTaskQueue);
  const refs = [...(input.refs ?? [])];
  let offset = input.offset ?? 0;
  let pageIndex = input.pageIndex ?? 0;
  let records = input.records ?? 0;
  let total: number | null = null;
  const parent = input.parentWorkflowId ? getExternalWorkflowHandle(input.parentWorkflowId) : null;

  for (;;) {
    const limit = Math.min(input.pageSize, input.cap - records);
    if (limit <= 0)
      return { refs, records, pages: pageIndex, total, capped: total === null || records < total };
    const name = `pages/${input.label}-${String(pageIndex).padStart(4, '0')}`;
    const out = await call(input.operation, { ...input.params, limit, offset }, input.runKey, name);
    refs.push(out.ref);
    pageIndex += 1;
    records += out.records;
    total = out.total ?? total;
    const next = out.nextOffset ?? (out.records < limit ? null : offset + out.records);
    const knownTotal = total === null ? null : Math.min(total, input.cap);
    const plannedPages =
      knownTotal === null ? pageIndex + (next === null ? 0 : 1) : Math.ceil(knownTotal / input.pageSize);
    if (parent) {
      await parent.signal(pageDoneSignal, {
        label: input.label,
        records: out.records,
        total,
        calls: 1,
        plannedPages: Math.max(plannedPages, pageIndex),
      });
    }
    if (next === null || out.records === 0) {
      return { refs, records, pages: pageIndex, total, capped: false };
    }
    offset = next;
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof pageSearchWorkflow>({ ...input, offset, pageIndex, refs, records });
    }
  }
}
