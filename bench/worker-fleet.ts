/**
 * `vir worker` processes started and stopped together for the cluster benchmark, and what their
 * logs say about contention on the account workflow.
 */
import {
  startWorkerProcess,
  type WorkerProcess,
  type WorkerProcessOptions,
} from '../runtime/worker-processes.js';

/** N worker processes of the same settings, started and stopped together. */
export interface WorkerFleet {
  workers: WorkerProcess[];
  stop(): Promise<void>;
}

/**
 * Starts `n` `vir worker` processes (runtime/worker-processes.ts: each in a folder of its own,
 * sharing only the S3 store) at once; resolves once all of them poll.
 */
export async function startWorkerFleet(
  n: number,
  options: Omit<WorkerProcessOptions, 'name'>,
): Promise<WorkerFleet> {
  const starts = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => startWorkerProcess({ ...options, name: `w${i + 1}` })),
  );
  const workers = starts.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stop = async () => {
    await Promise.all(workers.map((w) => w.stop(20_000)));
    for (const w of workers) w.remove();
  };
  const failed = starts.find((r) => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { workers, stop };
}

/** Lines of the workers' logs that say the account workflow was contended. */
export function contention(fleet: WorkerFleet): {
  updatesRefused: number;
  tasksLost: number;
  activityFailures: number;
} {
  let updatesRefused = 0;
  let tasksLost = 0;
  let activityFailures = 0;
  for (const w of fleet.workers) {
    for (const line of w.log().split('\n')) {
      if (line.includes('concurrent in-flight updates')) updatesRefused += 1;
      else if (line.includes('Task not found when completing')) tasksLost += 1;
      else if (line.includes('"Activity failed"')) activityFailures += 1;
    }
  }
  return { updatesRefused, tasksLost, activityFailures };
}
