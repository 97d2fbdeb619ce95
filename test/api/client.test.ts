/**
 * The client on a scripted server when calls succeed: what it sends (POST and GET, parameters
 * with their defaults, the key, a path prefix), what it returns (the envelope as it came, unknown
 * fields and other names in data passing through), callDetailed and keep-alive reuse.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_FIELDS,
  CLIENT_DEFAULTS,
  INVESTOR_FIELDS,
  MethodNotAllowedError,
  readAccount,
  readPage,
  readRecord,
  type VisClient,
} from '../../api/index.js';
import { clientBed, investors, KEY } from './client-bed.js';
import { failure, okEnvelope, type ScriptedServer } from './scripted-server.js';

let server: ScriptedServer;
let client: VisClient;
const { withClient } = clientBed((s, c) => ((server = s), (client = c)));

describe('success', () => {
  it('POSTs JSON with the bearer key and parses the envelope', async () => {
    server.script({ body: okEnvelope('my_account', { plan: 'paid', credits_balance: 42, tools: ['ask'] }) });
    const result = await client.call('my_account', {});
    expect(result.success).toBe(true);
    expect(readRecord(result.data, ACCOUNT_FIELDS)).toMatchObject({ plan: 'paid', credits_balance: 42 });
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/my_account');
    expect(req.body).toBe('{}');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers['user-agent']).toBe(CLIENT_DEFAULTS.userAgent);
  });

  it('sends validated parameters with their defaults', async () => {
    server.script({ body: okEnvelope('search_investors', investors) });
    const result = await client.call('search_investors', { country: 'France' });
    expect(readPage('search_investors', result.data).items[0]?.name).toBe('Acme Ventures');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      country: 'France',
      sort: 'score',
      limit: 25,
      offset: 0,
    });
  });

  it('keeps a path prefix of the base URL', async () => {
    server.script({ body: okEnvelope('my_account', { plan: 'free' }) });
    await withClient({ baseUrl: `${server.url}/prefix/` }, (c) => c.call('my_account', {}));
    expect(server.requests[0]!.url).toBe('/prefix/v1/my_account');
  });

  it('GETs a free operation with arrays as repeated query parameters and no body', async () => {
    server.script({ body: okEnvelope('search_startups', { startups: [{ key: 's1', name: 'One' }] }) });
    const result = await client.call(
      'search_startups',
      { countries: ['France', 'Côte d’Ivoire'], stages: ['seed', 'series-a'], query: 'a&b' },
      { method: 'GET' },
    );
    expect(readPage('search_startups', result.data).items).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.body).toBe('');
    expect(req.headers['content-type']).toBeUndefined();
    const url = new URL(req.url, server.url);
    expect(url.pathname).toBe('/v1/search_startups');
    expect(url.searchParams.getAll('countries')).toEqual(['France', 'Côte d’Ivoire']);
    expect(url.searchParams.getAll('stages')).toEqual(['seed', 'series-a']);
    expect(url.searchParams.get('query')).toBe('a&b');
    expect(url.searchParams.get('limit')).toBe('25');
    expect(url.searchParams.get('offset')).toBe('0');
  });

  it('refuses GET for a paid operation before sending', async () => {
    const err = await failure(() =>
      client.call('ask', { query: 'how many seed rounds?' }, { method: 'GET' }),
    );
    expect(err).toBeInstanceOf(MethodNotAllowedError);
    expect(err.code).toBe('method_not_allowed');
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      'ask failed: method_not_allowed: GET is only for 0-credit operations; ask costs 1 credits: use POST',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('lets unknown fields of the envelope and of data pass through', async () => {
    server.script({
      body: okEnvelope(
        'search_investors',
        {
          ...investors,
          investors: [{ key: 'k', name: 'N', brand_new_field: { nested: true } }],
          facets: { countries: 3 },
        },
        { trace_id: 'abc', charts: [{ type: 'sankey', title: 'T', series: [{ weird: 1 }], extra: 'x' }] },
      ),
    });
    const result = await client.call('search_investors', {});
    expect(result.data?.facets).toEqual({ countries: 3 });
    expect(readPage('search_investors', result.data).items[0]?.brand_new_field).toEqual({ nested: true });
    expect((result as Record<string, unknown>).trace_id).toBe('abc');
    expect(result.charts?.[0]?.type).toBe('sankey');
  });

  it('callDetailed exposes status, rate-limit headers and duration', async () => {
    server.script({
      body: okEnvelope('my_account', { plan: 'paid' }),
      headers: {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '59',
        'X-RateLimit-Reset': '1763769600',
      },
    });
    const detailed = await client.callDetailed('my_account', {});
    expect(detailed.status).toBe(200);
    expect(detailed.rateLimit).toEqual({ limit: 60, remaining: 59, resetAt: new Date(1763769600 * 1000) });
    expect(detailed.durationMs).toBeGreaterThanOrEqual(0);
    expect(detailed.durationMs).toBeLessThan(10_000);
    expect(readAccount(detailed.result).plan).toBe('paid');
  });

  it('callDetailed gives nulls when the rate-limit headers are absent', async () => {
    server.script({ body: okEnvelope('my_account', { plan: 'paid' }) });
    const detailed = await client.callDetailed('my_account', {});
    expect(detailed.rateLimit).toEqual({ limit: null, remaining: null, resetAt: null });
  });

  it('reuses a keep-alive connection for sequential calls', async () => {
    await withClient({ connections: 1 }, async (c) => {
      const before = server.connections();
      for (let i = 0; i < 3; i++) {
        server.script({ body: okEnvelope('my_account', { plan: 'paid' }) });
        await c.call('my_account', {});
      }
      expect(server.connections() - before).toBe(1);
      const ids = new Set(server.requests.map((r) => r.connection));
      expect(ids.size).toBe(1);
    });
  });
});

describe('data is not a contract', () => {
  it('an envelope whose data has other names and forms is returned as it came', async () => {
    const data = {
      investors: 'none',
      results: [{ normalized_key: 'k', name: 'N', score: '12.5' }],
      total_count: '1',
    };
    server.script({
      body: { ...okEnvelope('search_investors', data), charts: [{ title: null, series: ['a'] }] },
    });
    const result = await client.call('search_investors', {});
    expect(result.data).toEqual(data);
    expect(result.charts).toEqual([{ title: null, series: ['a'] }]);
    const page = readPage('search_investors', result.data);
    expect(page.total).toBe(1);
    expect(page.items).toHaveLength(1);
    expect(readRecord(page.items[0], INVESTOR_FIELDS)).toMatchObject({ key: 'k', name: 'N', score: 12.5 });
  });

  it('a success envelope without data is a result with no data, not an error', async () => {
    server.script({
      body: { success: true, operation: 'my_account', summary: 'ok', charts: [], url: null, credits: null },
    });
    const result = await client.call('my_account', {});
    expect(result.data).toBeUndefined();
    expect(readAccount(result)).toEqual({
      plan: null,
      balance: null,
      tools: null,
      accountType: null,
      rateLimits: { perMinute: null, perDay: null },
    });
  });
});
