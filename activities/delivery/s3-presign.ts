/**
 * Pre-signed GET links to a run's objects, for email messages and chat posts: whoever holds one
 * can fetch the object until it expires, without keys.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Destination } from './schema.js';

/** A link to one object that anyone holding it can GET until it expires. */
export interface PresignedLink {
  key: string;
  /** The file name (the key's last part). */
  name: string;
  url: string;
  expiresAt: string;
}

/**
 * Pre-signed GET links (SigV4 in the query string) to objects, for email messages and chat
 * posts. Made with the client's own signer (the one it signs requests with) and the request
 * its serializer builds, so the endpoint, path style and region are the client's; no request is
 * sent. A link holds the access key id and a signature, never the secret.
 *
 * @param expiresInSeconds 1 second to 7 days (SigV4's limit); links signed with temporary
 *   credentials expire with them anyway.
 */
export async function presignedUrls(
  client: S3Client,
  dest: S3Destination,
  keys: string[],
  expiresInSeconds: number,
): Promise<PresignedLink[]> {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > 604_800) {
    throw new Error(
      `expiresInSeconds: must be a whole number from 1 to 604800 (7 days), got ${expiresInSeconds}`,
    );
  }
  const signer = await (client.config as unknown as { signer: () => Promise<PresignSigner> }).signer();
  const links: PresignedLink[] = [];
  for (const key of keys) {
    const request = await serializedRequest(client, new GetObjectCommand({ Bucket: dest.bucket, Key: key }));
    // Only the host is signed: whoever follows the link sends no other header we could predict.
    // The payload is not signed (a link's GET has none): as S3's own presigner does, the
    // x-amz-content-sha256 header says so and goes into the query string with the signature.
    request.headers = {
      host: `${request.hostname}${request.port ? `:${request.port}` : ''}`,
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    };
    const signedAt = new Date();
    const signed = await signer.presign(request, {
      expiresIn: expiresInSeconds,
      signingDate: signedAt,
      signingRegion: dest.region,
      signingService: 's3',
    });
    const query = Object.entries(signed.query ?? {})
      .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))
      .map(([k, v]) =>
        v == null ? encodeURIComponent(k!) : `${encodeURIComponent(k!)}=${encodeURIComponent(v)}`,
      )
      .join('&');
    const port = signed.port ? `:${signed.port}` : '';
    links.push({
      key,
      name: key.slice(key.lastIndexOf('/') + 1),
      url: `${signed.protocol}//${signed.hostname}${port}${signed.path}${query ? `?${query}` : ''}`,
      expiresAt: new Date(signedAt.getTime() + expiresInSeconds * 1000).toISOString(),
    });
  }
  return links;
}

interface SerializedRequest {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
}

interface PresignSigner {
  presign(request: SerializedRequest, options: Record<string, unknown>): Promise<SerializedRequest>;
}

/** The HTTP request the client would send for a command (endpoint resolved), without sending it. */
async function serializedRequest(client: S3Client, command: GetObjectCommand): Promise<SerializedRequest> {
  let captured: SerializedRequest | undefined;
  command.middlewareStack.add(
    () => async (args) => {
      captured = args.request as SerializedRequest;
      return { output: { $metadata: {} }, response: {} };
    },
    { step: 'build', priority: 'high', name: 'virCaptureRequest' },
  );
  await client.send(command);
  if (!captured) throw new Error('presign: the client built no request');
  return captured;
}
