/**
 * Pre-signed GET links to a run's objects, for email messages and chat posts: whoever holds one
 * can fetch the object until it expires, without keys.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Destination } from '../../config/destinations.js';

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
 * posts. Made by the AWS SDK's presigner (`getSignedUrl`) from the client's own configuration,
 * so the endpoint, path style and region are the client's (a client from `s3ClientFromEnv` has
 * VIR_S3_ENDPOINT's endpoint when the destination names none); no request is sent. Only the
 * host is signed and the payload is not (a link's GET has none), so whoever follows the link
 * needs no other header. A link holds the access key id and a signature, never the secret.
 *
 * @param expiresInSeconds 1 second to 7 days (SigV4's limit); links signed with temporary
 *   credentials expire with them anyway.
 */
export async function presignedUrls(
  client: S3Client,
  dest: Pick<S3Destination, 'bucket'>,
  keys: string[],
  expiresInSeconds: number,
): Promise<PresignedLink[]> {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > 604_800) {
    throw new Error(
      `expiresInSeconds: must be a whole number from 1 to 604800 (7 days), got ${expiresInSeconds}`,
    );
  }
  const links: PresignedLink[] = [];
  for (const key of keys) {
    const signedAt = new Date();
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: dest.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
      signingDate: signedAt,
    });
    links.push({
      key,
      name: key.slice(key.lastIndexOf('/') + 1),
      url,
      expiresAt: new Date(signedAt.getTime() + expiresInSeconds * 1000).toISOString(),
    });
  }
  return links;
}
