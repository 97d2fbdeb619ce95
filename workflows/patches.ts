/**
 * The patches of the run engine (engine.ts, run-calls.ts): each names a change to the commands a
 * run sends, behind `patched()`, so runs started before it replay the way they ran (README,
 * "Changing a workflow safely"). The names are in histories: they never change.
 */

/** The patch of paid calls made one at a time and reconciled with the balance after an unknown outcome. */
export const PAID_CALLS_RECONCILED = 'paid-calls-reconciled';
/**
 * The patch of the account's ledger: paid calls reserve credits against the account's caps and
 * settle in it, and a run reserves its calls of the service's day before it starts them.
 */
export const ACCOUNT_LEDGER = 'account-ledger';
/**
 * The patch of reconciling with the balance the account's ledger knew when the paid call's
 * reservation was granted (the account's paid calls go one at a time), rather than the run's own
 * last known balance, which other runs' charges made stale.
 */
export const LEDGER_BALANCE = 'ledger-balance';
/**
 * The patch of the job's checks as the run's first activity (`checkJob`, jobs/preflight.ts): the
 * files a job reads are read and parsed, its webhooks checked, before any call that costs.
 */
export const JOB_CHECKS = 'job-checks';
/**
 * The patch of a failed run's manifest: a run that fails writes a manifest that says why
 * (`recordFailedRun`), frees its reservation of the day's calls, and fails with the root cause
 * of its failure chain as its message (not "Activity task failed").
 */
export const FAILED_RUN_MANIFEST = 'failed-run-manifest';
/**
 * The patch of a lean history (what one API call costs the cluster): a short stream (at most
 * `INLINE_MAX_PAGES` pages) is paged in the run itself rather than in a child workflow (no child
 * to start, no signal per page); the top records to enrich are taken from the keys the pages
 * already gave (`run.topKeys`) rather than by an activity that reads the pages again; and the
 * day's calls are released by the activity that writes the manifest rather than by one of their
 * own. One patch for the three, so a run records one marker.
 */
export const LEAN_HISTORY = 'lean-history';
