/**
 * Pages of the operations that return a list of records: the list under the names it may have,
 * how many records there are in all and where the next page starts.
 */
import type { OperationName } from './operations.js';
import { ANSWER_FIELDS } from './read-answers.js';
import { asObject, field as f, readField, toObjects, valueAt, type Obj } from './read.js';

/** The list of records of each operation that returns one, under the names it may have. */
const LIST_NAMES: Partial<Record<OperationName, readonly string[]>> = {
  search_investors: ['investors', 'results', 'items', 'records', 'data'],
  search_startups: ['startups', 'results', 'items', 'records', 'companies', 'data'],
  find_investors: ['investors', 'matches', 'results', 'items'],
  find_startups_for_fund: ['startups', 'matches', 'results', 'items', 'batch.startups'],
  find_customers: ['customers', 'startups', 'prospects', 'matches', 'results', 'items'],
  ask: ANSWER_FIELDS.rows.names,
};

/** Where a paged answer says how many records there are in all, and where the next page starts. */
const TOTAL = f(
  'number',
  'total',
  'total_count',
  'totalCount',
  'total_results',
  'totalResults',
  'hits',
  'paging.total',
  'pagination.total',
  'page.total',
  'meta.total',
  'paging.total_count',
  'pagination.total_count',
);
const NEXT_OFFSET = f(
  'number',
  'next_offset',
  'nextOffset',
  'paging.next_offset',
  'pagination.next_offset',
  'page.next_offset',
  'meta.next_offset',
  'paging.nextOffset',
  'pagination.nextOffset',
);

export interface PageRead {
  /** The records (objects only), in the service's order. */
  items: Obj[];
  /** Whether a list was found at all (a page without one reads as empty). */
  listFound: boolean;
  /** All matching records, when the service says; null when it does not. */
  total: number | null;
  /** The offset of the next page, when the service says; null otherwise. */
  nextOffset: number | null;
}

/** Reads one page (or one batch) of an operation that returns a list of records. */
export function readPage(operation: OperationName, data: unknown): PageRead {
  const names = LIST_NAMES[operation] ?? [];
  let items: Obj[] | null = null;
  for (const n of names) {
    const o = asObject(data);
    const list = o === null ? null : toObjects(valueAt(o, n));
    if (list !== null) {
      items = list;
      break;
    }
  }
  const total = readField(data, TOTAL);
  const next = readField(data, NEXT_OFFSET);
  return {
    items: items ?? [],
    listFound: items !== null,
    total: total !== null && total >= 0 ? Math.floor(total) : null,
    nextOffset: next !== null && next >= 0 ? Math.floor(next) : null,
  };
}
