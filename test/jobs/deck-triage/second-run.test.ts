/**
 * A deck triage of an inbox folder run twice, every party real: five example decks (PDF and
 * PPTX) in a folder, published for the service through the job's S3 destination (versitygw
 * behind a TLS proxy with the test's own certificate: the sandbox trusts it, the in-process
 * workers through VIR_DECK_CA_FILE) as pre-signed https links. Then a sixth file arrives and the
 * job runs again: only that one is sent (one analyze_deck, 3 credits by the sandbox's books), and
 * the report ranks all six, the five of the first run carried from it.
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { EXAMPLE_DECKS, writeExampleDecks } from '../../../jobs/deck-triage/examples/decks.js';
import { parseDeckTriageJob, type DeckTriageResult } from '../../../jobs/deck-triage/index.js';
import type { DataRoom } from '../../../sandbox/decks/rooms.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { sharedTestCert, startTlsProxy } from '../../fixtures/decks/tls-server.js';
import { openWorkbook, pdfText, sheetRows } from '../../helpers/reports.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import { KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { startS3Server, type S3Server } from '../../helpers/s3-server.js';

const BUCKET = 'fund-decks';
const PREFIX = 'triage';
const FIRST = EXAMPLE_DECKS.slice(0, 5);
const LATE = EXAMPLE_DECKS[5]!;

let sandbox: RunningSandbox;
let s3: S3Server;
let admin: S3Client;
let proxy: { endpoint: string; close(): Promise<void> };
let h: RunnerHarness;
let dir: string;

beforeAll(async () => {
  const cert = sharedTestCert();
  dir = await mkdtemp(join(tmpdir(), 'vir-deck-second-'));
  s3 = await startS3Server();
  proxy = await startTlsProxy(Number(new URL(s3.endpoint).port));
  admin = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  // Publishing to the destination (and delivering to it) needs its bucket.
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000, trustedCa: [cert.cert] });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: KEYS.vc,
    name: 'deck-second',
    env: { VIR_DECK_CA_FILE: cert.caFile },
    // The destination's keys, read from the environment as a worker reads them.
    tuning: {
      env: {
        ...process.env,
        VIR_S3_ACCESS_KEY_ID: s3.accessKeyId,
        VIR_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      },
    },
  });
});

afterAll(async () => {
  await h?.close();
  admin?.destroy();
  await proxy?.close();
  await s3?.close();
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The account's balance in the sandbox's own books. */
function balance(): number {
  return sandbox.state.accounts.get(sandbox.state.keys.get(KEYS.vc)!.account_id)!.credits;
}

/** The data rooms the sandbox made, in order. */
const rooms = () => [...sandbox.state.rooms.values()] as DataRoom[];

/** The keys of the bucket under a prefix. */
async function keysUnder(prefix: string): Promise<string[]> {
  const out = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!).sort();
}

/** Runs the job once; gives the result, what the account paid and the service's calls meanwhile. */
async function runOnce(folder: string) {
  const job = parseDeckTriageJob({
    id: 'deck-inbox-e2e',
    kind: 'deck-triage',
    title: 'Deck inbox, run after run',
    decks: { folder },
    pollDeadline: '5m',
    budget: { credits: 30 },
    // Where the decks are published. (The report's own delivery there is not this test's subject:
    // the delivery's S3 client trusts the system's CAs only, not VIR_DECK_CA_FILE.)
    delivery: [{ s3: { bucket: BUCKET, prefix: PREFIX, endpoint: proxy.endpoint, region: s3.region } }],
  });
  const before = balance();
  const from = sandbox.requestLog().length;
  const roomsBefore = rooms().length;
  const result = await followRun<DeckTriageResult>(await startJobRun(h.client, h.settings, job), QUIET);
  expect(result.partial, result.reasons.join('; ')).toBe(false);
  const calls = sandbox.requestLog().slice(from);
  return {
    result,
    paid: before - balance(),
    asked: calls.filter((c) => c.operation === 'analyze_deck'),
    newRooms: rooms().slice(roomsBefore),
  };
}

test('a folder run twice: the second run sends only the new deck and ranks all six, five carried', async () => {
  const folder = join(dir, 'inbox');
  await writeExampleDecks(folder, FIRST);

  // Run 1: the five decks published through the destination and analysed, 3 credits each.
  const one = await runOnce(folder);
  expect(one.asked.map((c) => c.status)).toEqual([200, 200, 200, 200, 200]);
  expect(one.paid).toBe(15);
  expect(one.result.counts).toEqual({ analysed: 5, carried: 0, failed: 0, timedOut: 0, duplicates: 0 });
  // The service fetched each from a pre-signed https link to its copy in the destination's bucket.
  const copies = await keysUnder(`${PREFIX}/decks/${one.result.workflowId}/`);
  expect(copies).toHaveLength(5);
  expect(one.newRooms.map((r) => new URL(r.deck_url).pathname.slice(1)).sort()).toEqual(
    copies.map((k) => `${BUCKET}/${k}`),
  );
  for (const r of one.newRooms) {
    expect(new URL(r.deck_url).origin).toBe(proxy.endpoint);
    expect(r.status).toBe('done');
  }

  // A sixth deck arrives, with its line in the sidecar.
  await writeExampleDecks(folder, [LATE], false);
  await appendFile(join(folder, 'decks.yaml'), `${LATE.file}: ${JSON.stringify(LATE.startupName)}\n`);

  // Run 2: one analyze_deck, for the new deck only; 3 credits by the service's books.
  const two = await runOnce(folder);
  expect(two.asked).toHaveLength(1);
  expect(two.paid).toBe(3);
  expect(two.result.counts).toEqual({ analysed: 1, carried: 5, failed: 0, timedOut: 0, duplicates: 0 });
  expect(two.newRooms).toHaveLength(1);
  expect(new URL(two.newRooms[0]!.deck_url).pathname).toMatch(
    new RegExp(`^/${BUCKET}/${PREFIX}/decks/${two.result.workflowId}/[0-9a-f]{64}\\.pptx$`),
  );
  expect(two.newRooms[0]!.startup_name).toBe(LATE.startupName);
  // Only the new deck was copied to the bucket: the carried ones are not published again.
  expect(await keysUnder(`${PREFIX}/decks/${two.result.workflowId}/`)).toHaveLength(1);

  // Its workbook ranks all six: the new one analysed today, the five carried from run 1, paid 0.
  const ranking = sheetRows(await openWorkbook(two.result.files.xlsx!), 'Ranking');
  expect(ranking.map((r) => r['File or link']).sort()).toEqual(EXAMPLE_DECKS.map((d) => d.file).sort());
  for (const row of ranking) expect(Number(row['Rank']), row['File or link']).toBeGreaterThanOrEqual(1);
  const late = ranking.find((r) => r['File or link'] === LATE.file)!;
  expect(late['Outcome']).toMatch(/^Analysed /);
  expect(late['Credits']).toBe('3');
  const carried = ranking.filter((r) => r['File or link'] !== LATE.file);
  for (const row of carried) {
    expect(row['Outcome'], row['File or link']).toMatch(/^Carried: analysed /);
    expect(row['Credits'], row['File or link']).toBe('0');
  }

  // Its PDF: six ranked, five with the carried mark.
  const text = pdfText(two.result.files.pdf!);
  expect(text).toContain('Decks ranked by deal score (6)');
  expect(text.match(/↻ analysed /g) ?? []).toHaveLength(5);
  for (const deck of EXAMPLE_DECKS) expect(text).toContain(deck.startupName);
}, 120_000);
