/**
 * A scoring thread (started by sandbox/scoring-pool.ts through scoring-thread.js): holds the
 * finders' snapshot of the data the main thread sent last and runs scoring jobs on it.
 *
 * Messages in: `{ type: 'data', version, buffer }` (the database's bytes in a SharedArrayBuffer:
 * the thread deserializes them into a private in-memory database, builds the snapshot and closes
 * the database again) and `{ type: 'job', id, job }`. Out: `{ id, ok: true, result }` or
 * `{ id, ok: false, error }`.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort } from 'node:worker_threads';
import { runScoringJob, toScoringError, type ScoringJob } from './finders/scoring.js';
import { buildSnapshot, type Snapshot } from './finders/snapshot.js';

export type ToScoringThread =
  { type: 'data'; version: string; buffer: SharedArrayBuffer } | { type: 'job'; id: number; job: ScoringJob };

let snapshot: Snapshot | Error | null = null;

function load(version: string, buffer: SharedArrayBuffer): Snapshot | Error {
  const db = new DatabaseSync(':memory:');
  try {
    db.deserialize(new Uint8Array(buffer));
    return buildSnapshot(db, version);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    db.close();
  }
}

const port = parentPort;
if (!port) throw new Error('sandbox/scoring-worker.ts runs as a worker thread of the scoring pool');
port.on('message', (message: ToScoringThread) => {
  if (message.type === 'data') {
    snapshot = null; // the old one can go before the new one is built
    snapshot = load(message.version, message.buffer);
    return;
  }
  try {
    if (snapshot === null) throw new Error('scoring thread: a job came before any data');
    if (snapshot instanceof Error) throw snapshot;
    port.postMessage({ id: message.id, ok: true, result: runScoringJob(snapshot, message.job) });
  } catch (error) {
    port.postMessage({ id: message.id, ok: false, error: toScoringError(error) });
  }
});
