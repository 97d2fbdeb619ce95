/**
 * A parameter a workflow names by where its value is kept, `vir-store:<ref>#<field>`, so that
 * the value (a pre-signed link to a deck, say) reaches the service but never the workflow's
 * history: the API activity reads field `<field>` of the store's document `<ref>` just before
 * the call. What is stored with the answer is the parameter as the workflow gave it.
 */
import type { StoreRef } from './types.js';

export const STORED_PARAM_PREFIX = 'vir-store:';

/** The parameter that reads a store document's field (see {@link STORED_PARAM_PREFIX}). */
export function storedParam(ref: StoreRef, field: string): string {
  return `${STORED_PARAM_PREFIX}${ref}#${field}`;
}
