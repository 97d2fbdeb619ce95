/**
 * The pid file of `vir dev` in its data dir: who runs there (the `vir dev` process and the
 * Temporal dev server's pid and process group, with start times and command lines so a
 * recycled pid is never taken for them) and on which ports. A `vir dev` that died without
 * stopping (SIGKILL, a crash) leaves it behind; the next one reads it, stops the server group
 * left running, waits for its ports and starts clean. One `vir dev` per data dir.
 *
 * @example
 * const { file, cleaned } = await claimDevPidFile(dataDir, { host: '127.0.0.1', frontend: 7233, ui: 8233, sandbox: null });
 * if (cleaned?.stopped) log.warn(describeCleanup(cleaned));
 * // ... start the server, then: file.update({ temporal: {...} }) ... finally: file.release();
 */
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  bootId,
  procAvailable,
  readProcess,
  stopProcessGroup,
  waitForPortsFree,
  type StopOutcome,
} from './processes.js';

/** The pid file's name inside VIR_DATA_DIR. */
export const DEV_PID_FILE_NAME = 'vir-dev.pid.json';

const ProcessRecord = z.object({
  pid: z.number().int().positive(),
  /** /proc/<pid>/stat start time; null where /proc cannot be read. */
  startTime: z.string().nullable(),
  argv: z.array(z.string()),
});

const DevPidRecordSchema = z.object({
  version: z.literal(1),
  dataDir: z.string(),
  startedAt: z.string(),
  bootId: z.string().nullable(),
  vir: ProcessRecord,
  temporal: ProcessRecord.extend({ pgid: z.number().int().positive() }).nullable(),
  /** Whether this `vir dev` uses a Temporal server it did not start (never stopped by it). */
  reusedTemporal: z.boolean(),
  ports: z.object({
    host: z.string(),
    frontend: z.number().int().nonnegative(),
    ui: z.number().int().nonnegative().nullable(),
    sandbox: z.number().int().nonnegative().nullable(),
  }),
});

export type DevPidRecord = z.infer<typeof DevPidRecordSchema>;
export type DevPorts = DevPidRecord['ports'];

/** Another `vir dev` is alive on the same data dir. */
export class DevAlreadyRunningError extends Error {
  readonly code = 'dev_already_running';
  constructor(
    readonly pid: number,
    readonly dataDir: string,
    readonly file: string,
  ) {
    super(`vir dev is already running (pid ${pid}) on the data dir ${dataDir} (see ${file})`);
    this.name = 'DevAlreadyRunningError';
  }
}

/** What {@link claimDevPidFile} found and did about a pid file left behind. */
export interface StaleCleanup {
  file: string;
  /** The record read (null: the file could not be read; it was removed). */
  record: DevPidRecord | null;
  /** The Temporal server group stopped, and with which signal. */
  stopped: { pid: number; pgid: number; outcome: StopOutcome } | null;
  /** Why a recorded server was not stopped (gone already, pid now another process, ...). */
  note: string | null;
  /** Recorded ports still taken after the cleanup. */
  busyPorts: number[];
}

/** The pid file this `vir dev` holds. */
export class DevPidFile {
  #record: DevPidRecord;

  constructor(
    readonly path: string,
    record: DevPidRecord,
  ) {
    this.#record = record;
  }

  get record(): DevPidRecord {
    return this.#record;
  }

  /** Rewrites the file with these fields changed (atomically: a temporary file renamed over it). */
  update(patch: Partial<Omit<DevPidRecord, 'ports'>> & { ports?: Partial<DevPorts> }): void {
    this.#record = { ...this.#record, ...patch, ports: { ...this.#record.ports, ...patch.ports } };
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.#record, null, 2)}\n`);
    renameSync(tmp, this.path);
  }

