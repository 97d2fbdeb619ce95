/**
 * A real S3-compatible server for tests: versitygw (built by scripts/build-versitygw.sh into
 * .tools/bin) with its posix backend in a temporary folder, on 127.0.0.1 and a free port, in its
 * own process group, with random root keys (runtime/dev-s3.ts starts it).
 *
 * @example
 * const s3 = await startS3Server();
 * try { ... new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3 }) ... }
 * finally { await s3.close(); }
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVersitygw, versitygwPath } from '../../runtime/dev-s3.js';

/** The versitygw binary: `VERSITYGW_PATH`, else the project's `.tools/bin/versitygw`. */
export const VERSITYGW_PATH = versitygwPath();

export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The posix backend's folder: one sub-folder per bucket, one file per object. */
  dir: string;
  /** What the server printed lately (its access log included). */
  output(): string;
  /** Kills the server's process group and removes its folders. */
  close(): Promise<void>;
}

/**
 * Starts versitygw on 127.0.0.1 and a free port with random root keys and a posix backend in a
 * new temporary folder; resolves once it accepts connections (within `timeoutMs`).
 */
export async function startS3Server(
  options: { region?: string; timeoutMs?: number } = {},
): Promise<S3Server> {
  const base = await mkdtemp(join(tmpdir(), 'vir-s3-'));
  const dir = join(base, 'data');
  const accessKeyId = `test${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  try {
    const server = await startVersitygw({
      dir,
      iamDir: join(base, 'iam'),
      port: 0,
      accessKeyId,
      secretAccessKey,
      ...options,
    });
    return {
      endpoint: server.endpoint,
      accessKeyId,
      secretAccessKey,
      region: server.region,
      dir,
      output: server.output,
      close: async () => {
        await server.close();
        await rm(base, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(base, { recursive: true, force: true });
    throw err;
  }
}
