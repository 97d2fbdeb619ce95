/**
 * The outside witness of a run's attempts: what the sandbox's request log saw, per operation,
 * in the shape of the manifest's `calls.attempts.byOperation`.
 */
import type { OperationAttempts } from '../../shared/types.js';
import type { SandboxRequest } from '../../sandbox/index.js';

/** Requests per operation as the service saw them: a 200 the caller got succeeded, anything else failed. */
export function attemptsSeen(log: readonly SandboxRequest[]): Record<string, OperationAttempts> {
  const seen: Record<string, OperationAttempts> = {};
  for (const r of log) {
    const row = (seen[r.operation] ??= { attempted: 0, succeeded: 0, failed: 0 });
    row.attempted += 1;
    if (r.status === 200 && r.fault === undefined) row.succeeded += 1;
    else row.failed += 1;
  }
  return seen;
}

/** A manifest's attempts, read from its file's JSON. */
export function manifestAttempts(manifest: unknown): Record<string, OperationAttempts> {
  return (manifest as { calls: { attempts: { byOperation: Record<string, OperationAttempts> } } }).calls
    .attempts.byOperation;
}
