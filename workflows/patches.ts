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
 * The patch of paging a short stream in the run itself (at most {@link INLINE_MAX_PAGES} pages)
 * rather than in a child workflow: no child to start and no signal per page, so a page costs the
 * run its activity's events and a share of a workflow task.
 */
export const INLINE_PAGING = 'inline-paging';
