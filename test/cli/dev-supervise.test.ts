/**
 * `vir dev` supervises what it starts (real processes: cli/vir.sh, the Temporal CLI): its
 * Temporal server killed by SIGKILL is said in one line and restarted on the same port with its
 * SQLite file (the pid file names the new process); the workers reconnect without a flood of
 * retry warnings, and a `vir run` of a smoke job then completes. Every wait is for an event (a
 * line of output, a port answering), never a fixed sleep.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';
import { devPidFilePath, readDevPidFile } from '../../runtime/dev-pid-file.js';
import { readProcess } from '../../runtime/processes.js';
import { freePort, temporalExecutable } from '../../runtime/temporal-server.js';
import { portOpen } from './helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const vir = join(root, 'cli/vir.sh');

/** What a test undoes when it ends, last first (each test its own: the two run at once). */
type Cleanups = (() => Promise<void> | void)[];

/** A test's cleanups, run when it finishes (passed or not). */
function cleanupsOf(onTestFinished: (fn: () => Promise<void>) => void): Cleanups {
  const cleanups: Cleanups = [];
  onTestFinished(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  return cleanups;
}

/** A process started in a group of its own, its output (stdout and stderr) collected. */
interface Started {
  child: ChildProcess;
  text(): string;
}

function start(args: string[], env: NodeJS.ProcessEnv, cleanups: Cleanups): Started {
  const child = spawn(vir, args, { env, cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr.on('data', (c: Buffer) => (text += c.toString()));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });
  return { child, text: () => text };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** Waits for output matching `re` (from `from` on); fails with the output when the process exits first. */
async function waitForText(p: Started, re: RegExp, timeoutMs: number, from = 0): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = re.exec(p.text().slice(from));
    if (m) return m[0];
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      throw new Error(`exited (${p.child.exitCode ?? p.child.signalCode}) before ${re}:\n${p.text()}`);
    if (Date.now() > deadline)
      throw new Error(`no output matching ${re} within ${timeoutMs} ms:\n${p.text()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Lines of pino's JSON output at warn level (40) or above that are warnings (not errors). */
function warnings(text: string): string[] {
  return text.split('\n').filter((l) => l.includes('"level":40'));
}

/** Starts a headless `vir dev` (no mail, no S3, sandbox state in memory) and waits for it to run; its server from the pid file. */
async function startDev(env: NodeJS.ProcessEnv, dataDir: string, cleanups: Cleanups) {
  const dev = start(
    ['dev', '--headless', '--no-mail', '--no-s3', '--sandbox-state', 'memory'],
    env,
    cleanups,
  );
  await waitForText(dev, /Press Ctrl-C to stop\./, 180_000);
  const pidFile = devPidFilePath(dataDir);
  return { dev, pidFile, server: readDevPidFile(pidFile)!.temporal! };
}

// The two tests are independent (their own vir dev, ports, data folder): they run at once.
it.concurrent(
  'its Temporal server killed by SIGKILL: one line, a restart on the same port and file, a run completes, no flood',
  async ({ onTestFinished, expect }) => {
    const cleanups = cleanupsOf(onTestFinished);
    const dataDir = mkdtempSync(join(tmpdir(), 'vir-dev-supervise-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const sandboxPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      VIS_API_KEY: '',
      VIS_BASE_URL: '',
      VIR_DEBUG: '',
      VIR_LOG_LEVEL: 'info',
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
      VIR_SANDBOX_PORT: String(sandboxPort),
      // The portal on a free port: the two tests' vir dev run at once.
      VIR_PORTAL_PORT: '0',
      VIR_DATA_DIR: dataDir,
      VIR_REPORTS_DIR: '',
      VIR_STORE_DIR: '',
      VIR_TASK_QUEUE: '',
      VIR_API_TASK_QUEUE: '',
      VIR_ACCOUNT_TASK_QUEUE: '',
    };
    for (const [k, v] of Object.entries(env)) if (v === '') delete env[k];
    const { dev, pidFile, server: first } = await startDev(env, dataDir, cleanups);
    // The report portal is up beside the other servers, on this machine's address, and answers.
    const portalUrl = /^Portal: +(http:\/\/127\.0\.0\.1:\d+)$/m.exec(dev.text())?.[1];
    expect(portalUrl, dev.text()).toBeDefined();
    const jobsPage = await fetch(`${portalUrl}/`, { headers: { accept: 'text/html' } });
    expect(jobsPage.status, await jobsPage.clone().text()).toBe(200);
    expect(await jobsPage.text()).toContain('<h1>Jobs</h1>');
    const db = join(dataDir, 'temporal.sqlite');
    expect(first.argv).toContain(db);
    cleanups.push(() => {
      const rec = readDevPidFile(pidFile)?.temporal;
      for (const s of [first, rec]) {
        if (s && readProcess(s.pid)?.startTime === s.startTime) process.kill(-s.pgid, 'SIGKILL');
      }
    });

    // The crash: SIGKILL to the server process alone.
    const before = dev.text().length;
    process.kill(first.pid, 'SIGKILL');
    const said = await waitForText(
      dev,
      /^.*Temporal dev server \(pid \d+\) was killed by SIGKILL.*$/m,
      30_000,
      before,
    );
    expect(said).toContain(
      `(pid ${first.pid}) was killed by SIGKILL: restarting it (on 127.0.0.1:${port}, same SQLite file ${db})`,
    );
    const back = await waitForText(dev, /^.*Temporal dev server restarted.*$/m, 120_000, before);
    expect(back).toMatch(new RegExp(`answering on 127\\.0\\.0\\.1:${port}; the workers reconnect`));
    expect(await portOpen(port)).toBe(true);
    const second = readDevPidFile(pidFile)!.temporal!;
    expect(second.pid).not.toBe(first.pid);
    expect(second.argv).toContain(db);
    expect(readProcess(second.pid)?.startTime).toBe(second.startTime);

    // A run on the restarted server, through the workers that were kept.
    const jobFile = join(dataDir, 'supervise.yaml');
    writeFileSync(
      jobFile,
      'jobs:\n  - id: after-restart\n    kind: smoke\n    title: After a restart\n    country: Germany\n    records: 120\n',
    );
    const run = start(
      ['run', 'after-restart', '--file', jobFile],
      {
        ...env,
        VIS_BASE_URL: `http://127.0.0.1:${sandboxPort}`,
        VIS_API_KEY: 'vis_live_sandbox_vc',
      },
      cleanups,
    );
    const code = await Promise.race([
      exitOf(run.child),
      new Promise<'late'>((r) => setTimeout(() => r('late'), 90_000)),
    ]);
    expect(code, run.text()).toBe(0);
    expect(run.text()).toMatch(/Complete run smoke-after-restart-/);

    // Bounded: the line about the kill, maybe a few, never the hundreds of retries.
    const after = dev.text().slice(before);
    const warned = warnings(after);
    expect(warned.length, warned.join('\n')).toBeLessThan(10);
    expect(after).not.toMatch(/temporalio_client::retry/);
    expect(dev.child.exitCode).toBeNull();

    // Ctrl-C still stops everything, the restarted server too, and removes the pid file.
    dev.child.kill('SIGINT');
    expect(await exitOf(dev.child)).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    expect(readProcess(second.pid)?.startTime === second.startTime).toBe(false); // a zombie reads as gone
    expect(await portOpen(port)).toBe(false);
    expect(await portOpen(Number(new URL(portalUrl!).port))).toBe(false);
  },
  // The sum of its waits' bounds: vir dev up (180 s), the kill said (30 s), the restart (120 s),
  // the run (90 s); each wait names its event and fails at its own bound first.
  420_000,
);

