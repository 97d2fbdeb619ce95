/**
 * The run's first activity: the job's checks before any call that costs (jobs/preflight.ts),
 * the same ones `vir run` and `vir schedules apply` make. A schedule's run whose suppression file
 * went bad since the schedule was applied fails here, before it pays, naming the file, the line
 * and the reason.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { AnyJobKind } from './kind.js';
import { describeProblems, preflightProblems } from './preflight.js';
import type { CheckActivities, JobIdentity } from '../shared/types.js';

/** The failure type of a job refused by its checks (not retried: the job must change). */
export const JOB_CHECK_FAILED = 'job_check_failed';

/**
 * The check activities of the jobs task queue, for the registered kinds.
 *
 * @example
 * const acts = createCheckActivities(JOB_KINDS);
 * await acts.checkJob({ job }); // throws a non-retryable ApplicationFailure naming the field
 */
export function createCheckActivities(kinds: readonly AnyJobKind[]): CheckActivities {
  return {
    /**
     * Checks the job before its run spends anything; a problem is a non-retryable
     * ApplicationFailure (type `job_check_failed`) whose message names the job, the field and
     * what is wrong. `job` is the whole job as the workflow got it (its kind's fields too). A
     * kind it does not know is not checked (another worker version's job).
     */
    async checkJob(input: { job: JobIdentity }): Promise<void> {
      const kind = kinds.find((k) => k.kind === input.job.kind);
      if (!kind) return;
      const problems = await preflightProblems(kind, input.job);
      if (problems.length === 0) return;
      throw ApplicationFailure.create({
        message: describeProblems(input.job.id, problems),
        type: JOB_CHECK_FAILED,
        nonRetryable: true,
      });
    },
  };
}
