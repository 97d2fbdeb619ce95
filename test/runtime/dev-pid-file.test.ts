/**
 * The pid file of `vir dev` (runtime/dev-pid-file.ts) against real processes: a recorded
 * `vir dev` still alive refuses the claim; one that is gone has its Temporal server group
 * stopped (SIGTERM, or SIGKILL when it ignores SIGTERM) and its ports waited for, but only
 * when the recorded pid is still the recorded process; an unreadable file is replaced; a file
 * is released only by its owner. The "servers" here are plain processes in groups of their own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DevAlreadyRunningError,
  claimDevPidFile,
  describeCleanup,
  devPidFilePath,
  readDevPidFile,
  type DevPidRecord,
  type DevPorts,
} from '../../runtime/dev-pid-file.js';
import { bootId, readProcess, type ProcessInfo } from '../../runtime/processes.js';
import { freePort, portIsFree } from '../../runtime/temporal-server.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vir-dev-pid-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A process leading a group of its own (as the Temporal CLI does under `vir dev`), seen in /proc. */
async function groupLeader(
  command: string,
  args: string[],
  ready?: (out: string) => boolean,
): Promise<ProcessInfo> {
  const child: ChildProcess = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  cleanups.push(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // stopped by the test
    }
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (ready?.(out)) resolve();
    });
    if (!ready) child.once('spawn', () => resolve());
  });
  // The exec into the command may lag the spawn event by a moment: wait for /proc to show it.
  for (;;) {
    const info = readProcess(child.pid!);
    if (info && info.argv[0]?.endsWith(command)) return info;
    await new Promise((r) => setImmediate(r));
  }
}

/** A process group holding a port on 127.0.0.1 until it is stopped. */
async function listener(port: number, ignoreTerm = false): Promise<ProcessInfo> {
  const code = [
    ignoreTerm ? "process.on('SIGTERM', () => {});" : '',
    `require('node:net').createServer().listen(${port}, '127.0.0.1', () => console.log('listening'));`,
  ].join('');
  return groupLeader(process.execPath, ['-e', code], (out) => out.includes('listening'));
}

function ports(frontend: number): DevPorts {
  return { host: '127.0.0.1', frontend, ui: null, sandbox: null };
}

/** A pid file as a `vir dev` that ran `vir` (a process record) with `temporal` would have left it. */
function writeRecord(
  dir: string,
  vir: ProcessInfo | DevPidRecord['vir'],
  temporal: DevPidRecord['temporal'],
  frontend = 0,
) {
  const record: DevPidRecord = {
    version: 1,
    dataDir: dir,
    startedAt: '2026-11-26T09:00:00.000Z',
    bootId: bootId(),
    vir: { pid: vir.pid, startTime: vir.startTime, argv: vir.argv },
    temporal,
    reusedTemporal: false,
    ports: ports(frontend),
  };
  writeFileSync(devPidFilePath(dir), JSON.stringify(record));
  return record;
}

function serverRecord(p: ProcessInfo): NonNullable<DevPidRecord['temporal']> {
  return { pid: p.pid, pgid: p.pgid, startTime: p.startTime, argv: p.argv };
}

/** A `vir dev` that is gone: a real pid (a live process) with another start time, as a recycled pid looks. */
async function goneVir(): Promise<DevPidRecord['vir']> {
  const other = await groupLeader('sleep', ['600']);
  return {
    pid: other.pid,
    startTime: `${Number(other.startTime) + 1}`,
    argv: ['node', 'cli/main.ts', 'dev'],
  };
}

