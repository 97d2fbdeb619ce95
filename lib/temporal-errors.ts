/**
 * What a Temporal client call's error means, read on the error or its causes (the SDK wraps the
 * gRPC error once or twice), and a query that waits for its workflow to be able to answer.
 */
import type { Client } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';

/** Links of a cause chain looked at, at most. */
const CAUSE_DEPTH = 6;

/** gRPC's RESOURCE_EXHAUSTED. */
const RESOURCE_EXHAUSTED = 8;
/** gRPC's DEADLINE_EXCEEDED. */
const DEADLINE_EXCEEDED = 4;

/** Whether the error or one of its causes (an object's `cause`, a few links deep) passes `test`. */
export function someCause(
  err: unknown,
  test: (e: { code?: unknown; message?: unknown }) => boolean,
): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < CAUSE_DEPTH; depth += 1) {
    if (test(e)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether `message` is text that matches `re`. */
const says = (message: unknown, re: RegExp) => typeof message === 'string' && re.test(message);

/**
 * Whether the server refused an update as overloaded: the workflow's in-flight update limit
 * ("limit on number of concurrent in-flight updates has been reached") or another
 * RESOURCE_EXHAUSTED, on the error or a cause of it.
 */
export function isUpdateOverload(err: unknown): boolean {
  return someCause(
    err,
    ({ code, message }) =>
      code === RESOURCE_EXHAUSTED ||
      says(message, /in-flight updates|RESOURCE_EXHAUSTED|resource exhausted/i),
  );
}

/** Whether a request was given up at its deadline (gRPC's DEADLINE_EXCEEDED), on the error or a cause. */
export function isDeadlineExceeded(err: unknown): boolean {
  return someCause(
    err,
    ({ code, message }) =>
      code === DEADLINE_EXCEEDED || says(message, /DEADLINE_EXCEEDED|deadline exceeded/i),
  );
}

/**
 * Whether a query found its workflow before its first workflow task was scheduled (the server's
 * FAILED_PRECONDITION "Workflow task is not scheduled yet"), on the error or a cause: a query
 * right after the workflow's start or its continue-as-new; asked again a moment later, it is
 * answered.
 */
export function isNotScheduledYet(err: unknown): boolean {
  return someCause(err, ({ message }) => says(message, /workflow task is not scheduled yet/i));
}

/** A query of a workflow that is not yet able to answer, still unanswered at its deadline. */
export class QueryNotAnsweredError extends Error {
  override readonly name = 'QueryNotAnsweredError';
}

/**
 * Queries a workflow (its latest run), asking again while the server says its workflow task is
 * not scheduled yet (a workflow just started or continued as new), within `timeoutMs` in all.
 * Other errors (not found, no worker at the deadline) are thrown as they come.
 *
 * @example
 * const progress = await queryWhenReady(client, workflowId, progressQuery, [], 5000);
 */
export async function queryWhenReady<R, A extends unknown[]>(
  client: Pick<Client, 'withDeadline' | 'workflow'>,
  workflowId: string,
  query: QueryDefinition<R, A>,
  args: A,
  timeoutMs: number,
): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 25; ; pause = Math.min(pause * 2, 400)) {
    try {
      return await client.withDeadline(deadline, () =>
        client.workflow.getHandle(workflowId).query(query, ...args),
      );
    } catch (err) {
      if (!isNotScheduledYet(err)) throw err;
      const left = deadline - Date.now();
      if (left <= pause) {
        throw new QueryNotAnsweredError(
          `workflow ${workflowId} had no workflow task to answer a query within ${timeoutMs / 1000} s`,
          { cause: err },
        );
      }
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}
