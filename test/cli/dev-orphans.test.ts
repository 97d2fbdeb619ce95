/**
 * `vir dev` never leaves a Temporal server behind (real processes: cli/vir.sh, the Temporal CLI):
 * a `vir dev` killed by SIGKILL leaves its server running, and the next `vir dev` on the same
 * data dir stops it from the pid file and starts clean; ports taken by a server it did not
 * start are refused (or reused with --reuse-temporal), and nothing it did not start is killed.
 *
 * Every process is checked through /proc; a zombie counts as gone (PID 1 of some containers
 * never reaps the orphans it inherits).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { devPidFilePath, readDevPidFile, type DevPidRecord } from '../../runtime/dev-pid-file.js';
import { bootId, readProcess } from '../../runtime/processes.js';
import { freePort } from '../../runtime/temporal-server.js';
import { portOpen } from './helpers.js';

const vir = fileURLToPath(new URL('../../cli/vir.sh', import.meta.url));
const LIGHT = ['dev', '--headless', '--no-worker', '--no-sandbox', '--no-mail', '--no-s3'];

/** A `vir dev` started in a process group of its own, as a terminal would; its output collected. */
interface DevProcess {
  child: ChildProcess;
  text(): string;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vir-dev-orphans-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function devEnv(dataDir: string, temporalAddress: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    VIS_API_KEY: '',
    VIR_DEBUG: '',
    VIR_LOG_LEVEL: 'info',
    TEMPORAL_ADDRESS: temporalAddress,
    VIR_DATA_DIR: dataDir,
    // The portal on a free port: several vir dev run at once in the tests.
    VIR_PORTAL_PORT: '0',
  };
}

function startDev(env: NodeJS.ProcessEnv, args: string[]): DevProcess {
  const child = spawn(vir, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr.on('data', (c: Buffer) => (text += c.toString()));
  // Whatever happens, the test's own processes go: the group it started, then what it recorded.
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) signalGroup(child.pid!, 'SIGKILL');
  });
  return { child, text: () => text };
}

