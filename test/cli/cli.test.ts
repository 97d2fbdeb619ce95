/**
 * The `vir` entry as users run it: `cli/vir.sh` in a child process (its exit code, its stdout
 * and stderr: help, a one-line error), plus the long-running `sandbox` and `dev` commands
 * stopped by SIGTERM. What the command decides (exit codes, the one-line error or the stack,
 * the masked key) runs in process through `runVir`, the function cli/main.ts exits with: a
 * child process per case only adds the start of Node and tsx, which the first two cases prove.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runVir } from '../../cli/entry.js';
import { freePort } from '../../runtime/temporal-server.js';
import { portOpen, writeTmp } from './helpers.js';

const vir = fileURLToPath(new URL('../../cli/vir.sh', import.meta.url));

/** Runs `cli/vir.sh <args>` in a child process; resolves with its exit code and output. */
function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(vir, args, {
    env: { ...process.env, VIR_DEBUG: '', VIS_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** Runs `vir <args>` in process (cli/entry.ts, what cli/main.ts exits with); output as the process would print it. */
async function runIn(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVir(
    args,
    { ...process.env, VIR_DEBUG: '', VIS_API_KEY: '', ...env },
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    },
  );
  const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');
  return { code, stdout: text(out), stderr: text(err) };
}

/** Collects a child's output and resolves when a line matches. */
function waitForOutput(child: ChildProcess, re: RegExp, timeoutMs = 90_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`no output matching ${re} within ${timeoutMs} ms:\n${text}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (re.test(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before output matching ${re}:\n${text}`));
    });
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('vir in process (runVir)', () => {
  it('--help lists the commands and exits 0', async () => {
    const res = await runIn(['--help']);
    expect(res.code).toBe(0);
    for (const cmd of ['dev', 'worker', 'doctor', 'sandbox', 'runs', 'schedules']) {
      expect(res.stdout).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    }
  });

  it('shows the stack only with VIR_DEBUG=1', async () => {
    const plain = await runIn(['settings'], { VIR_LOG_LEVEL: 'chatty' });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^vir: VIR_LOG_LEVEL must be one of .*, got "chatty"\n$/);
    const res = await runIn(['settings'], { VIR_LOG_LEVEL: 'chatty', VIR_DEBUG: '1' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^vir: VIR_LOG_LEVEL must be one of .*, got "chatty"\n/);
    expect(res.stderr).toMatch(/SettingsError: VIR_LOG_LEVEL[\s\S]*\n\s+at /);
  });

  it('an unknown command or option exits 1', async () => {
    const cmd = await runIn(['frobnicate']);
    expect(cmd.code).toBe(1);
    expect(cmd.stderr).toContain("unknown command 'frobnicate'");
    const opt = await runIn(['runs', 'list', '--limit', 'zero']);
    expect(opt.code).toBe(1);
    expect(opt.stderr).toContain("option '--limit <n>' argument 'zero' is invalid");
  });

  it('a bad job file is one line naming the file, the job and the field, and exits 2', async () => {
    const file = writeTmp(
      'cli-bad-jobs.yaml',
      'jobs:\n  - id: Bad_Id\n    kind: market-report\n    title: x\n    countries: [Germany]\n',
    );
    const res = await runIn(['schedules', 'apply', file], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^vir: .*cli-bad-jobs\.yaml: job "Bad_Id": id: must be lowercase/);
  });

  it('never prints the key: settings masks it, errors redact it', async () => {
    const key = 'vis_live_cli_secret_987';
    const shown = await runIn(['settings'], { VIS_API_KEY: key });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^VIS_API_KEY\s+vis_live_…\(set\)$/m);
    expect(shown.stdout + shown.stderr).not.toContain('cli_secret');
    const res = await runIn(['doctor', '--timeout', '1000'], {
      VIS_API_KEY: key,
      VIS_BASE_URL: 'http://127.0.0.1:1',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^FAIL key/m);
    expect(res.stdout + res.stderr).not.toContain('cli_secret');
  });
});

describe('cli/vir.sh in a child process', () => {
  // Concurrent with the long-running commands below: each process is mostly the start of Node
  // and tsx. Those prove a clean exit (0) through vir.sh; this one an error's exit code and line.
  it.concurrent('a bad setting exits 1 with one line naming the variable, nothing on stdout', async () => {
    const bad = await run(['settings'], { VIR_RATE_LIMIT_PER_MINUTE: 'abc' });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('vir: VIR_RATE_LIMIT_PER_MINUTE must be a positive integer, got "abc"');
    expect(bad.stdout).toBe('');
  });

  it.concurrent('vir sandbox starts the sandbox with its flags and stops on SIGTERM', async () => {
    // In memory: a persisted state would share the repo's .data/sandbox/state.sqlite with any other sandbox.
    const child = spawn(vir, ['sandbox', '--port', '0', '--rate-per-minute', '7', '--state', 'memory'], {
      env: { ...process.env, VIS_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const text = await waitForOutput(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)![1]!;
      const res = await fetch(`${url}/v1/my_account`, {
        headers: { authorization: 'Bearer vis_live_sandbox_vc' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('7');
      child.kill('SIGTERM');
      expect(await exitOf(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.concurrent(
    'vir dev --no-worker starts Temporal, the sandbox, the mail catcher and the S3 server, prints their addresses, stops them on SIGTERM',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'vir-dev-'));
      const [temporalPort, uiPort, sandboxPort, smtpPort, s3Port] = [
        await freePort(),
        await freePort(),
        await freePort(),
        await freePort(),
        await freePort(),
      ];
      const child = spawn(vir, ['dev', '--no-worker'], {
        env: {
          ...process.env,
          VIS_API_KEY: '',
          TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
          VIR_TEMPORAL_UI_PORT: String(uiPort),
          VIR_SANDBOX_PORT: String(sandboxPort),
          VIR_DEV_SMTP_PORT: String(smtpPort),
          VIR_DEV_S3_PORT: String(s3Port),
          VIR_DATA_DIR: dataDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const text = await waitForOutput(child, /Press Ctrl-C to stop\./, 120_000);
        expect(text).toContain(`Temporal UI:      http://127.0.0.1:${uiPort}`);
        expect(text).toContain(`Temporal address: 127.0.0.1:${temporalPort} (namespace default)`);
        expect(text).toContain(`Sandbox:          http://127.0.0.1:${sandboxPort}`);
        expect(text).toContain(
          `Mail catcher:     smtp://127.0.0.1:${smtpPort}, messages saved in ${join(dataDir, 'mail')}`,
        );
        expect(text).toContain(
          `S3:               http://127.0.0.1:${s3Port} (bucket vir-reports, keys vir-dev / vir-dev-local-only-secret), objects in ${join(dataDir, 's3', 'vir-reports')}`,
        );
        expect(text).toContain('Workers:          (not started)');
        const ports = [temporalPort, sandboxPort, smtpPort, s3Port];
        for (const port of ports) expect(await portOpen(port)).toBe(true);
        child.kill('SIGTERM');
        expect(await exitOf(child)).toBe(0);
        for (const port of ports) expect(await portOpen(port)).toBe(false);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
