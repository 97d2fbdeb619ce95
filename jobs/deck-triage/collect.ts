/**
 * A deck triage run's decks, collected from where the job says they are, in this order: its
 * links (each fetched once, as the service will fetch it), the .pdf and .pptx files of a local
 * inbox folder, then the objects under an S3 prefix. Each deck is known by the SHA-256 of its
 * bytes; the second deck with the same bytes is a duplicate of the first (sent once). The files
 * of a folder or a bucket are copied to the run's S3 place and given to the service as
 * pre-signed links that expire after the run (deck-publish.ts). The startup's name comes from
 * the job (`names`), else the folder's sidecar (`decks.yaml`), else the file's name.
 *
 * Pure of Temporal: the activity that calls it passes the store, the environment and its
 * heartbeat. What a deck does wrong (a link that answers 404, a web page, a file that is no
 * deck, nowhere to publish a file) is that deck's `problem`; what the run cannot go on without
 * (a missing folder, a malformed sidecar, a bucket that does not exist) is thrown.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { s3CredentialsFromEnv, withEnvEndpoint } from '../../activities/delivery/s3-client.js';
import type { Store } from '../../activities/store.js';
import type { S3Destination } from '../../config/destinations.js';
import {
  formatSize,
  isDeckFileName,
  nameFor,
  notADeck,
  parseDeckSidecar,
  sha256Hex,
  SIDECAR_NAMES,
  sniffDeck,
  startupNameFromFile,
  type DeckKind,
} from './deck-files.js';
import { deckAgent, DECK_FETCH_DEFAULTS, fetchDeckLink } from './deck-fetch.js';
import { deckLinkLabel } from './deck-links.js';
import { deckPublisher, NO_PUBLISH_PLACE, type DeckPublisher } from './deck-publish.js';
import { deckS3Client, folderPrefix, listFolderObjects, readObject, type DeckS3Source } from './deck-s3.js';
import type { CollectedDeck, DeckOrigin } from './types.js';

export { checkDeckLink, deckLinkLabel } from './deck-links.js';
export type { DeckS3Source } from './deck-s3.js';

/** Where a run's decks come from (any mix). */
export interface CollectDecksInput {
  /** Direct https links to PDF or PPTX files, in the job's order. */
  urls?: string[];
  /** A local inbox folder: its .pdf and .pptx files (not its sub-folders). */
  folder?: string;
  /** A bucket and prefix: the .pdf and .pptx objects directly under it. */
  s3?: DeckS3Source;
  /** Startup names the job gives, by file name, link or label (win over the sidecar's). */
  names?: Record<string, string>;
}

/** What the collection reads, writes and is limited by. */
export interface CollectDecksDeps {
  /** A link's whole fetch, ms. Default 30 000. */
  fetchTimeoutMs?: number;
  /** The largest deck read, bytes. Default 25 MiB. */
  maxBytes?: number;
  /** Extra CAs (PEM) trusted for https (a local deck server or S3 endpoint in tests and the demo). */
  trustedCa?: string[];
  /** S3 keys and endpoints, read as the delivery and the store read them. */
  env: NodeJS.ProcessEnv | Record<string, string | undefined>;
  /** The run's store: folder and bucket files are copied into it when it is in S3. */
  store: Store;
  runKey: string;
  /** The job's S3 destination, where folder and bucket files go when the store is not in S3. */
  publish?: S3Destination | null;
  /** How long the links of copies live, seconds (default 24 hours; at most 7 days). */
  linkTtlSeconds?: number;
  /** Links fetched at once. Default 4. */
  fetchConcurrency?: number;
  /**
   * Read and hash only: no file is published and no link made (what `vir plan` looks at). A
   * file's deck then has neither a link nor a problem.
   */
  lookOnly?: boolean;
  /**
   * Whether a deck of these bytes was analysed by an earlier run: such a file is not published
   * again (it is carried, never sent), so its deck has neither a link nor a problem.
   */
  analysedBefore?: (sha256: string) => boolean;
  /** Called after each deck is collected (the activity heartbeats). */
  progress?: (collected: number, deck: CollectedDeck) => void;
}

/** A deck's bytes as read: what the run keeps of them (the bytes are dropped once hashed). */
type Read = { ok: true; sha256: string; kind: DeckKind; bytes: number } | { ok: false; problem: string };

/** The decks of a run being collected: labels kept unique, duplicates found by SHA-256. */
class Collection {
  readonly decks: CollectedDeck[] = [];
  readonly #firstBySha = new Map<string, string>();
  readonly #labels = new Set<string>();
  constructor(readonly progress?: CollectDecksDeps['progress']) {}

