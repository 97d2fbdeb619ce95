/**
 * Heartbeats for activities: while an activity runs, its worker tells Temporal it is alive every
 * third of the heartbeat timeout, so a worker that dies (SIGKILL, a lost machine) is seen within
 * that timeout and the activity is retried elsewhere, instead of waiting out its start-to-close
 * timeout (minutes for a render).
 */
import { Context } from '@temporalio/activity';

/**
 * Heartbeats while `work` runs, when called inside an activity that has a heartbeat timeout;
 * `details` gives what each heartbeat records (the next attempt reads the last one).
 */
export function heartbeatWhile<T>(work: Promise<T>, details?: () => unknown): Promise<T> {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return work; // called outside an activity (unit tests)
  }
  const every = ctx.info.heartbeatTimeoutMs;
  if (!every) return work;
  const beat = () => ctx.heartbeat(details?.());
  const timer = setInterval(beat, Math.max(200, Math.floor(every / 3)));
  beat();
  return work.finally(() => clearInterval(timer));
}

/** Records heartbeat details at once, inside an activity (outside one, unit tests: nothing). */
export function heartbeatNow(details: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    // outside an activity: nothing to record
  }
}

/**
 * The same activities, each heartbeating while it runs.
 *
 * @example
 * const activities = withHeartbeats({ async render(input) { ... } });
 */
export function withHeartbeats<A extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: A,
): A {
  const out: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = (...args: never[]) => heartbeatWhile(fn(...args));
  }
  return out as A;
}