it.concurrent(
  'a Temporal server that cannot be restarted stops vir dev and its workers cleanly: one line why, exit 1, no pid file',
  async ({ onTestFinished, expect }) => {
    const cleanups = cleanupsOf(onTestFinished);
    const dataDir = mkdtempSync(join(tmpdir(), 'vir-dev-supervise-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // The server's executable runs the real one the first time, and fails once the marker exists.
    const marker = join(dataDir, 'broken');
    const wrapper = join(dataDir, 'temporal');
    writeFileSync(
      wrapper,
      `#!/bin/sh\nif [ -e '${marker}' ]; then echo 'broken on purpose' >&2; exit 3; fi\nexec '${temporalExecutable()}' "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      VIS_API_KEY: '',
      VIR_DEBUG: '',
      VIR_LOG_LEVEL: 'info',
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
      TEMPORAL_CLI_PATH: wrapper,
      VIR_DATA_DIR: dataDir,
      VIR_PORTAL_PORT: '0',
    };
    env.VIR_SANDBOX_PORT = String(await freePort());
    const { dev, pidFile, server } = await startDev(env, dataDir, cleanups);
    cleanups.push(() => {
      if (readProcess(server.pid)?.startTime === server.startTime) process.kill(-server.pgid, 'SIGKILL');
    });
    writeFileSync(marker, '');
    process.kill(server.pid, 'SIGKILL');
    const code = await Promise.race([
      exitOf(dev.child),
      new Promise<'still running'>((r) => setTimeout(() => r('still running'), 60_000)),
    ]);
    expect(code, dev.text()).toBe(1);
    expect(dev.text()).toContain(
      `the Temporal dev server (pid ${server.pid}) was killed by SIGKILL: restarting it`,
    );
    expect(dev.text()).toMatch(
      /^vir: vir dev stops: the Temporal dev server could not be restarted \(Temporal dev server exited with 3 before it answered/m,
    );
    expect(existsSync(pidFile)).toBe(false);
    expect(await portOpen(port)).toBe(false);
  },
  // vir dev up (180 s) and its exit after the failed restart (60 s), with room for the cleanups.
  300_000,
);
