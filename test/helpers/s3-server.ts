/**
 * A real S3-compatible server for tests: versitygw (built by scripts/build-versitygw.sh into
 * .tools/bin) with its posix backend in a temporary folder, on 127.0.0.1 and a free port, in its
 * own process group.
 *
 * @example
 * const s3 = await startS3Server();
 * try { ... new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3 }) ... }
 * finally { await s3.close(); }
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The versitygw binary: `VERSITYGW_PATH`, else the project's `.tools/bin/versitygw`. */
export const VERSITYGW_PATH = process.env.VERSITYGW_PATH ?? join(root, '.tools/bin/versitygw');

export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The posix backend's folder: one sub-folder per bucket, one file per object. */
  dir: string;
  /** What the server printed so far (its access log included). */
  output(): string;
  /** Kills the server's process group and removes its folders. */
  close(): Promise<void>;
}

/** A port nobody listens on right now (the server may still lose a race for it: the start retries). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts versitygw on 127.0.0.1 and a free port with random root keys and a posix backend in a
 * new temporary folder; resolves once it accepts connections (within `timeoutMs`).
 */
export async function startS3Server(
  options: { region?: string; timeoutMs?: number } = {},
): Promise<S3Server> {
  if (!existsSync(VERSITYGW_PATH)) {
    throw new Error(`versitygw is not built (${VERSITYGW_PATH}): run bash scripts/build-versitygw.sh`);
  }
  const region = options.region ?? 'us-east-1';
  const base = await mkdtemp(join(tmpdir(), 'vir-s3-'));
  const dir = join(base, 'data');
  const iamDir = join(base, 'iam');
  await mkdir(dir);
  await mkdir(iamDir);
  const accessKeyId = `test${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  let lastOutput = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      VERSITYGW_PATH,
      // --keep-alive: versitygw answers `Connection: close` without it, unlike AWS and most stores.
      ['--port', `127.0.0.1:${port}`, '--region', region, '--iam-dir', iamDir, '--keep-alive', 'posix', dir],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        // The root keys go by environment, not argv: not visible in `ps`.
        env: { ...process.env, ROOT_ACCESS_KEY_ID: accessKeyId, ROOT_SECRET_ACCESS_KEY: secretAccessKey },
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    let exited = false;
    const exit = new Promise<void>((resolve) =>
      child.once('exit', () => {
        exited = true;
        resolve();
      }),
    );
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    while (!exited && Date.now() < deadline && !(await answers(port))) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!exited && Date.now() < deadline) {
      const kill = async () => {
        if (!exited) {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            /* already gone */
          }
          await exit;
        }
      };
      return {
        endpoint: `http://127.0.0.1:${port}`,
        accessKeyId,
        secretAccessKey,
        region,
        dir,
        output: () => output,
        close: async () => {
          await kill();
          await rm(base, { recursive: true, force: true });
        },
      };
    }
    if (!exited) {
      process.kill(-child.pid!, 'SIGKILL');
      await exit;
    }
    lastOutput = output;
  }
  await rm(base, { recursive: true, force: true });
  throw new Error(`versitygw did not start:\n${lastOutput}`);
}