async function waitForText(dev: DevProcess, re: RegExp, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!re.test(dev.text())) {
    if (dev.child.exitCode !== null || dev.child.signalCode !== null) {
      throw new Error(
        `vir dev exited (${dev.child.exitCode ?? dev.child.signalCode}) before ${re}:\n${dev.text()}`,
      );
    }
    if (Date.now() > deadline)
      throw new Error(`no output matching ${re} within ${timeoutMs} ms:\n${dev.text()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return dev.text();
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone
  }
}

/** Kills a recorded server group at the end of a test, if it is still that very process. */
function killRecordedServerAfterwards(record: DevPidRecord): void {
  const server = record.temporal;
  if (!server) return;
  cleanups.push(() => {
    if (readProcess(server.pid)?.startTime === server.startTime) signalGroup(server.pgid, 'SIGKILL');
  });
}

/** Whether the process (pid, start time) is alive; a zombie is not. */
function alive(p: { pid: number; startTime: string | null }): boolean {
  const now = readProcess(p.pid);
  return now !== null && (p.startTime === null || now.startTime === p.startTime);
}

/** Pids of the Temporal servers on this data dir's SQLite file, from a scan of /proc. */
function temporalServersOf(dataDir: string): number[] {
  const db = join(dataDir, 'temporal.sqlite');
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = readProcess(Number(entry));
    if (p && basename(p.argv[0] ?? '') === 'temporal' && p.argv.includes(db)) pids.push(p.pid);
  }
  return pids;
}

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A plain TCP server on a free port of 127.0.0.1: a server `vir dev` did not start. */
async function foreignServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  const addr = server.address();
  return { server, port: typeof addr === 'object' && addr ? addr.port : 0 };
}

/** Runs `vir dev` that is expected to refuse; returns its exit code and stderr. */
async function refused(
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ code: number | null; stderr: string }> {
  const dev = startDev(env, args);
  const code = await exitOf(dev.child);
  return { code, stderr: dev.text() };
}

describe('vir dev and the servers it leaves', () => {
  it('a vir dev killed by SIGKILL leaves its server; the next one stops it, starts clean and leaves nothing', async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    const env = devEnv(dataDir, `127.0.0.1:${port}`);
    const pidFile = devPidFilePath(dataDir);

    // 1. A vir dev whose server does not die with it (as without Linux's parent-death signal).
    const first = startDev(env, [...LIGHT, '--no-parent-death-signal']);
    await waitForText(first, /Press Ctrl-C to stop\./);
    const rec1 = readDevPidFile(pidFile)!;
    killRecordedServerAfterwards(rec1);
    expect(rec1.temporal).not.toBeNull();
    const server1 = rec1.temporal!;
    expect(server1.pgid).toBe(server1.pid); // a process group of its own
    expect(rec1.ports).toEqual({ host: '127.0.0.1', frontend: port, ui: null, sandbox: null });
    expect(temporalServersOf(dataDir)).toEqual([server1.pid]);

    // 2. The crash: SIGKILL to the node process of vir dev only, not to its group.
    process.kill(rec1.vir.pid, 'SIGKILL');
    await exitOf(first.child);
    await until(() => !alive(rec1.vir), 5_000, 'the killed vir dev is gone');
    expect(alive(server1)).toBe(true); // the orphan
    expect(await portOpen(port)).toBe(true);
    expect(existsSync(pidFile)).toBe(true);

    // 3. The next vir dev on the same data dir stops the orphan and starts its own server.
    const second = startDev(env, LIGHT);
    const text = await waitForText(second, /Press Ctrl-C to stop\./);
    const rec2 = readDevPidFile(pidFile)!;
    killRecordedServerAfterwards(rec2);
    expect(text).toContain(
      `cleaned up after a vir dev (pid ${rec1.vir.pid}, started ${rec1.startedAt}) that is gone`,
    );
    expect(text).toMatch(
      new RegExp(
        `stopped its Temporal dev server left running \\(pid ${server1.pid}, process group ${server1.pgid}, SIG(TERM|KILL)\\)`,
      ),
    );
    expect(text).toContain(`Temporal address: 127.0.0.1:${port} (namespace default)`);
    expect(alive(server1)).toBe(false);
    expect(rec2.vir.pid).not.toBe(rec1.vir.pid);
    expect(rec2.temporal!.pid).not.toBe(server1.pid);
    expect(temporalServersOf(dataDir)).toEqual([rec2.temporal!.pid]);
    expect(await portOpen(port)).toBe(true);

    // 4. SIGINT (to vir, which tsx relays to its node process): nothing of either run is left.
    second.child.kill('SIGINT');
    expect(await exitOf(second.child)).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    for (const p of [rec1.vir, server1, rec2.vir, rec2.temporal!])
      expect(alive(p), `pid ${p.pid}`).toBe(false);
    expect(temporalServersOf(dataDir)).toEqual([]);
    expect(await portOpen(port)).toBe(false);
  }, 240_000);

  it.skipIf(!existsSync('/usr/bin/setpriv') || process.platform !== 'linux')(
    'by default the server also dies with a vir dev killed by SIGKILL (parent-death signal)',
    async () => {
      const dataDir = tempDataDir();
      const port = await freePort();
      const dev = startDev(devEnv(dataDir, `127.0.0.1:${port}`), LIGHT);
      await waitForText(dev, /Press Ctrl-C to stop\./);
      const rec = readDevPidFile(devPidFilePath(dataDir))!;
      killRecordedServerAfterwards(rec);
      process.kill(rec.vir.pid, 'SIGKILL');
      await exitOf(dev.child);
      await until(() => !alive(rec.temporal!), 30_000, 'the server died with its vir dev');
      await until(async () => !(await portOpen(port)), 10_000, 'the port is closed');
      expect(temporalServersOf(dataDir)).toEqual([]);
    },
    180_000,
  );

  it('refuses ports taken by a server it did not start, and leaves that server alone', async () => {
    const dataDir = tempDataDir();
    const foreign = await foreignServer();

    const onFrontend = await refused(devEnv(dataDir, `127.0.0.1:${foreign.port}`), LIGHT);
    expect(onFrontend.code).toBe(1);
    expect(onFrontend.stderr.trim()).toBe(
      `vir: 127.0.0.1:${foreign.port} (TEMPORAL_ADDRESS) is already in use by a server this vir dev did not start ` +
        `(no live vir dev pid file in ${dataDir} records it): stop what listens there, set TEMPORAL_ADDRESS to a free port, ` +
        'or pass --reuse-temporal to use the Temporal server there (vir dev will not stop it)',
    );

    const uiEnv = {
      ...devEnv(dataDir, `127.0.0.1:${await freePort()}`),
      VIR_TEMPORAL_UI_PORT: String(foreign.port),
    };
    const onUi = await refused(uiEnv, ['dev', '--no-worker', '--no-sandbox']);
    expect(onUi.code).toBe(1);
    expect(onUi.stderr).toMatch(
      new RegExp(
        `^vir: 127\\.0\\.0\\.1:${foreign.port} \\(VIR_TEMPORAL_UI_PORT\\) is already in use .*or pass --headless$`,
        'm',
      ),
    );

    // --reuse-temporal against something that is not a Temporal server: refused too.
    const notTemporal = await refused(devEnv(dataDir, `127.0.0.1:${foreign.port}`), [
      ...LIGHT,
      '--reuse-temporal',
    ]);
    expect(notTemporal.code).toBe(1);
    expect(notTemporal.stderr).toMatch(
      new RegExp(`^vir: no Temporal server answers at 127\\.0\\.0\\.1:${foreign.port}`, 'm'),
    );

    expect(foreign.server.listening).toBe(true);
    expect(await portOpen(foreign.port)).toBe(true);
    expect(existsSync(devPidFilePath(dataDir))).toBe(false);
    expect(temporalServersOf(dataDir)).toEqual([]);
  }, 120_000);

  it('refuses while the vir dev of its pid file is alive, naming its pid and the data dir', async () => {
    const dataDir = tempDataDir();
    const me = readProcess(process.pid)!;
    // This test process plays the live vir dev.
    const record: DevPidRecord = {
      version: 1,
      dataDir,
      startedAt: new Date().toISOString(),
      bootId: bootId(),
      vir: { pid: me.pid, startTime: me.startTime, argv: me.argv },
      temporal: null,
      reusedTemporal: false,
      ports: { host: '127.0.0.1', frontend: 7233, ui: null, sandbox: null },
    };
    const text = `${JSON.stringify(record)}\n`;
    writeFileSync(devPidFilePath(dataDir), text);
    const res = await refused(devEnv(dataDir, `127.0.0.1:${await freePort()}`), LIGHT);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      `vir: vir dev is already running (pid ${process.pid}) on the data dir ${dataDir}: stop it first ` +
        `(Ctrl-C in its terminal, or kill -TERM ${process.pid}), or start this one with another VIR_DATA_DIR`,
    );
    expect(readFileSync(devPidFilePath(dataDir), 'utf8')).toBe(text);
  }, 60_000);

  it('--reuse-temporal uses a running server and never stops it; a recycled pid in a stale pid file is left alone', async () => {
    const address = inject('temporalAddress');
    const port = Number(address.split(':').at(-1));
    const dataDir = tempDataDir();
    // A stale pid file whose "server" pid is now another process (a sleep of this test's).
    const sleeper = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    cleanups.push(() => signalGroup(sleeper.pid!, 'SIGKILL'));
    const sleeping = readProcess(sleeper.pid!)!;
    const gone = spawnSync('true').pid;
    const stale: DevPidRecord = {
      version: 1,
      dataDir,
      startedAt: '2026-01-01T00:00:00.000Z',
      bootId: bootId(),
      vir: { pid: gone, startTime: '1', argv: ['node', 'cli/main.ts', 'dev'] },
      temporal: {
        pid: sleeping.pid,
        pgid: sleeping.pgid,
        startTime: sleeping.startTime,
        argv: [
          '/somewhere/temporal',
          'server',
          'start-dev',
          '--db-filename',
          join(dataDir, 'temporal.sqlite'),
        ],
      },
      reusedTemporal: false,
      ports: { host: '127.0.0.1', frontend: await freePort(), ui: null, sandbox: null },
    };
    writeFileSync(devPidFilePath(dataDir), JSON.stringify(stale));

    const dev = startDev(devEnv(dataDir, address), [...LIGHT, '--reuse-temporal']);
    const text = await waitForText(dev, /Press Ctrl-C to stop\./);
    expect(text).toContain(`pid ${sleeping.pid} is now another process (sleep); it was left alone`);
    expect(text).toContain(
      `Temporal address: ${address} (namespace default; reused, not stopped by vir dev)`,
    );
    expect(readDevPidFile(devPidFilePath(dataDir))).toMatchObject({ reusedTemporal: true, temporal: null });
    expect(temporalServersOf(dataDir)).toEqual([]);
    // A fixed wait, as no event can say that something does not happen: a second in which
    // vir dev, with nothing of its own running, does not exit by itself.
    await new Promise((r) => setTimeout(r, 1000));
    expect(dev.child.exitCode).toBeNull(); // it waits for Ctrl-C with nothing of its own running

    dev.child.kill('SIGINT');
    expect(await exitOf(dev.child)).toBe(0);
    expect(alive(sleeping)).toBe(true);
    expect(existsSync(devPidFilePath(dataDir))).toBe(false);
    expect(await portOpen(port)).toBe(true); // the shared server still runs
  }, 120_000);
});
