/**
 * Where the files of a folder or a bucket go so that the service can fetch them: a copy of each
 * deck's bytes in the run's store when the store is in S3 (`runs/<run>/decks/<sha256>.<ext>`),
 * else in the job's S3 destination (`<prefix>/decks/<run>/<sha256>.<ext>`), given to the
 * service as a pre-signed GET link that expires (24 hours by default: after the run). A place
 * whose endpoint is plain http gives links the service refuses: the other place is taken when
 * its links are https, else the decks say so. With a local store and no S3 destination there is
 * nowhere to publish: the decks say so too.
 *
 * The copy pins the bytes the run hashed (a file changed in the inbox after the run read it is
 * not what the service reads). Uploads and links are made by one client, from the settings the
 * store (or the delivery) reads: the link's host is the host the copy was written to.
 */
import { createHash } from 'node:crypto';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { presignedUrls } from '../../activities/delivery/s3-presign.js';
import {
  s3CredentialsFromEnv,
  s3EndpointFromEnv,
  withEnvEndpoint,
} from '../../activities/delivery/s3-client.js';
import { STORE_KEY_PREFIXES } from '../../activities/s3-store.js';
import { runFolderRef, type Store } from '../../activities/store.js';
import type { S3Destination } from '../../config/destinations.js';
import { safeFileName } from '../../lib/names.js';
import { DECK_CONTENT_TYPES, type DeckKind } from './deck-files.js';
import { deckS3Client, s3Failure } from './deck-s3.js';

/** How long a deck's link lives by default: a day, past any run's polling. */
export const DECK_LINK_TTL_SECONDS = 24 * 60 * 60;

/** The longest a pre-signed link may live (SigV4: 7 days). */
const MAX_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;

/** Said of a deck of a folder or a bucket when there is no S3 place to publish it to. */
export const NO_PUBLISH_PLACE = (what: 'a file of a folder' | 'an object of a bucket') =>
  `${what} needs an https link the service can fetch: set VIR_STORE_URL to an S3 store, or give the job an s3 destination`;

/** A deck's published copy: its link, or why there is none. */
export type PublishedDeck = { ok: true; url: string; expiresAt: string } | { ok: false; problem: string };

/** Copies decks to an S3 place and gives pre-signed links to them. */
export interface DeckPublisher {
  /** Where the copies go (`s3://bucket/prefix/`), for messages. */
  readonly where: string;
  /** Copies a deck's bytes (named by their SHA-256) and gives a link that expires. */
  publish(sha256: string, kind: DeckKind, bytes: Uint8Array): Promise<PublishedDeck>;
  /** Closes the client's connections. */
  close(): void;
}

/** What the publisher is made from. */
export interface DeckPublishOptions {
  store: Store;
  /** The job's S3 destination (used when the store is not in S3). */
  destination?: S3Destination | null;
  env: NodeJS.ProcessEnv | Record<string, string | undefined>;
  runKey: string;
  /** Extra CAs (PEM) trusted for an https endpoint with its own certificate. */
  trustedCa?: string[];
  /** How long links live, seconds (1 to 7 days). Default {@link DECK_LINK_TTL_SECONDS}. */
  linkTtlSeconds?: number;
}

/** An S3 place: a client, a bucket, the key of a copy, and the settings that set the endpoint. */
interface Place {
  /** Made once the place is chosen. */
  client(): S3Client;
  /** Whether its links are https (no endpoint: AWS; else the endpoint's scheme). */
  https: boolean;
  bucket: string;
  /** The key of the run's copy named `name`. */
  keyOf(name: string): string;
  /** Where the run's copies go, for messages. */
  where: string;
  /** The settings that set the endpoint, for the http message. */
  endpointSetting: string;
}

const S3_URL = /^s3:\/\/([^/]+)\/(.+)$/;

