/**
 * Why a run failed, in one line a person reads: the root cause of a failure chain, as the
 * workflow (its failed-run manifest), `vir run`'s exit line and `vir runs show` all say it.
 * Temporal wraps an activity's failure ("Activity task failed") and a child's ("Child Workflow
 * execution failed") around the error that says what went wrong; that one is the deepest
 * ApplicationFailure of the chain. No I/O: workflows import it too.
 */
import { ApplicationFailure } from '@temporalio/common';

/** Causes followed at most (a chain is a few links long; a cycle must not loop). */
const MAX_DEPTH = 12;

/** The errors of a failure's `cause` chain, outermost first. */
export function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let e: unknown = err;
  while (e !== undefined && e !== null && chain.length < MAX_DEPTH && !chain.includes(e)) {
    chain.push(e);
    e = e instanceof Error ? e.cause : undefined;
  }
  return chain;
}

const isApplicationFailure = (e: unknown): e is ApplicationFailure =>
  e instanceof ApplicationFailure || (e instanceof Error && e.name === 'ApplicationFailure');

/** The deepest ApplicationFailure of a failure's chain (what an activity or a workflow threw), or null. */
export function rootApplicationFailure(err: unknown): ApplicationFailure | null {
  const found = causeChain(err).filter(isApplicationFailure);
  return found.at(-1) ?? null;
}

/**
 * The root cause's message: the deepest ApplicationFailure's, else the deepest error's.
 *
 * @example
 * failureReason(workflowFailedError)
 * // 'job "crm": suppress: suppression list jobs/crm.csv, line 3: not a readable CSV file (Invalid Opening Quote: …)'
 */
export function failureReason(err: unknown): string {
  const root = rootApplicationFailure(err);
  if (root && root.message.trim() !== '') return root.message;
  const deepest = causeChain(err)
    .filter((e): e is Error => e instanceof Error && e.message.trim() !== '')
    .at(-1);
  return deepest ? deepest.message : String(err);
}
