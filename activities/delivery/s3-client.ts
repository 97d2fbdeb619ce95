/**
 * The S3 client of a destination: the keys (environment only, never a job file), the endpoint of
 * destinations that name none (`VIR_S3_ENDPOINT`), and the client's own settings (checksums,
 * retries, timeouts).
 */
import { rootCertificates } from 'node:tls';
import { S3Client } from '@aws-sdk/client-s3';
import { SettingsError } from '../../config/settings.js';
import type { S3Destination } from '../../config/destinations.js';

/** Keys for the store; never part of a job, a result or a log line. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * S3 keys from the environment: `VIR_S3_ACCESS_KEY_ID` + `VIR_S3_SECRET_ACCESS_KEY` (+
 * `VIR_S3_SESSION_TOKEN`), else `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+
 * `AWS_SESSION_TOKEN`); `prefixes` names the groups looked at, in order (the claim-check store
 * looks at `VIR_STORE_S3` first). Null when no pair is set: the client then uses the AWS SDK's
 * default chain (profile files, SSO, instance or container roles). Half a pair is an error
 * naming the missing variable (never a value).
 */
export function s3CredentialsFromEnv(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
  prefixes: readonly string[] = ['VIR_S3', 'AWS'],
): S3Credentials | null {
  for (const p of prefixes) {
    const [id, secret, token] = [`${p}_ACCESS_KEY_ID`, `${p}_SECRET_ACCESS_KEY`, `${p}_SESSION_TOKEN`];
    const accessKeyId = env[id]?.trim();
    const secretAccessKey = env[secret]?.trim();
    if (!accessKeyId && !secretAccessKey) continue;
    if (!accessKeyId) throw new Error(`${secret} is set but ${id} is not: set both or neither`);
    if (!secretAccessKey) throw new Error(`${id} is set but ${secret} is not: set both or neither`);
    const sessionToken = env[token]?.trim();
    return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
  }
  return null;
}

/**
 * The endpoint of destinations that name none: `VIR_S3_ENDPOINT` when set (an http or https
 * URL; `vir dev` sets it to its local S3 server), else undefined (AWS). `name` reads another
 * variable (the claim-check store's `VIR_STORE_S3_ENDPOINT`). A bad value is a SettingsError
 * naming the variable; the value is not echoed.
 */
export function s3EndpointFromEnv(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
  name = 'VIR_S3_ENDPOINT',
): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new SettingsError(name, `${name} must be an http:// or https:// URL (like http://127.0.0.1:7070)`);
  if (url.username || url.password) {
    const keys = name.replace(/_ENDPOINT$/, '');
    throw new SettingsError(
      name,
      `${name} must not hold a user or password: the keys come from ${keys}_ACCESS_KEY_ID and ${keys}_SECRET_ACCESS_KEY`,
    );
  }
  return value;
}

/**
 * The destination as the client sees it: one without an `endpoint` of its own gets
 * {@link s3EndpointFromEnv}'s, addressed path-style (`<endpoint>/<bucket>/<key>`).
 */
export function withEnvEndpoint(
  dest: S3Destination,
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
): S3Destination {
  if (dest.endpoint !== undefined) return dest;
  const endpoint = s3EndpointFromEnv(env);
  return endpoint === undefined ? dest : { ...dest, endpoint, forcePathStyle: true };
}

// ---------------------------------------------------------------------------------------------
// Client

/** Client settings that are ours to choose (not the job's). */
export interface S3ClientOptions {
  /** Attempts per request, the first included (retries dropped connections, timeouts, 5xx, throttling). */
  maxAttempts: number;
  /** Time to open a connection (ms). */
  connectionTimeoutMs: number;
  /** Time a request may stay without a response or socket activity (ms). */
  requestTimeoutMs: number;
  /** CA certificates (PEM) trusted besides the system's: an https endpoint with its own certificate. */
  trustedCa?: readonly string[];
}

export const S3_CLIENT_DEFAULTS: S3ClientOptions = {
  maxAttempts: 5,
  connectionTimeoutMs: 5_000,
  requestTimeoutMs: 60_000,
};

/**
 * An S3Client for a destination. Checksums are sent and checked only where an operation
 * requires them (`WHEN_REQUIRED`): the SDK's default since early 2025 adds CRC32 checksums to
 * every upload (as an aws-chunked trailer on streamed bodies), which several S3-compatible
 * stores reject; integrity comes instead from Content-MD5 on single uploads, which every store
 * checks, and a size check after each upload.
 *
 * @param credentials keys from {@link s3CredentialsFromEnv}; null uses the AWS SDK's default chain.
 */
export function createS3Client(
  dest: S3Destination,
  credentials: S3Credentials | null,
  options: Partial<S3ClientOptions> = {},
): S3Client {
  const o = { ...S3_CLIENT_DEFAULTS, ...options };
  return new S3Client({
    region: dest.region,
    ...(dest.endpoint ? { endpoint: dest.endpoint } : {}),
    forcePathStyle: dest.forcePathStyle,
    ...(credentials ? { credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: o.maxAttempts,
    retryMode: 'standard',
    requestHandler: {
      connectionTimeout: o.connectionTimeoutMs,
      requestTimeout: o.requestTimeoutMs,
      ...(o.trustedCa?.length
        ? { httpsAgent: { keepAlive: true, ca: [...rootCertificates, ...o.trustedCa] } }
        : {}),
    },
  });
}

/**
 * The client of a delivery: {@link createS3Client} with the keys ({@link s3CredentialsFromEnv})
 * and, for a destination without an endpoint, the endpoint ({@link s3EndpointFromEnv}) from the
 * environment.
 */
export function s3ClientFromEnv(
  dest: S3Destination,
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
  options: Partial<S3ClientOptions> = {},
): S3Client {
  return createS3Client(withEnvEndpoint(dest, env), s3CredentialsFromEnv(env), options);
}