/** The run's store, when it is in S3: the objects `runs/<run>/decks/<name>` of the store. */
function storePlace(o: DeckPublishOptions): Place | null {
  const files = o.store.files;
  if (!files) return null;
  const folder = `${runFolderRef(o.runKey)}/decks`;
  const m = S3_URL.exec(files.urlOf(folder));
  if (!m) return null;
  const bucket = m[1]!;
  const endpoint = s3EndpointFromEnv(o.env, 'VIR_STORE_S3_ENDPOINT') ?? s3EndpointFromEnv(o.env);
  const dest: S3Destination = {
    bucket,
    prefix: '',
    region: o.env.AWS_REGION?.trim() || 'us-east-1',
    ...(endpoint === undefined ? { forcePathStyle: false } : { endpoint, forcePathStyle: true }),
  };
  return {
    client: () => deckS3Client(dest, s3CredentialsFromEnv(o.env, STORE_KEY_PREFIXES), o.trustedCa),
    https: endpoint === undefined || endpoint.startsWith('https:'),
    bucket,
    keyOf: (name) => S3_URL.exec(files.urlOf(`${folder}/${name}`))![2]!,
    where: `s3://${bucket}/${m[2]}/`,
    endpointSetting: 'VIR_STORE_S3_ENDPOINT (or VIR_S3_ENDPOINT)',
  };
}

/** The job's S3 destination: `<prefix>/decks/<run>/<name>`. */
function destinationPlace(o: DeckPublishOptions, destination: S3Destination): Place {
  const dest = withEnvEndpoint(destination, o.env);
  const parts = [
    ...(dest.prefix ?? '').split('/').filter(Boolean),
    'decks',
    safeFileName(o.runKey, 120, '_'),
  ];
  const folder = parts.join('/');
  return {
    client: () => deckS3Client(dest, s3CredentialsFromEnv(o.env), o.trustedCa),
    https: dest.endpoint === undefined || dest.endpoint.startsWith('https:'),
    bucket: dest.bucket,
    keyOf: (name) => `${folder}/${name}`,
    where: `s3://${dest.bucket}/${folder}/`,
    endpointSetting: destination.endpoint ? "the s3 destination's endpoint" : 'VIR_S3_ENDPOINT',
  };
}

/**
 * The publisher of a run: the store when it is in S3, else the job's S3 destination (the first
 * of them whose links are https; else the first, whose decks then say their links would be
 * http), else null (the decks of a folder or a bucket then get {@link NO_PUBLISH_PLACE}).
 */
export function deckPublisher(o: DeckPublishOptions): DeckPublisher | null {
  const ttl = o.linkTtlSeconds ?? DECK_LINK_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_LINK_TTL_SECONDS) {
    throw new Error(`linkTtlSeconds: must be a whole number from 1 to ${MAX_LINK_TTL_SECONDS}, got ${ttl}`);
  }
  const places = [storePlace(o), o.destination ? destinationPlace(o, o.destination) : null].filter(
    (p): p is Place => p !== null,
  );
  const place = places.find((p) => p.https) ?? places[0];
  if (!place) return null;
  const client = place.client();
  return {
    where: place.where,
    async publish(sha256, kind, bytes) {
      const key = place.keyOf(`${sha256}.${kind}`);
      // The link is made before the copy (no request is sent): an http one is refused unsent.
      const [link] = await presignedUrls(client, { bucket: place.bucket }, [key], ttl);
      const url = new URL(link!.url);
      if (url.protocol !== 'https:') {
        return {
          ok: false,
          problem:
            `the copy of the file would be at an http link (${url.origin}), and the service fetches https ` +
            `links only: make ${place.endpointSetting} an https URL`,
        };
      }
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: place.bucket,
            Key: key,
            Body: bytes,
            ContentLength: bytes.length,
            ContentType: DECK_CONTENT_TYPES[kind],
            ContentMD5: createHash('md5').update(bytes).digest('base64'),
          }),
        );
      } catch (err) {
        throw s3Failure(`copying the deck to s3://${place.bucket}/${key}`, err);
      }
      return { ok: true, url: link!.url, expiresAt: link!.expiresAt };
    },
    close: () => client.destroy(),
  };
}
