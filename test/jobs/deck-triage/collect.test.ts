/**
 * Collecting a deck triage run's decks against real servers: links fetched once from a local
 * https server (its self-signed certificate trusted as an extra CA) that serves a PDF, a PPTX,
 * a 404, a web page and the same PDF under a second link; an inbox folder with a PDF, a PPTX, a
 * .txt and a decks.yaml; and a bucket prefix on the project's S3 test server (versitygw, behind
 * a TLS proxy so that its links are https), whose files are copied, hashed and given as
 * pre-signed links that are fetched back (the same bytes) and refused once expired.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Store } from '../../../activities/s3-store.js';
import { LocalStore } from '../../../activities/store.js';
import { S3DestinationFieldsSchema } from '../../../config/destinations.js';
import { collectDecks, type CollectDecksDeps } from '../../../jobs/deck-triage/collect.js';
import { NO_PUBLISH_PLACE } from '../../../jobs/deck-triage/deck-publish.js';
import { deckS3Client, listFolderObjects } from '../../../jobs/deck-triage/deck-s3.js';
import {
  AUSCURA_SLIDES,
  buildDeckPdf,
  buildDeckPptx,
  KELVINFORGE_SLIDES,
  LEDGERLY_SLIDES,
  SNACKR_SLIDES,
} from '../../../jobs/deck-triage/examples/decks.js';
import {
  makeSelfSignedCert,
  startDeckServer,
  startTlsProxy,
  type DeckServer,
  type TestCert,
} from '../../fixtures/decks/tls-server.js';
import { startS3Server, type S3Server } from '../../helpers/s3-server.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let cert: TestCert;
let pdf: Buffer;
let pptx: Buffer;
let kelvin: Buffer;
let auscura: Buffer;
let web: DeckServer;
let dir: string;
let store: LocalStore;

beforeAll(async () => {
  cert = makeSelfSignedCert();
  [pdf, pptx, kelvin, auscura] = await Promise.all([
    buildDeckPdf(LEDGERLY_SLIDES),
    buildDeckPptx(SNACKR_SLIDES),
    buildDeckPptx(KELVINFORGE_SLIDES),
    buildDeckPdf(AUSCURA_SLIDES),
  ]);
  web = await startDeckServer(
    {
      '/decks/ledgerly.pdf': { body: pdf, type: 'application/pdf' },
      '/decks/snackr.pptx': {
        body: pptx,
        type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      },
      '/mirror/ledgerly-copy.pdf': { body: pdf, type: 'application/octet-stream' },
      '/share/deck': { body: '<!doctype html><html><body>Open the deck</body></html>', type: 'text/html' },
      '/share/viewer.pdf': {
        body: '<!DOCTYPE html><html><body>Viewer</body></html>',
        type: 'application/pdf',
      },
      '/go/ledgerly': { status: 302, body: '', headers: { location: '/decks/ledgerly.pdf' } },
      '/go/dropbox': {
        status: 301,
        body: '',
        headers: { location: 'https://www.dropbox.com/s/abc/deck.pdf?dl=0' },
      },
      '/slow.pdf': { body: pdf, type: 'application/pdf', delayMs: 3_000 },
    },
    cert,
  );
  dir = await mkdtemp(join(tmpdir(), 'vir-deck-collect-'));
  store = new LocalStore(join(dir, 'store'));
});

afterAll(async () => {
  await web?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const baseDeps = (): CollectDecksDeps => ({
  env: {},
  store,
  runKey: 'deck-triage/2026-11-27',
  trustedCa: [cert.cert],
});

describe('collectDecks: links', () => {
  it('fetches each link once, hashes the bytes, says why a link is no deck, and marks duplicates', async () => {
    const u = (path: string) => `${web.url}${path}`;
    const urls = [
      u('/decks/ledgerly.pdf'),
      u('/decks/snackr.pptx?token=secret'),
      u('/decks/missing.pdf'),
      u('/share/deck'),
      u('/mirror/ledgerly-copy.pdf'),
      u('/decks/ledgerly.pdf'), // the same link again: not fetched again
      u('/go/ledgerly'),
      u('/go/dropbox'),
      u('/share/viewer.pdf'),
      'https://docsend.com/view/abc123',
    ];
    const seen: string[] = [];
    const decks = await collectDecks(
      // Named by the whole link, and by the file name a link ends with (a link that failed too).
      { urls, names: { [u('/decks/ledgerly.pdf')]: 'Ledgerly GmbH', 'missing.pdf': 'Missing Co' } },
      { ...baseDeps(), progress: (n, d) => seen.push(`${n}:${d.label}`) },
    );
    expect(decks.map((d) => [d.label, d.kind, d.problem === null, d.duplicateOf])).toEqual([
      [u('/decks/ledgerly.pdf'), 'pdf', true, null],
      [u('/decks/snackr.pptx'), 'pptx', true, null],
      [u('/decks/missing.pdf'), null, false, null],
      [u('/share/deck'), null, false, null],
      [u('/mirror/ledgerly-copy.pdf'), 'pdf', true, u('/decks/ledgerly.pdf')],
      [`${u('/decks/ledgerly.pdf')} (2)`, 'pdf', true, u('/decks/ledgerly.pdf')],
      [u('/go/ledgerly'), 'pdf', true, u('/decks/ledgerly.pdf')],
      [u('/go/dropbox'), null, false, null],
      [u('/share/viewer.pdf'), null, false, null],
      ['https://docsend.com/view/abc123', null, false, null],
    ]);
    const [ledgerly, snackr, missing, page, copy, again, redirected, dropbox, viewer, docsend] = decks;
    expect(ledgerly).toEqual({
      sha256: sha(pdf),
      origin: 'url',
      label: u('/decks/ledgerly.pdf'),
      deckUrl: u('/decks/ledgerly.pdf'),
      startupName: 'Ledgerly GmbH',
      kind: 'pdf',
      bytes: pdf.length,
      problem: null,
      duplicateOf: null,
    });
    // The service is given the link itself (with its query); the label drops the query.
    expect(snackr).toMatchObject({
      sha256: sha(pptx),
      deckUrl: urls[1],
      bytes: pptx.length,
      startupName: null,
    });
    expect(missing).toMatchObject({
      sha256: null,
      deckUrl: null,
      bytes: null,
      problem: 'the link answered 404 Not Found',
      startupName: 'Missing Co',
    });
    expect(page!.problem).toBe(
      'the link serves a web page (text/html), not the file: give the direct link to the PDF or PPTX file, not a viewer page',
    );
    expect(viewer!.problem).toBe(
      'the link serves a web page (HTML), not a PDF or PPTX deck: give the direct link to the file, not a viewer page',
    );
    for (const dup of [copy, again, redirected]) {
      expect(dup).toMatchObject({
        sha256: sha(pdf),
        deckUrl: null,
        problem: null,
        kind: 'pdf',
        bytes: pdf.length,
      });
    }
    expect(dropbox!.problem).toMatch(
      /^the link redirects to https:\/\/www\.dropbox\.com\/s\/abc\/deck\.pdf: that link opens a Dropbox page \(dl=0 opens the preview\)/,
    );
    expect(docsend!.problem).toMatch(/^the link opens a DocSend page, a viewer, not the file/);
    // Fetched once each; the DocSend link never.
    expect(web.hits.get('/decks/ledgerly.pdf')).toBe(2); // the link, and the redirect's target
    expect(web.hits.get('/decks/snackr.pptx')).toBe(1);
    expect(seen).toHaveLength(urls.length);
    expect(seen[5]).toBe(`6:${u('/decks/ledgerly.pdf')} (2)`);
  });

  it('a link that answers too slowly, or with a file past the size cap, is a problem, not an error', async () => {
    const [slow] = await collectDecks(
      { urls: [`${web.url}/slow.pdf`] },
      { ...baseDeps(), fetchTimeoutMs: 1_000 },
    );
    expect(slow!.problem).toBe('the link did not answer within 1 s');
    const [big] = await collectDecks(
      { urls: [`${web.url}/decks/ledgerly.pdf`] },
      { ...baseDeps(), maxBytes: 1_000 },
    );
    expect(big!.problem).toBe('the file is larger than the 1 KB a deck may be');
    // Without the test server's certificate the link is refused by TLS.
    const { trustedCa: _ca, ...untrusting } = baseDeps();
    const [tls] = await collectDecks({ urls: [`${web.url}/decks/ledgerly.pdf`] }, untrusting);
    expect(tls!.problem).toMatch(/^the link's server has a TLS certificate that is not trusted/);
  });
});

describe('collectDecks: a folder', () => {
  it('reads the .pdf and .pptx files by name, with the sidecar names; no S3 place: says so', async () => {
    const inbox = join(dir, 'inbox');
    await mkdir(join(inbox, 'older'), { recursive: true });
    await writeFile(join(inbox, 'ledgerly-seed-deck.pdf'), pdf);
    await writeFile(join(inbox, 'Snackr Pitch.PPTX'), pptx);
    await writeFile(join(inbox, 'notes.txt'), 'not a deck');
    await writeFile(join(inbox, '.ledgerly-seed-deck.pdf'), 'macOS resource fork');
    await writeFile(join(inbox, 'older', 'kelvinforge.pptx'), kelvin); // sub-folders are not read
    await writeFile(join(inbox, 'fake.pdf'), 'just text');
    await writeFile(join(inbox, 'decks.yaml'), '# file name: startup name\nSnackr Pitch.PPTX: Snackr Inc.\n');
    const decks = await collectDecks({ urls: [`${web.url}/decks/ledgerly.pdf`], folder: inbox }, baseDeps());
    expect(decks.map((d) => [d.origin, d.label, d.startupName, d.kind])).toEqual([
      ['url', `${web.url}/decks/ledgerly.pdf`, null, 'pdf'],
      ['folder', 'Snackr Pitch.PPTX', 'Snackr Inc.', 'pptx'],
      ['folder', 'fake.pdf', 'Fake', null],
      ['folder', 'ledgerly-seed-deck.pdf', 'Ledgerly', 'pdf'],
    ]);
    const [, snackr, fake, ledgerly] = decks;
    expect(snackr).toMatchObject({
      sha256: sha(pptx),
      bytes: pptx.length,
      deckUrl: null,
      problem: NO_PUBLISH_PLACE('a file of a folder'),
      duplicateOf: null,
    });
    expect(snackr!.problem).toBe(
      'a file of a folder needs an https link the service can fetch: set VIR_STORE_URL to an S3 store, or give the job an s3 destination',
    );
    expect(fake).toMatchObject({ sha256: null, problem: 'the file is neither a PDF nor a PPTX file' });
    // The same bytes as the link: a duplicate of it (nothing to publish, no problem).
    expect(ledgerly).toMatchObject({
      sha256: sha(pdf),
      duplicateOf: `${web.url}/decks/ledgerly.pdf`,
      problem: null,
    });
  });

  it('a malformed sidecar is an error naming the file and the line; a missing folder too', async () => {
    const inbox = join(dir, 'bad-inbox');
    await mkdir(inbox, { recursive: true });
    await writeFile(join(inbox, 'a.pdf'), pdf);
    await writeFile(join(inbox, 'decks.yaml'), 'a.pdf: Acme\nb.pdf:\n  nested: map\n');
    await expect(collectDecks({ folder: inbox }, baseDeps())).rejects.toThrow(
      `${join(inbox, 'decks.yaml')}, line 2: the startup name of "b.pdf" is not a name`,
    );
    await expect(collectDecks({ folder: join(dir, 'nowhere') }, baseDeps())).rejects.toThrow(
      `the deck folder ${join(dir, 'nowhere')} does not exist`,
    );
  });
});

describe('collectDecks: an S3 prefix (versitygw behind TLS)', () => {
  let s3: S3Server;
  let proxy: { endpoint: string; close(): Promise<void> };
  let admin: S3Client;
  let env: Record<string, string>;

  beforeAll(async () => {
    s3 = await startS3Server();
    proxy = await startTlsProxy(Number(new URL(s3.endpoint).port), cert);
    admin = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    for (const bucket of ['inbox', 'vir-store', 'vir-reports']) {
      await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    }
    const put = (key: string, body: string | Buffer) =>
      admin.send(new PutObjectCommand({ Bucket: 'inbox', Key: key, Body: body }));
    await put('decks/2026/kelvinforge_investor_presentation.pptx', kelvin);
    await put('decks/2026/auscura-health-seed.pdf', auscura);
    await put('decks/2026/ledgerly.pdf', pdf);
    await put('decks/2026/readme.txt', 'not a deck');
    await put('decks/2026/decks.yaml', 'kelvinforge_investor_presentation.pptx: Kelvinforge B.V.\n');
    await put('decks/2026/archive/old.pdf', pdf);
    await put('decks/2027/next.pdf', pdf);
    env = {
      VIR_S3_ACCESS_KEY_ID: s3.accessKeyId,
      VIR_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      VIR_STORE_S3_ENDPOINT: proxy.endpoint,
      AWS_REGION: s3.region,
    };
  });

  afterAll(async () => {
    admin?.destroy();
    await proxy?.close();
    await s3?.close();
  });

  const fetchLink = async (url: string) => {
    const trusting = new Agent({ connect: { ca: [...rootCertificates, cert.cert] } });
    try {
      const res = await request(url, { dispatcher: trusting });
      return { status: res.statusCode, body: Buffer.from(await res.body.arrayBuffer()) };
    } finally {
      await trusting.close();
    }
  };

  it('lists the prefix a page at a time, copies each deck to the S3 store, and links it for a day', async () => {
    const s3Store = new S3Store({ bucket: 'vir-store', prefix: 'prod' }, admin);
    const source = { bucket: 'inbox', prefix: '/decks/2026/', endpoint: proxy.endpoint, region: s3.region };
    const before = Date.now();
    const decks = await collectDecks(
      {
        urls: [`${web.url}/decks/ledgerly.pdf`],
        s3: source,
        names: { 'auscura-health-seed.pdf': 'Auscura' },
      },
      { ...baseDeps(), env, store: s3Store },
    );
    expect(decks.map((d) => [d.origin, d.label, d.startupName, d.kind, d.duplicateOf])).toEqual([
      ['url', `${web.url}/decks/ledgerly.pdf`, null, 'pdf', null],
      ['s3', 'auscura-health-seed.pdf', 'Auscura', 'pdf', null],
      ['s3', 'kelvinforge_investor_presentation.pptx', 'Kelvinforge B.V.', 'pptx', null],
      ['s3', 'ledgerly.pdf', 'Ledgerly', 'pdf', `${web.url}/decks/ledgerly.pdf`],
    ]);
    const [, aus, kel, dup] = decks;
    expect(dup!.deckUrl).toBeNull();
    for (const [deck, bytes] of [
      [aus!, auscura],
      [kel!, kelvin],
    ] as const) {
      expect(deck.sha256).toBe(sha(bytes));
      expect(deck.problem).toBeNull();
      const link = new URL(deck.deckUrl!);
      expect(link.origin).toBe(proxy.endpoint);
      expect(link.pathname).toBe(
        `/vir-store/prod/runs/deck-triage-2026-11-27/decks/${deck.sha256}.${deck.kind}`,
      );
      expect(Number(link.searchParams.get('X-Amz-Expires'))).toBe(86_400);
      const signed = link.searchParams.get('X-Amz-Date')!;
      expect(
        Date.parse(signed.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')),
      ).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      const got = await fetchLink(deck.deckUrl!);
      expect(got.status).toBe(200);
      expect(sha(got.body)).toBe(deck.sha256);
      expect(got.body.equals(bytes)).toBe(true);
    }
  });

  it('a pre-signed link is refused once it has expired', async () => {
    const destination = S3DestinationFieldsSchema.parse({
      bucket: 'vir-reports',
      prefix: 'weekly',
      region: s3.region,
      endpoint: proxy.endpoint,
    });
    const inbox = join(dir, 'expiring');
    await mkdir(inbox, { recursive: true });
    await writeFile(join(inbox, 'auscura.pdf'), auscura);
    const [deck] = await collectDecks(
      { folder: inbox },
      { ...baseDeps(), env, publish: destination, linkTtlSeconds: 4 },
    );
    expect(new URL(deck!.deckUrl!).pathname).toBe(
      `/vir-reports/weekly/decks/deck-triage-2026-11-27/${sha(auscura)}.pdf`,
    );
    expect((await fetchLink(deck!.deckUrl!)).status).toBe(200);
    // Until the link's own end (signed at X-Amz-Date, for X-Amz-Expires seconds), and a second more.
    const link = new URL(deck!.deckUrl!);
    const signed = link.searchParams
      .get('X-Amz-Date')!
      .replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z');
    const ends = Date.parse(signed) + Number(link.searchParams.get('X-Amz-Expires')) * 1000;
    expect(Number(link.searchParams.get('X-Amz-Expires'))).toBe(4);
    await new Promise((r) => setTimeout(r, Math.max(0, ends - Date.now()) + 1_000));
    const late = await fetchLink(deck!.deckUrl!);
    expect(late.status).toBe(403);
    expect(late.body.toString('utf8')).toMatch(/expired/i);
  });

  it('an http S3 endpoint gives http links, which the service cannot fetch: another place is taken, else the deck says so', async () => {
    const destination = S3DestinationFieldsSchema.parse({ bucket: 'vir-reports', endpoint: s3.endpoint });
    const inbox = join(dir, 'plain-http');
    await mkdir(inbox, { recursive: true });
    await writeFile(join(inbox, 'kelvin.pptx'), kelvin);
    const [deck] = await collectDecks({ folder: inbox }, { ...baseDeps(), env, publish: destination });
    expect(deck).toMatchObject({ sha256: sha(kelvin), deckUrl: null });
    expect(deck!.problem).toBe(
      `the copy of the file would be at an http link (${s3.endpoint}), and the service fetches https links only: make the s3 destination's endpoint an https URL`,
    );
    // A store on plain http and an https destination: the destination is taken.
    const httpsDestination = S3DestinationFieldsSchema.parse({
      bucket: 'vir-reports',
      endpoint: proxy.endpoint,
    });
    const [viaDestination] = await collectDecks(
      { folder: inbox },
      {
        ...baseDeps(),
        env: { ...env, VIR_STORE_S3_ENDPOINT: s3.endpoint },
        store: new S3Store({ bucket: 'vir-store', prefix: '' }, admin),
        publish: httpsDestination,
      },
    );
    expect(new URL(viaDestination!.deckUrl!).pathname).toBe(
      `/vir-reports/decks/deck-triage-2026-11-27/${sha(kelvin)}.pptx`,
    );
    expect((await fetchLink(viaDestination!.deckUrl!)).body.equals(kelvin)).toBe(true);
  });

  it('follows the listing a page at a time (ListObjectsV2 continuation), the prefix only', async () => {
    const client = deckS3Client(
      { bucket: 'inbox', prefix: '', region: s3.region, endpoint: proxy.endpoint, forcePathStyle: true },
      { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      [cert.cert],
    );
    try {
      const listed = await listFolderObjects(client, 'inbox', 'decks/2026/', 2);
      expect(listed.map((o) => o.name)).toEqual([
        'auscura-health-seed.pdf',
        'decks.yaml',
        'kelvinforge_investor_presentation.pptx',
        'ledgerly.pdf',
        'readme.txt',
      ]);
    } finally {
      client.destroy();
    }
  });
});
