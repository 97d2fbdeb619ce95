/**
 * analyze_deck and get_deck_analysis over real HTTP: decks served by a local https server with a
 * self-signed certificate made at test time (trusted through the sandbox's trustedCa option),
 * PDF and PPTX analysed within the wait, a short wait answered 'running' and polled until done,
 * refused links, rooms of other accounts and unknown rooms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import {
  buildDocxArchive,
  buildPdf,
  buildPptx,
  LEDGERLY_SLIDES,
  SNACKR_SLIDES,
} from '../fixtures/decks/build.js';
import { startDeckServer, type DeckServer } from '../fixtures/decks/tls-server.js';
import { VisClient } from '../../api/client.js';
import { readRecord } from '../../api/read.js';
import { DECK_FIELDS } from '../../api/read-answers.js';
import { startCountingProxy } from '../helpers/counting-proxy.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { SERVICE_VARIANTS, variantTransform } from '../helpers/service-variants.js';

let decks: DeckServer;
let sandbox: RunningSandbox;
let slow: RunningSandbox;

beforeAll(async () => {
  const [pdf, pptx, weak, docx] = await Promise.all([
    buildPdf(LEDGERLY_SLIDES),
    buildPptx(LEDGERLY_SLIDES),
    buildPdf(SNACKR_SLIDES),
    buildDocxArchive(),
  ]);
  decks = await startDeckServer({
    '/ledgerly.pdf': { body: pdf, type: 'application/pdf' },
    '/ledgerly.pptx': {
      body: pptx,
      type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    },
    '/download/deck': { body: pdf, type: 'application/octet-stream' },
    '/snackr.pdf': { body: weak, type: 'application/pdf' },
    '/viewer.pdf': {
      body: '<!doctype html><html><body>Deck viewer</body></html>',
      type: 'text/html; charset=utf-8',
    },
    '/fake.pptx': { body: docx, type: 'application/octet-stream' },
    '/gone.pdf': { status: 404, body: 'not here', type: 'text/plain' },
    '/moved.pdf': { status: 302, body: '', headers: { location: '/ledgerly.pdf' } },
  });
  sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, trustedCa: [decks.cert.cert] });
  slow = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, trustedCa: [decks.cert.cert], deckWaitMs: 20 });
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), slow?.close(), decks?.close()]);
});

type Data = Record<string, any>;
const analyze = (target: RunningSandbox, params: Record<string, unknown>, key: string = KEYS.vc) =>
  callSandbox(target, 'analyze_deck', { key, params });
const poll = (target: RunningSandbox, room_id: string, key: string = KEYS.vc) =>
  callSandbox(target, 'get_deck_analysis', { key, params: { room_id } });

describe('analyze_deck within the wait', () => {
  it.each([
    ['PDF', '/ledgerly.pdf', 'pdf'],
    ['PPTX', '/ledgerly.pptx', 'pptx'],
  ])(
    'analyses a %s deck: done, scored against the thesis, facts quoted, 3 credits',
    async (_kind, path, kind) => {
      const before = (await callSandbox(sandbox, 'my_account', { key: KEYS.vc })).body.credits!.remaining!;
      const r = await analyze(sandbox, { deck_url: `${decks.url}${path}` });
      expect(r.status).toBe(200);
      expect(r.body.credits).toEqual({ charged: 3, remaining: before - 3 });
      const data = r.body.data as Data;
      expect(data.room_id).toMatch(/^room_[0-9a-f]{16}$/);
      expect(data.status).toBe('done');
      expect(data.deck).toMatchObject({ kind, pages: 8 });
      const a = data.analysis as Data;
      expect(a.startup_name).toBe('Ledgerly');
      expect(a.deal_score).toBeGreaterThanOrEqual(70);
      expect(a.deal_score).toBeLessThanOrEqual(100);
      expect(a.verdict).toBe('pursue');
      expect(a.dimensions.map((d: Data) => d.dimension)).toEqual([
        'team',
        'market',
        'traction',
        'product',
        'business_model',
        'thesis_fit',
      ]);
      for (const d of a.dimensions) {
        expect(d.score).toBeGreaterThanOrEqual(0);
        expect(d.score).toBeLessThanOrEqual(100);
        expect(d.rationale.length).toBeGreaterThan(10);
      }
      const traction = a.dimensions.find((d: Data) => d.dimension === 'traction');
      expect(traction.rationale).toContain('ARR $1.8M');
      expect(traction.rationale).toContain('240 customers');
      expect(a.facts).toMatchObject({
        raise_usd: 4_000_000,
        stage: 'seed',
        arr_usd: 1_800_000,
        customers: 240,
        growth_yoy_pct: 200,
        tam_usd: 14e9,
        gross_margin_pct: 78,
      });
      expect(a.market).toMatchObject({ sector: 'Finance & Blockchain', country: 'Germany' });
      const fit = a.dimensions.find((d: Data) => d.dimension === 'thesis_fit');
      expect(fit.rationale).toContain('Finance & Blockchain is in the thesis');
      expect(a.strengths.length).toBeGreaterThan(0);
      expect(a.questions.some((q: string) => q.includes('$4M'))).toBe(true);
      expect(r.body.charts[0]).toMatchObject({ type: 'bar', xKey: 'dimension', series: [{ key: 'score' }] });
      expect(r.body.charts[0]!.data).toHaveLength(6);
      expect(r.body.summary).toContain('deal score');

      const again = await poll(sandbox, data.room_id);
      expect(again.status).toBe(200);
      expect(again.body.credits!.charged).toBe(0);
      expect((again.body.data as Data).analysis.deal_score).toBe(a.deal_score);
    },
  );

  it('reads a weak deck outside the thesis as a pass with red flags', async () => {
    const r = await analyze(sandbox, { deck_url: `${decks.url}/snackr.pdf`, startup_name: 'Snackr' });
    expect(r.status).toBe(200);
    const a = (r.body.data as Data).analysis as Data;
    expect(a.startup_name).toBe('Snackr');
    expect(a.verdict).toBe('pass');
    expect(a.deal_score).toBeLessThan(50);
    expect(a.red_flags.join(' ')).toMatch(/No revenue, customer or user numbers/);
    expect(a.red_flags.join(' ')).toMatch(/Raising \$12M without revenue/);
    expect(a.risks.length).toBeGreaterThan(0);
  });

  it('accepts a direct link without a file extension and follows a redirect', async () => {
    const plain = await analyze(sandbox, { deck_url: `${decks.url}/download/deck` });
    expect(plain.status).toBe(200);
    expect((plain.body.data as Data).deck.kind).toBe('pdf');
    const moved = await analyze(sandbox, { deck_url: `${decks.url}/moved.pdf` });
    expect(moved.status).toBe(200);
    expect((moved.body.data as Data).status).toBe('done');
  });
});

describe('analyze_deck past the wait', () => {
  it("answers 'running' with the room_id, then get_deck_analysis returns the analysis when done", async () => {
    const r = await analyze(slow, { deck_url: `${decks.url}/ledgerly.pptx` });
    expect(r.status).toBe(200);
    const data = r.body.data as Data;
    expect(data.status).toBe('running');
    expect(data.analysis).toBeNull();
    expect(r.body.credits!.charged).toBe(3);
    expect(r.body.summary).toContain(data.room_id);
    let last: Data = data;
    let polls = 0;
    const deadline = Date.now() + 20_000;
    while (last.status === 'running' && Date.now() < deadline) {
      // Polls get_deck_analysis, as a client of the service must (the spec's way to wait).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const p = await poll(slow, data.room_id);
      expect(p.status).toBe(200);
      expect(p.body.credits!.charged).toBe(0);
      last = p.body.data as Data;
      polls++;
    }
    expect(polls).toBeGreaterThan(1);
    expect(last.status).toBe('done');
    expect(last.room_id).toBe(data.room_id);
    expect(last.analysis.verdict).toBe('pursue');
  });
});

describe('a service that puts room_id elsewhere in data (the spec does not show where)', () => {
  it("the runner's reader finds the room and its status through the key-names variant, and polls it", async () => {
    const proxy = await startCountingProxy(slow.url);
    proxy.setTransform(variantTransform(SERVICE_VARIANTS.find((v) => v.name === 'key-names')!));
    const client = new VisClient({ baseUrl: proxy.url, apiKey: KEYS.vc });
    try {
      const r = await client.call('analyze_deck', { deck_url: `${decks.url}/ledgerly.pdf` });
      expect(r.data?.room_id).toBeUndefined();
      const room = readRecord(r.data, DECK_FIELDS);
      expect(room.room_id).toMatch(/^room_[0-9a-f]{16}$/);
      expect(room.status).toBe('running');
      let status = room.status;
      const deadline = Date.now() + 20_000;
      while (status === 'running' && Date.now() < deadline) {
        // Polls get_deck_analysis, as a client of the service must.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const p = readRecord(
          (await client.call('get_deck_analysis', { room_id: room.room_id! })).data,
          DECK_FIELDS,
        );
        expect(p.room_id).toBe(room.room_id);
        status = p.status;
      }
      expect(status).toBe('done');
      expect(proxy.counts().get_deck_analysis).toBeGreaterThan(0);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});

describe('an analysis that takes longer than the wait (deckAnalysisMs)', () => {
  it("answers 'running' when the wait ends first, and the room is done when its analysis time is up", async () => {
    const long = await startTestSandbox({
      asOf: SANDBOX_TEST_AS_OF,
      trustedCa: [decks.cert.cert],
      deckWaitMs: 400,
      deckAnalysisMs: 1_500,
    });
    try {
      const started = Date.now();
      const r = await analyze(long, { deck_url: `${decks.url}/ledgerly.pdf` });
      const data = r.body.data as Data;
      // The call waited its whole wait (the analysis was not done), then answered.
      expect(Date.now() - started).toBeGreaterThanOrEqual(390);
      expect(data.status).toBe('running');
      expect(Date.parse(data.ready_at) - Date.parse(data.created_at)).toBe(1_500);
      expect((await poll(long, data.room_id)).body.data).toMatchObject({ status: 'running' });
      // The analysis is ready at a time (created_at + 1.5 s), not on an event: wait for it.
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      const done = (await poll(long, data.room_id)).body.data as Data;
      expect(done.status).toBe('done');
      expect(done.analysis.verdict).toBeDefined();
    } finally {
      await long.close();
    }
  });

  it('is a validated option', async () => {
    await expect(startTestSandbox({ deckAnalysisMs: -1 })).rejects.toThrow(
      /sandbox option deckAnalysisMs: must be at least 0/,
    );
  });
});

describe('analyze_deck refusals', () => {
  it.each([
    ['http://', 'http://example.com/deck.pdf', /https/],
    ['a Google Slides page', 'https://docs.google.com/presentation/d/abc123/edit', /viewer/],
    ['a Google Drive page', 'https://drive.google.com/file/d/abc123/view', /viewer/],
    ['a Dropbox share page', 'https://www.dropbox.com/s/abc/deck.pdf?dl=0', /dl=1/],
    ['DocSend', 'https://docsend.com/view/abc123', /viewer/],
    ['a .docx file', 'https://example.com/files/deck.docx', /\.docx file/],
    ['not a URL', 'deck.pdf', /not a valid URL/],
  ])('refuses %s with 400 invalid_input and says why', async (_what, deck_url, why) => {
    const before = (await callSandbox(sandbox, 'my_account', { key: KEYS.vc })).body.credits!.remaining;
    const r = await analyze(sandbox, { deck_url });
    expect(r.status).toBe(400);
    expect(r.body.error!.code).toBe('invalid_input');
    expect(r.body.error!.message).toMatch(why);
    expect(r.body.credits).toEqual({ charged: 0, remaining: before });
  });

  it('refuses content served as text/html and an archive that is not a PPTX', async () => {
    const html = await analyze(sandbox, { deck_url: `${decks.url}/viewer.pdf` });
    expect(html.status).toBe(400);
    expect(html.body.error!.message).toMatch(/text\/html/);
    const docx = await analyze(sandbox, { deck_url: `${decks.url}/fake.pptx` });
    expect(docx.status).toBe(400);
    expect(docx.body.error!.message).toMatch(/Word document/);
  });

  it('answers 422 deck_fetch_failed when the file cannot be fetched', async () => {
    const gone = await analyze(sandbox, { deck_url: `${decks.url}/gone.pdf` });
    expect(gone.status).toBe(422);
    expect(gone.body.error).toMatchObject({ code: 'deck_fetch_failed' });
    expect(gone.body.error!.message).toContain('HTTP 404');
    const untrusted = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF });
    try {
      const r = await analyze(untrusted, { deck_url: `${decks.url}/ledgerly.pdf` });
      expect(r.status).toBe(422);
      expect(r.body.error!.message).toMatch(/certificate is not trusted/);
    } finally {
      await untrusted.close();
    }
  });

  it('is for paid investor accounts only', async () => {
    const startup = await analyze(sandbox, { deck_url: `${decks.url}/ledgerly.pdf` }, KEYS.startup);
    expect(startup.status).toBe(403);
  });
});

describe('get_deck_analysis visibility', () => {
  it("hides another account's room (404) and answers 404 for an unknown room", async () => {
    const r = await analyze(sandbox, { deck_url: `${decks.url}/ledgerly.pdf` });
    const roomId = (r.body.data as Data).room_id as string;
    const other = await poll(sandbox, roomId, KEYS.startup);
    expect(other.status).toBe(404);
    expect(other.body.error!.code).toBe('not_found');
    const unknown = await poll(sandbox, 'room_0000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error!.message).toContain('room_0000000000000000');
    const mine = await callSandbox(sandbox, 'get_deck_analysis', {
      key: KEYS.vc,
      method: 'GET',
      params: { room_id: roomId },
    });
    expect(mine.status).toBe(200);
  });
});
