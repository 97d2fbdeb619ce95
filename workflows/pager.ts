/**
 * The offset paging loop, shared by the paging child workflow (paging.ts) and a run that pages a
 * short stream itself (engine.ts): pages at the operation's largest page size until the result
 * set is exhausted or the cap is reached; the first page (or every page of a service that gives
 * no total) one at a time, following next_offset; once the total is known, up to `parallel`
 * pages in flight (the rate-limited task queue and the account's permits pace them; the stable
 * order of the search keeps them disjoint, and records are deduplicated by key later).
 *
 * Workflow code: no I/O here, only decisions and commands.
 */
import type { ApiCallOutput, StoreRef } from '../shared/types.js';

/** Where a paging stands: carried over by continue-as-new in the child. */
export interface PagerState {
  offset: number;
  pageIndex: number;
  refs: StoreRef[];
  records: number;
  total: number | null;
}

export interface PagingResult {
  refs: StoreRef[];
  records: number;
  pages: number;
  total: number | null;
  /** True when the cap stopped the paging before the end of the result set. */
  capped: boolean;
  /** The records' keys in page order, where the pages were read by the run itself (inline). */
  keys?: string[];
}

/** Pages a stream will take: one more while the total is unknown, else the total's (capped). */
export function plannedPagesOf(state: PagerState, cap: number, pageSize: number): number {
  return state.total === null
    ? state.pageIndex + 1
    : Math.max(state.pageIndex, Math.ceil(Math.min(state.total, cap) / pageSize));
}

/** The store name of a stream's page `index` (`pages/<label>-0007`). */
export function pageName(label: string, index: number): string {
  return `pages/${label}-${String(index).padStart(4, '0')}`;
}

/** One page: fetches `limit` records at `offset` as page number `index`, and says what came. */
export type FetchPage = (offset: number, limit: number, index: number) => Promise<ApiCallOutput>;

export interface PagerOptions {
  cap: number;
  pageSize: number;
  parallel: number;
  /** Stops starting pages (the ones in flight finish): the child's history should continue as new. */
  stopStarting: () => boolean;
}

/** Pages from `state` (updated as pages come) until done (the result) or told to stop (null). */
export async function pageFrom(
  state: PagerState,
  fetchPage: FetchPage,
  o: PagerOptions,
): Promise<PagingResult | null> {
  for (;;) {
    const room = o.cap - state.records;
    if (room <= 0) {
      const { refs, records, total } = state;
      return { refs, records, pages: state.pageIndex, total, capped: total === null || records < total };
    }
    const done =
      state.total === null
        ? await nextPage(state, fetchPage, o, room)
        : await pagesInFlight(state, fetchPage, o, room);
    if (done) return done;
    if (o.stopStarting()) return null;
  }
}

/** The first page, or the next of a service that reports no total: follows next_offset. */
async function nextPage(
  state: PagerState,
  fetchPage: FetchPage,
  o: PagerOptions,
  room: number,
): Promise<PagingResult | null> {
  const limit = Math.min(o.pageSize, room);
  const out = await fetchPage(state.offset, limit, state.pageIndex);
  state.refs.push(out.ref);
  state.pageIndex += 1;
  state.records += out.records;
  const next = out.nextOffset ?? (out.records < limit ? null : state.offset + out.records);
  if (next === null || out.records === 0) {
    return {
      refs: state.refs,
      records: state.records,
      pages: state.pageIndex,
      total: state.total,
      capped: false,
    };
  }
  state.offset = next;
  return null;
}

/**
 * The total is known, so are the next pages' offsets: up to `parallel` pages are kept in flight;
 * new pages stop being started when told to, and the ones in flight finish first.
 */
async function pagesInFlight(
  state: PagerState,
  fetchPage: FetchPage,
  o: PagerOptions,
  room: number,
): Promise<PagingResult | null> {
  const total = state.total!;
  const end = Math.min(total, state.offset + room);
  const outs = new Map<number, ApiCallOutput>();
  const inflight = new Set<Promise<void>>();
  let short = false;
  const firstIndex = state.pageIndex;
  const more = () => state.offset < end && !short && !o.stopStarting();
  while (inflight.size > 0 || more()) {
    while (inflight.size < o.parallel && more()) {
      const limit = Math.min(o.pageSize, end - state.offset);
      const index = state.pageIndex;
      const p: Promise<void> = fetchPage(state.offset, limit, index).then((out) => {
        outs.set(index, out);
        if (out.records < limit) short = true;
        inflight.delete(p);
      });
      inflight.add(p);
      state.offset += limit;
      state.pageIndex += 1;
    }
    await Promise.race(inflight);
  }
  for (let i = firstIndex; i < state.pageIndex; i += 1) {
    const out = outs.get(i);
    if (!out) continue;
    state.refs.push(out.ref);
    state.records += out.records;
  }
  if (short || state.offset >= end) {
    const capped = !short && end < total;
    return { refs: state.refs, records: state.records, pages: state.pageIndex, total, capped };
  }
  return null;
}
