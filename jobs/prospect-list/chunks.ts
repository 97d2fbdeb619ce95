/**
 * Rows of a list kept in the store in chunks (claim check): written a chunk at a time and read
 * back as a stream, so a 100,000-row list is never one document nor held twice.
 */
import type { Store } from '../../activities/store.js';
import type { StoreRef } from '../../shared/types.js';

/** Rows in one stored chunk. */
export const CHUNK_ROWS = 1000;

/** Writes one chunk `<name>-<index, 4 digits>` of a run; gives its reference. */
export function putChunk<T>(
  store: Store,
  runKey: string,
  name: string,
  index: number,
  rows: readonly T[],
): Promise<StoreRef> {
  return store.putJson(runKey, `${name}-${String(index).padStart(4, '0')}`, rows);
}

/**
 * Writes rows as chunks `<name>-0000`, `<name>-0001`... of a run; gives their references in order.
 *
 * @example
 * const refs = await putChunks(store, runKey, 'list/rows', rows);
 */
export async function putChunks<T>(
  store: Store,
  runKey: string,
  name: string,
  rows: readonly T[],
): Promise<StoreRef[]> {
  const refs: StoreRef[] = [];
  for (let at = 0, i = 0; at < rows.length; at += CHUNK_ROWS, i += 1) {
    refs.push(await putChunk(store, runKey, name, i, rows.slice(at, at + CHUNK_ROWS)));
  }
  return refs;
}

/** The rows of stored chunks, in order, one chunk in memory at a time. */
export async function* readChunks<T>(store: Store, refs: readonly StoreRef[]): AsyncGenerator<T> {
  for (const ref of refs) {
    for (const row of await store.getJson<T[]>(ref)) yield row;
  }
}
