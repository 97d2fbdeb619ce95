/**
 * The keys records are fetched by (get_investor, get_startup): the names a key is found under
 * in a list's records, and the key of one record.
 */
import type { OperationName } from './operations.js';
import { readField } from './read.js';

/** Keys of records: the spec calls an investor's key normalized_key, the sandbox calls it key. */
const KEY_NAMES = ['key', 'normalized_key', 'normalizedKey', 'slug', 'id', 'uuid'];
export const INVESTOR_KEY_NAMES = ['normalized_key', 'normalizedKey', 'investor_key', ...KEY_NAMES];
export const STARTUP_KEY_NAMES = ['key', 'startup_key', 'company_key', ...KEY_NAMES];

/** The key a record is fetched by (get_investor, get_startup), or null. */
export function recordKey(operation: OperationName, item: unknown): string | null {
  const names =
    operation === 'search_investors' || operation === 'find_investors'
      ? INVESTOR_KEY_NAMES
      : STARTUP_KEY_NAMES;
  return readField(item, { kind: 'string', names });
}
