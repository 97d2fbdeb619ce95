/** The prospect list's bounds (no imports: the workflow bundle reads them too). */

/**
 * The most rows one run enriches with get_startup: each is a call under the service's daily
 * limit (enriching a 100,000-row list would take 20 days), so the top rows only.
 */
export const MAX_ENRICH = 1000;

/** The most rows a list may have (the paged searches' cap). */
export const MAX_LIST_ROWS = 100_000;
