/**
 * versitygw, an S3-compatible server, with its posix backend (a folder per bucket, a file per
 * object): `vir dev`'s local object store, and the tests' (test/helpers/s3-server.ts).
 *
 * `startVersitygw` runs the binary (built by scripts/build-versitygw.sh into .tools/bin, or
 * `VERSITYGW_PATH`) on 127.0.0.1 in a process group of its own, with the root keys passed by
 * environment (not visible in `ps`), and resolves once it accepts connections. `startDevS3` is
 * `vir dev`'s: its data in `<VIR_DATA_DIR>/s3` (kept across restarts), fixed local keys, and the
 * bucket `vir-reports` created when missing.
 *
 * @example
 * const s3 = await startDevS3({ dataDir: settings.dataDir, port: 7070 });
 * // s3.endpoint = http://127.0.0.1:7070, objects in <dataDir>/s3/vir-reports/...
 * await s3.close();
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findSetpriv, freePort, PortInUseError, portIsFree } from './temporal-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The script that builds versitygw into .tools/bin. */
export const VERSITYGW_BUILD_SCRIPT = 'scripts/build-versitygw.sh';

/** The versitygw binary: `VERSITYGW_PATH`, else the project's `.tools/bin/versitygw`. */
export function versitygwPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.VERSITYGW_PATH || join(root, '.tools/bin/versitygw');
}

/** versitygw is not where it is looked for. */
export class VersitygwMissingError extends Error {
  readonly code = 'versitygw_missing';
  constructor(readonly path: string) {
    super(
      `versitygw is not built (${path}): run bash ${VERSITYGW_BUILD_SCRIPT} (Go 1.25 or newer), or set VERSITYGW_PATH`,
    );
    this.name = 'VersitygwMissingError';
  }
}

export interface VersitygwOptions {
  /** The posix backend's folder: one sub-folder per bucket (created when missing). */
  dir: string;
  /** The internal IAM service's folder (created when missing); outside `dir`, or it would be a bucket. */
  iamDir: string;
  /** Port on `host`; 0 picks a free one (and tries again, up to 3 times, when another process takes it first). */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default us-east-1. */
  region?: string;
  /** The root user's keys (passed by environment). */
  accessKeyId: string;
  secretAccessKey: string;
  /** Time to wait for the server to accept connections (ms); default 15 s. */
  timeoutMs?: number;
  /**
   * Have Linux send the server SIGTERM when this process dies, even by SIGKILL (util-linux
   * `setpriv --pdeathsig`; ignored where it is not found).
   */
  dieWithParent?: boolean;
  /** The binary; default {@link versitygwPath}. */
  executable?: string;
}

export interface RunningVersitygw {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  host: string;
  port: number;
  region: string;
  pid: number;
  /** Resolves, with how (`exited with code 1`, `was killed by SIGKILL`), when the server process exits. */
  exited: Promise<string>;
  /** The last 64 KB the server printed (its access log included). */
  output: () => string;
  /** Stops the server's process group (SIGTERM, SIGKILL after 3 s); idempotent. */
  close: () => Promise<void>;
}

const OUTPUT_TAIL = 64 * 1024;

/** Whether something accepts TCP connections on host:port. */
function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.end();
      resolveAnswer(true);
    });
    socket.once('error', () => resolveAnswer(false));
  });
}

