/** The result of a completed run, for the commands that work on one (`redeliver`, `rerender`, `diff`). */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { CliError } from '../errors.js';
import type { JobRunResult } from '../../workflows/engine.js';

/**
 * The result of a completed run, or a CliError saying why there is none: no such run, or a run
 * not completed ("only a completed run's <what>"). `checkType` refuses a workflow of another type
 * first, with its own message.
 */
export async function completedRunResult(
  client: Client,
  workflowId: string,
  what: string,
  checkType?: (type: string) => void,
): Promise<JobRunResult> {
  try {
    const handle = client.workflow.getHandle(workflowId);
    const { status, type } = await handle.describe();
    checkType?.(type);
    if (status.name !== 'COMPLETED')
      throw new CliError(`run ${workflowId} is ${status.name.toLowerCase()}: only a completed run's ${what}`);
    return (await handle.result()) as JobRunResult;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError)
      throw new CliError(`no run ${workflowId} (vir runs list shows the runs)`);
    throw err;
  }
}
