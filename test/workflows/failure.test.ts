/**
 * Why a run failed, from its failure chain: the deepest ApplicationFailure's message (what the
 * activity or the workflow said), not Temporal's wrappers; and the manifest a failed run names in
 * its failure's details. What `vir run`, `vir runs show` and the engine's guard all say.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { explainFailure, failureManifestPath } from '../../cli/run-job.js';
import { causeChain, failureReason, rootApplicationFailure } from '../../workflows/failure.js';

const ROOT = 'job "crm": suppress: suppression list jobs/crm.csv, line 3: not a readable CSV file';

/** A run's failure as the client sees it: the workflow's failure around an activity's. */
function activityFailed(details?: unknown) {
  const root = ApplicationFailure.create({ message: ROOT, type: 'job_check_failed', nonRetryable: true });
  const activity = new ActivityFailure(
    'Activity task failed',
    'checkJob',
    '1',
    RetryState.NON_RETRYABLE_FAILURE,
    undefined,
    root,
  );
  const workflow =
    details === undefined
      ? activity
      : ApplicationFailure.create({
          message: ROOT,
          type: 'job_check_failed',
          details: [details],
          cause: activity,
        });
  return new WorkflowFailedError('Workflow execution failed', workflow, RetryState.NON_RETRYABLE_FAILURE);
}

describe('failure reasons', () => {
  it('the deepest ApplicationFailure, not "Activity task failed"', () => {
    const err = activityFailed();
    expect(causeChain(err).map((e) => (e as Error).message)).toEqual([
      'Workflow execution failed',
      'Activity task failed',
      ROOT,
    ]);
    expect(rootApplicationFailure(err)?.type).toBe('job_check_failed');
    expect(failureReason(err)).toBe(ROOT);
    expect(explainFailure(err)).toBe(ROOT);
    expect(failureManifestPath(err)).toBeNull();
  });

  it('a failed run names its manifest in its failure', () => {
    const err = activityFailed({ manifestPath: '/reports/crm/2026-11-26/manifest.json' });
    expect(failureReason(err)).toBe(ROOT);
    expect(failureManifestPath(err)).toBe('/reports/crm/2026-11-26/manifest.json');
    expect(explainFailure(err)).toBe(`${ROOT} (manifest: /reports/crm/2026-11-26/manifest.json)`);
  });

  it('without an ApplicationFailure, the deepest message; a cycle ends', () => {
    const inner = new Error('socket hang up');
    const outer = new Error('request failed', { cause: inner });
    expect(failureReason(outer)).toBe('socket hang up');
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(causeChain(b)).toHaveLength(2);
    expect(failureReason('plain')).toBe('plain');
  });
});
