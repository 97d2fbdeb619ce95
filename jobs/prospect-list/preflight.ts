/**
 * What a prospect list checks before any call that costs: its suppression list is read and
 * parsed (a binary file, or a CSV the parser cannot read, is refused with its file, line and
 * reason) before `find_customers` is paid for, not only when the list is merged.
 */
import type { JobProblem } from '../kind.js';
import type { ProspectListJob } from './job.js';
import { readSuppressionList, SuppressionFileError } from './suppression.js';

/**
 * The job's problems: its suppression list, read as the merge will read it.
 *
 * @example
 * await prospectListPreflight({ ...job, suppress: 'crm.csv' })
 * // [{ field: 'suppress', detail: 'suppression list crm.csv, line 3: not a readable CSV file (…)' }]
 */
export async function prospectListPreflight(job: Pick<ProspectListJob, 'suppress'>): Promise<JobProblem[]> {
  if (!job.suppress) return [];
  try {
    await readSuppressionList(job.suppress);
    return [];
  } catch (err) {
    if (err instanceof SuppressionFileError) return [{ field: 'suppress', detail: err.message }];
    throw err;
  }
}
