/**
 * Replaying recorded histories through the workers' workflow code (the bundle every worker
 * runs), and the check that every one replayed without nondeterminism.
 */
import { Worker } from '@temporalio/worker';
import { expect } from 'vitest';
import { workflowCode } from '../../runtime/workflow-bundle.js';
import type { RecordedHistory } from './histories.js';

/** Replays `histories` through the current workflow code; one result per history. */
export async function replay(histories: RecordedHistory[]) {
  const results: { workflowId: string; error?: unknown }[] = [];
  for await (const r of Worker.runReplayHistories(await workflowCode(), histories)) {
    results.push(r);
  }
  return results;
}

/** Expects `count` results, none of them failed. */
export function expectClean(results: { workflowId: string; error?: unknown }[], count: number) {
  expect(results.length).toBe(count);
  for (const r of results) expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
}