/** Starts versitygw with its posix backend; resolves once it accepts connections. */
export async function startVersitygw(options: VersitygwOptions): Promise<RunningVersitygw> {
  const executable = options.executable ?? versitygwPath();
  if (!existsSync(executable)) throw new VersitygwMissingError(executable);
  const host = options.host ?? '127.0.0.1';
  const region = options.region ?? 'us-east-1';
  await mkdir(options.dir, { recursive: true });
  await mkdir(options.iamDir, { recursive: true });
  const setpriv = options.dieWithParent && process.platform === 'linux' ? findSetpriv() : null;
  let lastOutput = '';
  for (let attempt = 1; attempt <= (options.port === 0 ? 3 : 1); attempt++) {
    const port = options.port === 0 ? await freePort(host) : options.port;
    if (options.port !== 0 && !(await portIsFree(host, port))) throw new PortInUseError(host, port);
    // --keep-alive: versitygw answers `Connection: close` without it, unlike AWS and most stores.
    const args = ['--port', `${host}:${port}`, '--region', region, '--iam-dir', options.iamDir];
    args.push('--keep-alive', 'posix', options.dir);
    const child = spawn(
      setpriv ?? executable,
      setpriv ? ['--pdeathsig', 'TERM', '--', executable, ...args] : args,
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ROOT_ACCESS_KEY_ID: options.accessKeyId,
          ROOT_SECRET_ACCESS_KEY: options.secretAccessKey,
        },
      },
    );
    let output = '';
    const collect = (c: Buffer) => {
      output = (output + c.toString()).slice(-OUTPUT_TAIL);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let exited = false;
    const exitedHow = new Promise<string>((resolveExit) =>
      child.once('exit', (code, sig) => {
        exited = true;
        resolveExit(sig ? `was killed by ${sig}` : `exited with code ${code ?? '?'}`);
      }),
    );
    const exit = exitedHow.then(() => undefined);
    const signal = (s: NodeJS.Signals) => {
      try {
        if (!exited) process.kill(-child.pid!, s);
      } catch {
        // already gone
      }
    };
    // Out of the terminal's process group the server hears no Ctrl-C: if this process exits
    // without close(), it still gets SIGTERM.
    const onExit = () => signal('SIGTERM');
    process.once('exit', onExit);
    void exit.then(() => process.off('exit', onExit));

    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    while (!exited && Date.now() < deadline && !(await answers(host, port))) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!exited && Date.now() < deadline) {
      let closing: Promise<void> | null = null;
      return {
        endpoint: `http://${host}:${port}`,
        host,
        port,
        region,
        pid: child.pid!,
        exited: exitedHow,
        output: () => output,
        close: () =>
          (closing ??= (async () => {
            signal('SIGTERM');
            const timer = setTimeout(() => signal('SIGKILL'), 3_000);
            await exit;
            clearTimeout(timer);
          })()),
      };
    }
    signal('SIGKILL');
    await exit;
    lastOutput = output;
  }
  throw new Error(`versitygw did not start:\n${lastOutput}`);
}

/** vir dev's S3 root keys: fixed, public, for the local server only (never use them elsewhere). */
export const DEV_S3_ACCESS_KEY_ID = 'vir-dev';
export const DEV_S3_SECRET_ACCESS_KEY = 'vir-dev-local-only-secret';
/** The bucket vir dev creates. */
export const DEV_S3_BUCKET = 'vir-reports';
export const DEV_S3_REGION = 'us-east-1';

export interface DevS3Options {
  /** VIR_DATA_DIR: the objects go to `<dataDir>/s3/<bucket>/`, the server's IAM data to `<dataDir>/s3-iam`. */
  dataDir: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Default {@link DEV_S3_BUCKET}. */
  bucket?: string;
  dieWithParent?: boolean;
  timeoutMs?: number;
  /** The binary; default {@link versitygwPath}. */
  executable?: string;
}

export interface DevS3 extends RunningVersitygw {
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The posix backend's folder (`<dataDir>/s3`): the bucket is the folder `<dir>/<bucket>`. */
  dir: string;
}

/**
 * Starts vir dev's S3 server and creates its bucket when missing (an existing bucket and its
 * objects are kept). Throws {@link VersitygwMissingError} when the binary is not built.
 */
export async function startDevS3(options: DevS3Options): Promise<DevS3> {
  const dir = join(options.dataDir, 's3');
  const bucket = options.bucket ?? DEV_S3_BUCKET;
  const server = await startVersitygw({
    dir,
    iamDir: join(options.dataDir, 's3-iam'),
    port: options.port,
    region: DEV_S3_REGION,
    accessKeyId: DEV_S3_ACCESS_KEY_ID,
    secretAccessKey: DEV_S3_SECRET_ACCESS_KEY,
    ...(options.dieWithParent === undefined ? {} : { dieWithParent: options.dieWithParent }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.executable === undefined ? {} : { executable: options.executable }),
  });
  // Loaded here: `vir dev --no-s3` and the CLI's other commands do without the SDK.
  const { CreateBucketCommand, S3Client, S3ServiceException } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: DEV_S3_ACCESS_KEY_ID, secretAccessKey: DEV_S3_SECRET_ACCESS_KEY },
    maxAttempts: 3,
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if (!(err instanceof S3ServiceException && err.name === 'BucketAlreadyOwnedByYou')) {
      await server.close();
      throw new Error(
        `the local S3 server refused to create the bucket ${bucket}: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  } finally {
    client.destroy();
  }
  return {
    ...server,
    bucket,
    accessKeyId: DEV_S3_ACCESS_KEY_ID,
    secretAccessKey: DEV_S3_SECRET_ACCESS_KEY,
    dir,
  };
}