  /** Removes the file if it is still this process's. */
  release(): void {
    const current = readDevPidFile(this.path);
    if (current && current.vir.pid !== this.#record.vir.pid) return;
    try {
      unlinkSync(this.path);
    } catch {
      // gone already
    }
  }
}

/** The pid file's record, or null when there is none or it cannot be read. */
export function readDevPidFile(path: string): DevPidRecord | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = DevPidRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Where the pid file of a data dir is. */
export function devPidFilePath(dataDir: string): string {
  return join(dataDir, DEV_PID_FILE_NAME);
}

/**
 * Creates the pid file for this process (exclusively: of two `vir dev` starting together, one
 * wins). A pid file left by a `vir dev` that is gone is cleaned first: its Temporal server group,
 * if still running and verifiably the recorded one, is stopped and its ports waited for.
 * Throws {@link DevAlreadyRunningError} when the recorded `vir dev` is alive.
 */
export async function claimDevPidFile(
  dataDir: string,
  ports: DevPorts,
  options: { reusedTemporal?: boolean; graceMs?: number } = {},
): Promise<{ file: DevPidFile; cleaned: StaleCleanup | null }> {
  mkdirSync(dataDir, { recursive: true });
  const path = devPidFilePath(dataDir);
  const me = readProcess(process.pid);
  const record: DevPidRecord = {
    version: 1,
    dataDir,
    startedAt: new Date().toISOString(),
    bootId: bootId(),
    vir: { pid: process.pid, startTime: me?.startTime ?? null, argv: process.argv },
    temporal: null,
    reusedTemporal: options.reusedTemporal === true,
    ports,
  };
  let cleaned: StaleCleanup | null = null;
  for (let attempt = 0; ; attempt += 1) {
    if (createExclusive(path, record)) return { file: new DevPidFile(path, record), cleaned };
    if (attempt >= 2) throw new Error(`cannot create ${path}: another vir dev keeps creating it`);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue; // removed in between
    }
    const existing = readDevPidFile(path);
    if (existing && virIsAlive(existing)) throw new DevAlreadyRunningError(existing.vir.pid, dataDir, path);
    cleaned = await cleanStale(path, existing, options.graceMs);
    // Remove it only if it is still the stale one (not a fresh one of a `vir dev` that won).
    try {
      if (readFileSync(path, 'utf8') === text) unlinkSync(path);
    } catch {
      // gone already
    }
  }
}

/** Writes the record to `path` unless a file is there: a complete temporary file hard-linked into place. */
function createExclusive(path: string, record: DevPidRecord): boolean {
  const tmp = `${path}.${randomUUID()}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}

/** Whether the recorded `vir dev` process still runs (without /proc: whether its pid exists). */
function virIsAlive(record: DevPidRecord): boolean {
  const { pid, startTime } = record.vir;
  if (pid === process.pid) return false;
  if (record.bootId && record.bootId !== bootId()) return false;
  if (procAvailable() && startTime !== null) return readProcess(pid)?.startTime === startTime;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function cleanStale(
  file: string,
  record: DevPidRecord | null,
  graceMs: number | undefined,
): Promise<StaleCleanup> {
  const result: StaleCleanup = { file, record, stopped: null, note: null, busyPorts: [] };
  if (!record) {
    result.note = 'the file could not be read';
    return result;
  }
  const server = record.temporal;
  if (!server) {
    result.note = record.reusedTemporal
      ? 'its Temporal server was not its own'
      : 'it had not started Temporal';
  } else if (record.bootId && record.bootId !== bootId()) {
    result.note = 'it ran before the machine restarted';
  } else if (!procAvailable() || server.startTime === null) {
    result.note = `pid ${server.pid} cannot be verified here (no /proc); it was left alone`;
  } else {
    const now = readProcess(server.pid);
    if (!now) {
      result.note = `its Temporal server (pid ${server.pid}) is gone`;
    } else if (
      now.startTime !== server.startTime ||
      now.pgid !== server.pgid ||
      JSON.stringify(now.argv) !== JSON.stringify(server.argv)
    ) {
      result.note = `pid ${server.pid} is now another process (${now.argv[0] ?? '?'}); it was left alone`;
    } else {
      const outcome = await stopProcessGroup(
        { pid: server.pid, pgid: server.pgid, startTime: server.startTime },
        graceMs,
      );
      result.stopped = { pid: server.pid, pgid: server.pgid, outcome };
    }
  }
  if (result.stopped) {
    const { frontend, ui, sandbox } = record.ports;
    const ports = [frontend, ui, sandbox].filter((p): p is number => p !== null && p > 0);
    result.busyPorts = await waitForPortsFree(record.ports.host, ports);
  }
  return result;
}

/** One line about a cleanup, for the log. */
export function describeCleanup(c: StaleCleanup): string {
  const who = c.record ? `vir dev (pid ${c.record.vir.pid}, started ${c.record.startedAt})` : 'vir dev';
  const what = c.stopped
    ? c.stopped.outcome === 'survived'
      ? `its Temporal dev server (pid ${c.stopped.pid}, process group ${c.stopped.pgid}) did not stop even on SIGKILL`
      : `stopped its Temporal dev server left running (pid ${c.stopped.pid}, process group ${c.stopped.pgid}, ${c.stopped.outcome})`
    : `nothing to stop: ${c.note ?? 'nothing recorded'}`;
  const ports = c.busyPorts.length > 0 ? `; ports still taken: ${c.busyPorts.join(', ')}` : '';
  return `cleaned up after a ${who} that is gone: ${what}; removed ${c.file}${ports}`;
}
