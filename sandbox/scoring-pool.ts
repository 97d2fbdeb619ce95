/**
 * The scoring pool: the paid finders' scoring off the event loop, so one account's heavy calls
 * never stall another's `my_account`.
 *
 * - Up to `size` worker threads, started when a job finds every thread busy (a sandbox that never
 *   runs a finder starts none). Each builds the finders' snapshot itself from the database's bytes.
 * - The database is the main thread's private in-memory copy (tests write to it at run time, raw
 *   UPDATEs included). Before each job the pool reads its data version (snapshot.ts dataVersion:
 *   the connection's total changes and row counts, well under a millisecond); when it moved, the
 *   bytes are serialized once into a SharedArrayBuffer and a thread gets them before its next job.
 * - Jobs wait in one queue per lane (the account): the pool takes turns between lanes.
 * - Idle threads are unref'd; close() terminates them all and refuses the jobs still waiting.
 */
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import {
  fromScoringError,
  type JobOf,
  type Scorer,
  type ScoringError,
  type ScoringJob,
  type ScoringKind,
  type ScoringResults,
} from './finders/scoring.js';
import { dataVersion } from './finders/snapshot.js';
import type { ToScoringThread } from './scoring-worker.js';

const THREAD_ENTRY = new URL('./scoring-thread.js', import.meta.url);

interface Pending {
  id: number;
  job: ScoringJob;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The data version this thread was sent last. */
  version: string | null;
  job: Pending | null;
  gone: boolean;
}

type FromScoringThread =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ScoringError };

export interface ScoringPoolOptions {
  db: DatabaseSync;
  /** Threads at most (at least 1). */
  size: number;
}

/**
 * Creates a scoring pool over a database (threads start on demand).
 *
 * @example
 * const pool = createScoringPool({ db, size: 2 });
 * const scores = await pool.score({ kind: 'fund', thesis, limit: 30, baseUrl }, account.id);
 * await pool.close();
 */
export function createScoringPool(options: ScoringPoolOptions): Scorer {
  const { db } = options;
  const size = Math.max(1, Math.floor(options.size));
  const slots: Slot[] = [];
  const lanes = new Map<string, Pending[]>();
  let data: { version: string; buffer: SharedArrayBuffer } | null = null;
  let nextId = 1;
  let closed = false;

  function currentData(): { version: string; buffer: SharedArrayBuffer } {
    const version = dataVersion(db);
    if (data?.version !== version) {
      const bytes = db.serialize();
      const buffer = new SharedArrayBuffer(bytes.byteLength);
      new Uint8Array(buffer).set(bytes);
      data = { version, buffer };
    }
    return data;
  }

  /** The next job, taking turns between lanes (a lane with more jobs goes to the back). */
  function takeNext(): Pending | undefined {
    for (const [lane, queue] of lanes) {
      const job = queue.shift();
      lanes.delete(lane);
      if (queue.length > 0) lanes.set(lane, queue);
      if (job) return job;
    }
    return undefined;
  }

  function settle(slot: Slot, outcome: { error: Error } | { result: unknown }): void {
    const pending = slot.job;
    slot.job = null;
    if (!slot.gone) slot.worker.unref();
    if (pending) {
      if ('error' in outcome) pending.reject(outcome.error);
      else pending.resolve(outcome.result);
    }
    pump();
  }

  function retire(slot: Slot, error: Error): void {
    if (slot.gone) return;
    slot.gone = true;
    slots.splice(slots.indexOf(slot), 1);
    settle(slot, { error });
  }

  function spawn(): Slot {
    const worker = new Worker(THREAD_ENTRY, { name: 'sandbox-scoring' });
    const slot: Slot = { worker, version: null, job: null, gone: false };
    worker.on('message', (message: FromScoringThread) => {
      if (slot.job?.id !== message.id) return;
      settle(slot, message.ok ? { result: message.result } : { error: fromScoringError(message.error) });
    });
    worker.on('error', (error) => retire(slot, new Error(`scoring thread failed: ${error.message}`)));
    worker.on('exit', (code) => retire(slot, new Error(`scoring thread exited (code ${code})`)));
    worker.unref();
    slots.push(slot);
    return slot;
  }

  function dispatch(slot: Slot, pending: Pending): void {
    slot.job = pending;
    slot.worker.ref();
    try {
      const { version, buffer } = currentData();
      if (slot.version !== version) {
        slot.worker.postMessage({ type: 'data', version, buffer } satisfies ToScoringThread);
        slot.version = version;
      }
      slot.worker.postMessage({ type: 'job', id: pending.id, job: pending.job } satisfies ToScoringThread);
    } catch (error) {
      settle(slot, { error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  function pump(): void {
    while (!closed && lanes.size > 0) {
      const slot = slots.find((s) => s.job === null) ?? (slots.length < size ? spawn() : undefined);
      if (!slot) return;
      const pending = takeNext();
      if (!pending) return;
      dispatch(slot, pending);
    }
  }

  return {
    score<K extends ScoringKind>(job: JobOf<K>, lane: string): Promise<ScoringResults[K]> {
      if (closed) return Promise.reject(new Error('the scoring pool is closed'));
      return new Promise<ScoringResults[K]>((resolve, reject) => {
        const pending: Pending = {
          id: nextId++,
          job,
          resolve: resolve as (result: unknown) => void,
          reject,
        };
        const queue = lanes.get(lane);
        if (queue) queue.push(pending);
        else lanes.set(lane, [pending]);
        pump();
      });
    },
    threads: () => slots.length,
    async close() {
      if (closed) return;
      closed = true;
      const refused = new Error('the sandbox is closing: the scoring pool is closed');
      for (const queue of lanes.values()) for (const pending of queue) pending.reject(refused);
      lanes.clear();
      data = null;
      await Promise.all(
        [...slots].map(async (slot) => {
          const exited = new Promise<void>((resolve) => slot.worker.once('exit', () => resolve()));
          await slot.worker.terminate();
          await exited;
        }),
      );
    },
  };
}