  /** A label no earlier deck has: `name`, else `name (2)`, `name (3)`, ... */
  label(name: string): string {
    let label = name;
    for (let n = 2; this.#labels.has(label); n++) label = `${name} (${n})`;
    this.#labels.add(label);
    return label;
  }

  /** The label of the earlier deck with these bytes, or null. */
  firstWith(sha256: string): string | null {
    return this.#firstBySha.get(sha256) ?? null;
  }

  /** Adds a deck; one with bytes (not a duplicate) becomes the first of its SHA-256. */
  add(deck: CollectedDeck): void {
    if (deck.sha256 && !deck.duplicateOf && !this.#firstBySha.has(deck.sha256)) {
      this.#firstBySha.set(deck.sha256, deck.label);
    }
    this.decks.push(deck);
    this.progress?.(this.decks.length, deck);
  }
}

/** A deck without bytes: `problem` says why. */
const problemDeck = (
  origin: DeckOrigin,
  label: string,
  startupName: string | null,
  problem: string,
): CollectedDeck => ({
  sha256: null,
  origin,
  label,
  deckUrl: null,
  startupName,
  kind: null,
  bytes: null,
  problem,
  duplicateOf: null,
});

/** Runs `fn` over `items`, at most `limit` at once; results in the items' order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** The links: each distinct link fetched once (at most `fetchConcurrency` at once), in the job's order. */
async function collectLinks(urls: string[], input: CollectDecksInput, deps: CollectDecksDeps, c: Collection) {
  if (urls.length === 0) return;
  const timeoutMs = deps.fetchTimeoutMs ?? DECK_FETCH_DEFAULTS.timeoutMs;
  const limits = { timeoutMs, maxBytes: deps.maxBytes ?? DECK_FETCH_DEFAULTS.maxBytes };
  const agent = deckAgent(timeoutMs, deps.trustedCa);
  const distinct = [...new Set(urls.map((u) => u.trim()))];
  let reads: Map<string, Read>;
  try {
    const results = await mapLimit(distinct, deps.fetchConcurrency ?? 4, async (url): Promise<Read> => {
      const got = await fetchDeckLink(url, limits, agent);
      return got.ok
        ? { ok: true, sha256: sha256Hex(got.bytes), kind: got.kind, bytes: got.bytes.length }
        : got;
    });
    reads = new Map(distinct.map((u, i) => [u, results[i]!]));
  } finally {
    await agent.close().catch(() => undefined);
  }
  for (const raw of urls) {
    const url = raw.trim();
    const label = c.label(deckLinkLabel(url));
    const startupName = nameFor(input.names, url, label, deckLinkLabel(url), linkFileName(url));
    const read = reads.get(url)!;
    if (!read.ok) {
      c.add(problemDeck('url', label, startupName, read.problem));
      continue;
    }
    const first = c.firstWith(read.sha256);
    c.add({
      sha256: read.sha256,
      origin: 'url',
      label,
      deckUrl: first ? null : url,
      startupName,
      kind: read.kind,
      bytes: read.bytes,
      problem: null,
      duplicateOf: first,
    });
  }
}

/** The file name a link ends with (`Shiftnook Series A Deck.pdf`), decoded; '' when none. */
function linkFileName(url: string): string {
  const last = deckLinkLabel(url).split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** A file of a folder or an object of a bucket, read, hashed and (unless a duplicate) published. */
interface FileSource {
  origin: 'folder' | 's3';
  /** The file's name (its label). */
  name: string;
  size: number;
  read(): Promise<Buffer>;
}

async function collectFile(
  file: FileSource,
  startupName: string | null,
  deps: CollectDecksDeps,
  c: Collection,
  publisher: () => DeckPublisher | null,
): Promise<void> {
  const label = c.label(file.name);
  const maxBytes = deps.maxBytes ?? DECK_FETCH_DEFAULTS.maxBytes;
  const what = file.origin === 'folder' ? 'the file' : 'the object';
  if (file.size > maxBytes) {
    c.add(
      problemDeck(
        file.origin,
        label,
        startupName,
        `${what} is ${formatSize(file.size)}, larger than the ${formatSize(maxBytes)} a deck may be`,
      ),
    );
    return;
  }
  const bytes = await file.read();
  const sniffed = await sniffDeck(bytes);
  if (sniffed.kind === null) {
    c.add(problemDeck(file.origin, label, startupName, notADeck(`${what} is`, sniffed.is)));
    return;
  }
  const sha256 = sha256Hex(bytes);
  const deck: CollectedDeck = {
    sha256,
    origin: file.origin,
    label,
    deckUrl: null,
    startupName,
    kind: sniffed.kind,
    bytes: bytes.length,
    problem: null,
    duplicateOf: c.firstWith(sha256),
  };
  if (!deck.duplicateOf && !deps.lookOnly && !deps.analysedBefore?.(sha256)) {
    const place = publisher();
    if (!place) {
      deck.problem = NO_PUBLISH_PLACE(
        file.origin === 'folder' ? 'a file of a folder' : 'an object of a bucket',
      );
    } else {
      const published = await place.publish(sha256, sniffed.kind, bytes);
      if (published.ok) deck.deckUrl = published.url;
      else deck.problem = published.problem;
    }
  }
  c.add(deck);
}

/** A folder that cannot be read: not retryable (the job names it). */
const folderFailure = (folder: string, why: string) =>
  ApplicationFailure.create({
    message: `the deck folder ${folder} ${why}`,
    type: 'DeckFolderUnreadable',
    nonRetryable: true,
  });

/** The folder's deck files, sorted by name, with its sidecar's names. */
async function folderFiles(
  folder: string,
): Promise<{ files: FileSource[]; sidecar: Record<string, string> }> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw folderFailure(folder, 'does not exist');
    if (code === 'ENOTDIR') throw folderFailure(folder, 'is a file, not a folder');
    if (code === 'EACCES' || code === 'EPERM')
      throw folderFailure(folder, 'cannot be read (permission denied)');
    throw err;
  }
  const names = entries.map((e) => e.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sidecarName = SIDECAR_NAMES.find((n) => names.includes(n));
  const sidecar = sidecarName
    ? parseDeckSidecar(await readFile(join(folder, sidecarName), 'utf8'), join(folder, sidecarName))
    : {};
  const files: FileSource[] = [];
  for (const name of names.filter(isDeckFileName)) {
    const path = join(folder, name);
    const info = await stat(path);
    if (!info.isFile()) continue;
    files.push({ origin: 'folder', name, size: info.size, read: () => readFile(path) });
  }
  return { files, sidecar };
}

/**
 * Collects a run's decks: the links in the job's order, then the folder's files, then the
 * bucket's objects (each group sorted by name), every deck with its SHA-256, type, size, the
 * https link the service is given (the link itself, or a pre-signed link to a copy), the
 * startup's name when known, and a problem or the deck it duplicates. Deterministic for the
 * same inputs and bytes (the links of copies aside: they are signed at the time).
 *
 * @example
 * const decks = await collectDecks(
 *   { urls: ['https://files.example.com/acme-seed.pdf'], folder: '/srv/inbox' },
 *   { env: process.env, store, runKey: 'deck-triage-2026-11-27', publish: job.s3Destination },
 * );
 */
export async function collectDecks(
  input: CollectDecksInput,
  deps: CollectDecksDeps,
): Promise<CollectedDeck[]> {
  const c = new Collection(deps.progress);
  await collectLinks(input.urls ?? [], input, deps, c);

  let place: DeckPublisher | null | undefined;
  const publisher = () =>
    place === undefined
      ? (place = deckPublisher({
          store: deps.store,
          destination: deps.publish ?? null,
          env: deps.env,
          runKey: deps.runKey,
          ...(deps.trustedCa ? { trustedCa: deps.trustedCa } : {}),
          ...(deps.linkTtlSeconds !== undefined ? { linkTtlSeconds: deps.linkTtlSeconds } : {}),
        }))
      : place;
  try {
    if (input.folder !== undefined) {
      const { files, sidecar } = await folderFiles(input.folder);
      for (const file of files) {
        const name =
          nameFor(input.names, file.name) ?? nameFor(sidecar, file.name) ?? startupNameFromFile(file.name);
        await collectFile(file, name, deps, c, publisher);
      }
    }
    if (input.s3) await collectBucket(input.s3, input, deps, c, publisher);
  } finally {
    place?.close();
  }
  return c.decks;
}

/** The objects directly under the job's S3 prefix, sorted by key, with the prefix's sidecar. */
async function collectBucket(
  source: DeckS3Source,
  input: CollectDecksInput,
  deps: CollectDecksDeps,
  c: Collection,
  publisher: () => DeckPublisher | null,
): Promise<void> {
  const dest = withEnvEndpoint(
    {
      bucket: source.bucket,
      prefix: source.prefix ?? '',
      region: source.region ?? 'us-east-1',
      ...(source.endpoint === undefined
        ? { forcePathStyle: false }
        : { endpoint: source.endpoint, forcePathStyle: true }),
    },
    deps.env,
  );
  const client = deckS3Client(dest, s3CredentialsFromEnv(deps.env), deps.trustedCa);
  try {
    const prefix = folderPrefix(source.prefix);
    const objects = await listFolderObjects(client, source.bucket, prefix);
    const sidecarObject = SIDECAR_NAMES.map((n) => objects.find((o) => o.name === n)).find((o) => o);
    const sidecar = sidecarObject
      ? parseDeckSidecar(
          (await readObject(client, source.bucket, sidecarObject.key)).toString('utf8'),
          `s3://${source.bucket}/${sidecarObject.key}`,
        )
      : {};
    for (const o of objects.filter((x) => isDeckFileName(x.name))) {
      const name = nameFor(input.names, o.name) ?? nameFor(sidecar, o.name) ?? startupNameFromFile(o.name);
      const file: FileSource = {
        origin: 's3',
        name: o.name,
        size: o.size,
        read: () => readObject(client, source.bucket, o.key),
      };
      await collectFile(file, name, deps, c, publisher);
    }
  } finally {
    client.destroy();
  }
}
