/**
 * Processes by pid on Linux, read from /proc: who a pid is now (its start time and command
 * line, so a recycled pid is told apart from the process once recorded), and stopping a
 * process group that is not our child (SIGTERM, then SIGKILL after a grace).
 */
import { readFileSync } from 'node:fs';
import { portIsFree } from './temporal-server.js';

/** A live process as /proc shows it. */
export interface ProcessInfo {
  pid: number;
  /** Process group id. */
  pgid: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22): with the pid, one process. */
  startTime: string;
  /** Its command line (argv[0] first); empty for kernel threads. */
  argv: string[];
}

/** Whether /proc can be read here (Linux). Without it no process is ever identified, hence never killed. */
export function procAvailable(): boolean {
  return readProcess(process.pid) !== null;
}

/** This boot's id (/proc/sys/kernel/random/boot_id), or null: start times compare only within one boot. */
export function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * The process with this pid, or null when there is none (or only its zombie, or no /proc).
 *
 * @example
 * const me = readProcess(process.pid); // { pid, pgid, startTime: '123456', argv: ['node', ...] }
 */
export function readProcess(pid: number): ProcessInfo | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  let stat: string;
  let cmdline: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp ... starttime ...": comm may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const pgid = Number(fields[2]);
  const startTime = fields[19];
  if (!state || state === 'Z' || state === 'X' || !startTime || !Number.isSafeInteger(pgid)) return null;
  const argv = cmdline.split('\0');
  if (argv.at(-1) === '') argv.pop();
  return { pid, pgid, startTime, argv };
}

/** Whether the process recorded as (pid, start time) is still alive: not gone, not a recycled pid. */
export function isSameProcess(pid: number, startTime: string): boolean {
  return readProcess(pid)?.startTime === startTime;
}

/** What {@link stopProcessGroup} had to send. */
export type StopOutcome = 'SIGTERM' | 'SIGKILL' | 'survived';

/**
 * Stops a process group whose leader is the recorded process: SIGTERM to the group, SIGKILL
 * after `graceMs` if the leader is still there. The caller has checked that the leader is the
 * process it recorded; once it is gone, the group is not signalled again (its id could be reused).
 */
export async function stopProcessGroup(
  leader: { pid: number; pgid: number; startTime: string },
  graceMs = 5_000,
): Promise<StopOutcome> {
  const alive = () => isSameProcess(leader.pid, leader.startTime);
  // The group only when the process leads it (a process sharing its parent's group goes alone).
  const target = leader.pgid === leader.pid ? -leader.pgid : leader.pid;
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(target, s);
    } catch {
      // the group is gone
    }
  };
  signal('SIGTERM');
  if (await waitUntil(() => !alive(), graceMs)) return 'SIGTERM';
  if (!alive()) return 'SIGTERM';
  signal('SIGKILL');
  return (await waitUntil(() => !alive(), 5_000)) ? 'SIGKILL' : 'survived';
}

/** Waits until nothing listens on these ports of `host`; returns those still taken after `timeoutMs`. */
export async function waitForPortsFree(host: string, ports: number[], timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy: number[] = [];
    for (const port of ports) if (!(await portIsFree(host, port))) busy.push(port);
    if (busy.length === 0 || Date.now() > deadline) return busy;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
