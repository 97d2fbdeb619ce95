/**
 * The sources of a report: the stored answers its model was made from, numbered S1, S2, … in the
 * order the model read them. A kind's model-building activity reads its stored answers through
 * a {@link SourceBook}, names each record's source by its id, and keeps `book.rows()` in the
 * model; the report's "Sources" sheet lists them and every data row names the one it came from.
 */
import { readPage } from '../api/read-page.js';
import type { Store } from './store.js';
import type { SourceRow, StoreRef, StoredCall } from '../shared/types.js';

/** The status a stored answer from before the status was kept had: only answers that came are stored. */
const STORED_ANSWER_STATUS = 200;

/** How many records an answer held: a page's items, else 1 (a profile, an overview, an answer). */
function recordsOf(call: StoredCall): number {
  try {
    const page = readPage(call.operation, call.result.data);
    return page.items.length > 0 || page.total !== null ? page.items.length : 1;
  } catch {
    return 1;
  }
}

/** A source row of a stored answer (its id given). Tolerant: a field missing is empty, not a failure. */
export function sourceRowOf(id: string, ref: StoreRef, call: StoredCall): SourceRow {
  const params =
    call.params && typeof call.params === 'object' ? (call.params as Record<string, unknown>) : {};
  const charged = call.result?.credits?.charged;
  const before =
    typeof call.chargedBefore === 'number' && Number.isFinite(call.chargedBefore) ? call.chargedBefore : 0;
  return {
    id,
    operation: call.operation,
    params: { ...params },
    fetchedAt: typeof call.fetchedAt === 'string' ? call.fetchedAt : '',
    // What the answer cost the account: its own charge, and the lost attempts' before it.
    credits: (typeof charged === 'number' && Number.isFinite(charged) ? charged : 0) + before,
    status: typeof call.status === 'number' ? call.status : STORED_ANSWER_STATUS,
    records: recordsOf(call),
    ref,
  };
}

/**
 * The stored answers a model reads, each given its source id the first time it is read (in the
 * order of the reads asked, not of their completion, so ids are the same on every retry).
 *
 * @example
 * const book = new SourceBook(store);
 * const { call, source } = await book.read(ref);
 * rows.push({ ...readRow(call), source });
 * model.sources = book.rows();
 */
export class SourceBook {
  readonly #store: Pick<Store, 'getJson'>;
  readonly #ids = new Map<StoreRef, string>();
  readonly #rows = new Map<string, SourceRow>();

  constructor(store: Pick<Store, 'getJson'>) {
    this.#store = store;
  }

  /** The source id of `ref`, given now when it has none yet. */
  idOf(ref: StoreRef): string {
    let id = this.#ids.get(ref);
    if (id === undefined) {
      id = `S${this.#ids.size + 1}`;
      this.#ids.set(ref, id);
    }
    return id;
  }

  /** Reads the stored answer at `ref` and returns it with its source id. */
  async read<N extends StoredCall['operation'] = StoredCall['operation']>(
    ref: StoreRef,
  ): Promise<{ call: StoredCall<N>; source: string }> {
    const source = this.idOf(ref);
    const call = await this.#store.getJson<StoredCall<N>>(ref);
    this.#rows.set(source, sourceRowOf(source, ref, call));
    return { call, source };
  }

  /** The sources read, in the order of their ids. */
  rows(): SourceRow[] {
    return [...this.#ids.values()].flatMap((id) => {
      const row = this.#rows.get(id);
      return row ? [row] : [];
    });
  }
}