describe('claimDevPidFile', () => {
  it('creates the file for this process on an empty data dir, and release removes it', async () => {
    const dir = dataDir();
    const { file, cleaned } = await claimDevPidFile(dir, ports(7233));
    expect(cleaned).toBeNull();
    const onDisk = readDevPidFile(devPidFilePath(dir));
    expect(onDisk?.vir.pid).toBe(process.pid);
    expect(onDisk?.vir.startTime).toBe(readProcess(process.pid)?.startTime);
    expect(onDisk?.ports).toEqual(ports(7233));

    file.update({ ports: { ui: 8233 }, reusedTemporal: true });
    const updated = readDevPidFile(devPidFilePath(dir));
    expect(updated?.ports).toEqual({ host: '127.0.0.1', frontend: 7233, ui: 8233, sandbox: null });
    expect(updated?.reusedTemporal).toBe(true);

    file.release();
    expect(readDevPidFile(devPidFilePath(dir))).toBeNull();
  });

  it('refuses while the recorded vir dev is alive, and stops nothing', async () => {
    const dir = dataDir();
    const vir = await groupLeader('sleep', ['600']);
    const server = await groupLeader('sleep', ['601']);
    writeRecord(dir, vir, serverRecord(server));
    const claim = claimDevPidFile(dir, ports(7233));
    await expect(claim).rejects.toBeInstanceOf(DevAlreadyRunningError);
    await expect(claim).rejects.toThrow(`vir dev is already running (pid ${vir.pid}) on the data dir ${dir}`);
    expect(readProcess(server.pid)?.startTime).toBe(server.startTime);
    expect(readDevPidFile(devPidFilePath(dir))?.vir.pid).toBe(vir.pid);
  });

  it('stops the server group a gone vir dev left running, waits for its port, and takes the file', async () => {
    const dir = dataDir();
    const port = await freePort();
    const server = await listener(port);
    expect(await portIsFree('127.0.0.1', port)).toBe(false);
    writeRecord(dir, await goneVir(), serverRecord(server), port);

    const { file, cleaned } = await claimDevPidFile(dir, ports(port));
    expect(cleaned?.stopped).toEqual({ pid: server.pid, pgid: server.pgid, outcome: 'SIGTERM' });
    expect(cleaned?.busyPorts).toEqual([]);
    expect(readProcess(server.pid)).toBeNull();
    expect(await portIsFree('127.0.0.1', port)).toBe(true);
    expect(file.record.vir.pid).toBe(process.pid);
    expect(readDevPidFile(devPidFilePath(dir))?.vir.pid).toBe(process.pid);
    expect(describeCleanup(cleaned!)).toBe(
      `cleaned up after a vir dev (pid ${cleaned!.record!.vir.pid}, started 2026-11-26T09:00:00.000Z) that is gone: ` +
        `stopped its Temporal dev server left running (pid ${server.pid}, process group ${server.pgid}, SIGTERM); ` +
        `removed ${devPidFilePath(dir)}`,
    );
  });

  it('sends SIGKILL to a server that ignores SIGTERM past the grace', async () => {
    const dir = dataDir();
    const port = await freePort();
    const server = await listener(port, true);
    writeRecord(dir, await goneVir(), serverRecord(server), port);
    const { cleaned } = await claimDevPidFile(dir, ports(port), { graceMs: 300 });
    expect(cleaned?.stopped?.outcome).toBe('SIGKILL');
    expect(readProcess(server.pid)).toBeNull();
    expect(cleaned?.busyPorts).toEqual([]);
  });

  it('leaves alone a recorded server pid that is now another process', async () => {
    const dir = dataDir();
    const other = await groupLeader('sleep', ['602']);
    writeRecord(dir, await goneVir(), { ...serverRecord(other), argv: ['temporal', 'server', 'start-dev'] });
    const { cleaned } = await claimDevPidFile(dir, ports(7233));
    expect(cleaned?.stopped).toBeNull();
    expect(cleaned?.note).toBe(`pid ${other.pid} is now another process (sleep); it was left alone`);
    expect(readProcess(other.pid)?.startTime).toBe(other.startTime);
    expect(describeCleanup(cleaned!)).toContain(`nothing to stop: pid ${other.pid} is now another process`);
  });

  it('says why nothing was stopped: no server, a server gone, a machine restarted since', async () => {
    const noServer = dataDir();
    writeRecord(noServer, await goneVir(), null);
    expect((await claimDevPidFile(noServer, ports(7233))).cleaned?.note).toBe('it had not started Temporal');

    const gone = dataDir();
    const exited = await groupLeader('sleep', ['603']);
    process.kill(-exited.pgid, 'SIGKILL');
    while (readProcess(exited.pid)) await new Promise((r) => setImmediate(r));
    writeRecord(gone, await goneVir(), serverRecord(exited));
    expect((await claimDevPidFile(gone, ports(7233))).cleaned?.note).toBe(
      `its Temporal server (pid ${exited.pid}) is gone`,
    );

    const rebooted = dataDir();
    const server = await groupLeader('sleep', ['604']);
    const record = writeRecord(rebooted, await goneVir(), serverRecord(server));
    writeFileSync(devPidFilePath(rebooted), JSON.stringify({ ...record, bootId: 'an-earlier-boot' }));
    const { cleaned } = await claimDevPidFile(rebooted, ports(7233));
    expect(cleaned?.note).toBe('it ran before the machine restarted');
    expect(readProcess(server.pid)?.startTime).toBe(server.startTime);
  });

  it('replaces a file it cannot read', async () => {
    const dir = dataDir();
    writeFileSync(devPidFilePath(dir), '{"version": 1, "vir": ');
    const { cleaned } = await claimDevPidFile(dir, ports(7233));
    expect(cleaned).toMatchObject({ record: null, stopped: null, note: 'the file could not be read' });
    expect(describeCleanup(cleaned!)).toContain(
      'cleaned up after a vir dev that is gone: nothing to stop: the file could not be read',
    );
    expect(readDevPidFile(devPidFilePath(dir))?.vir.pid).toBe(process.pid);
  });

  it('release leaves a file another vir dev has taken since', async () => {
    const dir = dataDir();
    const { file } = await claimDevPidFile(dir, ports(7233));
    const successor = await groupLeader('sleep', ['605']);
    writeRecord(dir, successor, null);
    file.release();
    expect(JSON.parse(readFileSync(devPidFilePath(dir), 'utf8')).vir.pid).toBe(successor.pid);
  });
});
