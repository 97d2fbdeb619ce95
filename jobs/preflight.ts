/**
 * The checks a job goes through before any call that costs, in one place for the CLI (`vir run`,
 * `vir schedules apply`) and the run's first activity (`checkJob`, jobs/check.ts): the
 * kind's own (`preflight`: the files it reads, values the service would refuse) and the shared
 * ones (a webhook destination on another machine must be https unless it says `insecure: true`).
 */
import { webhookUrlProblem } from '../config/destinations.js';
import type { BaseJob } from './base.js';
import type { AnyJobKind, JobProblem } from './kind.js';

/** Problems of a job's delivery destinations that every kind shares, each naming its field. */
export function deliveryProblems(job: Pick<BaseJob, 'delivery'>): JobProblem[] {
  const problems: JobProblem[] = [];
  (job.delivery ?? []).forEach((d, i) => {
    if (d.kind !== 'webhook') return;
    const problem = webhookUrlProblem(d.webhook);
    if (problem) problems.push({ field: `delivery[${i}].webhook.url`, detail: problem });
  });
  return problems;
}

/**
 * Every problem a job has before its run spends anything: the shared checks, then its kind's
 * own. Reads the files the job names (never the service).
 *
 * @example
 * const problems = await preflightProblems(prospectListKind, job);
 * // [{ field: 'suppress', detail: 'suppression list /jobs/crm.csv, line 3: not a readable CSV file (…)' }]
 */
export async function preflightProblems(
  kind: AnyJobKind,
  job: Pick<BaseJob, 'id' | 'kind' | 'delivery'>,
): Promise<JobProblem[]> {
  return [...deliveryProblems(job), ...((await kind.preflight?.(job)) ?? [])];
}

/**
 * The problems of one job in one line: `job "<id>": <field>: <detail>`, several joined by `; `.
 *
 * @example
 * describeProblems('crm-weekly', [{ field: 'suppress', detail: 'suppression list x.csv, line 3: …' }])
 * // 'job "crm-weekly": suppress: suppression list x.csv, line 3: …'
 */
export function describeProblems(jobId: string, problems: readonly JobProblem[]): string {
  return problems.map((p) => `job "${jobId}": ${p.field}: ${p.detail}`).join('; ');
}
