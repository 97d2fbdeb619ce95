import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  CLIENT_DEFAULTS,
  createClient,
  ForbiddenError,
  InsufficientCreditsError,
  InvalidClientOptionsError,
  InvalidInputError,
  ACCOUNT_FIELDS,
  INVESTOR_FIELDS,
  isVisError,
  MalformedResponseError,
  MethodNotAllowedError,
  NotFoundError,
  ParamValidationError,
  readAccount,
  readPage,
  readRecord,
  RateLimitedError,
  RequestAbortedError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnexpectedStatusError,
  UpgradeRequiredError,
  VisClient,
  VisError,
  type VisClientOptions,
} from '../../api/index.js';
import {
  errorEnvelope,
  okEnvelope,
  startScriptedServer,
  type ScriptedServer,
  failure,
} from './scripted-server.js';

const KEY = 'vis_live_clienttest0123456789';
const investors = {
  investors: [{ key: 'acme-ventures', name: 'Acme Ventures' }],
  total: 1,
  limit: 25,
  offset: 0,
};

let server: ScriptedServer;
let client: VisClient;

beforeAll(async () => {
  server = await startScriptedServer();
  client = new VisClient({ baseUrl: server.url, apiKey: KEY });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

function withClient<T>(options: Partial<VisClientOptions>, fn: (c: VisClient) => Promise<T>): Promise<T> {
  const c = createClient({ baseUrl: server.url, apiKey: KEY, ...options });
  return fn(c).finally(() => c.close());
}

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

describe('error classes', () => {
  const cases: {
    title: string;
    status: number;
    body: unknown;
    cls: new (...args: never[]) => VisError;
    code: string;
    retryable: boolean;
    message: string;
  }[] = [
    {
      title: '400',
      status: 400,
      body: errorEnvelope('search_investors', 'invalid_input', 'limit must be at most 100'),
      cls: InvalidInputError,
      code: 'invalid_input',
      retryable: false,
      message: 'search_investors failed: 400 invalid_input: limit must be at most 100',
    },
    {
      title: '401',
      status: 401,
      body: errorEnvelope('search_investors', 'unauthorized', 'key missing, wrong or revoked'),
      cls: UnauthorizedError,
      code: 'unauthorized',
      retryable: false,
      message: 'search_investors failed: 401 unauthorized: key missing, wrong or revoked',
    },
    {
      title: '402 upgrade_required',
      status: 402,
      body: errorEnvelope('search_investors', 'upgrade_required', 'needs a paid plan'),
      cls: UpgradeRequiredError,
      code: 'upgrade_required',
      retryable: false,
      message: 'search_investors failed: 402 upgrade_required: needs a paid plan',
    },
    {
      title: '402 insufficient_credits',
      status: 402,
      body: errorEnvelope('search_investors', 'insufficient_credits', 'balance 1, needs 3'),
      cls: InsufficientCreditsError,
      code: 'insufficient_credits',
      retryable: false,
      message: 'search_investors failed: 402 insufficient_credits: balance 1, needs 3',
    },
    {
      title: '402 with another code falls back to insufficient credits',
      status: 402,
      body: errorEnvelope('search_investors', 'payment_required', 'pay up'),
      cls: InsufficientCreditsError,
      code: 'insufficient_credits',
      retryable: false,
      message: 'search_investors failed: 402 payment_required: pay up',
    },
    {
      title: '403 insufficient_scope',
      status: 403,
      body: errorEnvelope('search_investors', 'insufficient_scope', 'key lacks the read scope'),
      cls: ForbiddenError,
      code: 'insufficient_scope',
      retryable: false,
      message: 'search_investors failed: 403 insufficient_scope: key lacks the read scope',
    },
    {
      title: '403 account_type_required',
      status: 403,
      body: errorEnvelope('search_investors', 'account_type_required', 'investor accounts only'),
      cls: ForbiddenError,
      code: 'account_type_required',
      retryable: false,
      message: 'search_investors failed: 403 account_type_required: investor accounts only',
    },
    {
      title: '404',
      status: 404,
      body: errorEnvelope('search_investors', 'not_found', 'no such investor'),
      cls: NotFoundError,
      code: 'not_found',
      retryable: false,
      message: 'search_investors failed: 404 not_found: no such investor',
    },
    {
      title: '429',
      status: 429,
      body: errorEnvelope('search_investors', 'rate_limited', '60 calls per minute'),
      cls: RateLimitedError,
      code: 'rate_limited',
      retryable: true,
      message: 'search_investors failed: 429 rate_limited: 60 calls per minute',
    },
    {
      title: '500 envelope',
      status: 500,
      body: errorEnvelope('search_investors', 'internal_error', 'boom'),
      cls: ServiceUnavailableError,
      code: 'service_unavailable',
      retryable: true,
      message: 'search_investors failed: 500 internal_error: boom',
    },
    {
      title: '503 envelope',
      status: 503,
      body: errorEnvelope('search_investors', 'service_unavailable', 'maintenance'),
      cls: ServiceUnavailableError,
      code: 'service_unavailable',
      retryable: true,
      message: 'search_investors failed: 503 service_unavailable: maintenance',
    },
    {
      title: '502 HTML page',
      status: 502,
      body: '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
      cls: ServiceUnavailableError,
      code: 'service_unavailable',
      retryable: true,
      message: 'search_investors failed: 502 service_unavailable: HTML page instead of a JSON envelope',
    },
    {
      title: '401 from a proxy in plain text',
      status: 401,
      body: 'Unauthorized',
      cls: UnauthorizedError,
      code: 'unauthorized',
      retryable: false,
      message: 'search_investors failed: 401 unauthorized: body is not a JSON error envelope',
    },
    {
      title: '418 is an unexpected status',
      status: 418,
      body: errorEnvelope('search_investors', 'teapot', 'short and stout'),
      cls: UnexpectedStatusError,
      code: 'unexpected_status',
      retryable: false,
      message: 'search_investors failed: 418 teapot: short and stout',
    },
  ];

  for (const c of cases) {
    it(`${c.title} -> ${c.cls.name}`, async () => {
      server.script({ status: c.status, body: c.body });
      const err = await failure(() => client.call('search_investors', {}));
      expect(err).toBeInstanceOf(c.cls);
      expect(err).toBeInstanceOf(VisError);
      expect(err).toBeInstanceOf(Error);
      expect(err.name).toBe(c.cls.name);
      expect(err.code).toBe(c.code);
      expect(err.status).toBe(c.status);
      expect(err.operation).toBe('search_investors');
      expect(err.retryable).toBe(c.retryable);
      expect(err.message).toBe(c.message);
      const json = err.toJSON();
      expect(json).toMatchObject({
        name: c.cls.name,
        code: c.code,
        status: c.status,
        retryable: c.retryable,
        message: c.message,
      });
      if (typeof c.body === 'string') expect(err.body).toBeNull();
      else expect(err.body).toEqual((c.body as { error: unknown }).error);
      expect(server.requests).toHaveLength(1);
    });
  }

  it('a 5xx carries the reason "status"', async () => {
    server.script({ status: 503, body: '<html>down</html>' });
    const err = await failure(() => client.call('my_account', {}));
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).reason).toBe('status');
    expect(err.toJSON().reason).toBe('status');
  });

  it('a 200 with success:false is classified by its code', async () => {
    server.script({ status: 200, body: errorEnvelope('ask', 'insufficient_credits', 'balance 0') });
    const err = await failure(() => client.call('ask', { query: 'top investors' }));
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    expect(err.status).toBe(200);
    expect(err.message).toBe('ask failed: 200 insufficient_credits: balance 0');
  });

  it('a 429 carries the rate-limit state of its response', async () => {
    server.script({
      status: 429,
      body: errorEnvelope('my_account', 'rate_limited', 'slow down'),
      headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1763769600' },
    });
    const err = (await failure(() => client.call('my_account', {}))) as RateLimitedError;
    expect(err.rateLimit).toEqual({ limit: 60, remaining: 0, resetAt: new Date(1763769600_000) });
    expect(err.resetAt).toEqual(new Date(1763769600_000));
    expect(err.retryAfterMs(new Date(1763769600_000 - 1500))).toBe(1500);
    expect(err.retryAfterMs(new Date(1763769600_000 + 1500))).toBe(0);
    expect(err.toJSON().resetAt).toBe('2025-11-22T00:00:00.000Z');
  });
});

describe('X-RateLimit-Reset formats on a 429', () => {
  const fixed = new Date('2026-11-22T00:00:00Z');
  const formats: [string, string | undefined, (before: number, after: number) => [number, number] | null][] =
    [
      ['delta seconds', '30', (b, a) => [b + 30_000, a + 30_000]],
      ['epoch seconds', String(fixed.getTime() / 1000), () => [fixed.getTime(), fixed.getTime()]],
      ['epoch milliseconds', String(fixed.getTime()), () => [fixed.getTime(), fixed.getTime()]],
      ['HTTP date', 'Sun, 22 Nov 2026 00:00:00 GMT', () => [fixed.getTime(), fixed.getTime()]],
      ['ISO 8601', '2026-11-22T01:00:00+01:00', () => [fixed.getTime(), fixed.getTime()]],
      ['missing', undefined, () => null],
      ['garbage', 'soon', () => null],
    ];
  for (const [title, value, expected] of formats) {
    it(title, async () => {
      server.script({
        status: 429,
        body: errorEnvelope('my_account', 'rate_limited', 'slow down'),
        headers: value === undefined ? {} : { 'X-RateLimit-Reset': value },
      });
      const before = Date.now();
      const err = (await failure(() => client.call('my_account', {}))) as RateLimitedError;
      const after = Date.now();
      expect(err).toBeInstanceOf(RateLimitedError);
      const range = expected(before, after);
      if (range === null) {
        expect(err.resetAt).toBeNull();
        expect(err.retryAfterMs()).toBeNull();
      } else {
        expect(err.resetAt).not.toBeNull();
        expect(err.resetAt!.getTime()).toBeGreaterThanOrEqual(range[0]);
        expect(err.resetAt!.getTime()).toBeLessThanOrEqual(range[1]);
      }
    });
  }

  it('falls back to Retry-After when X-RateLimit-Reset is absent', async () => {
    server.script({
      status: 429,
      body: errorEnvelope('my_account', 'rate_limited', 'x'),
      headers: { 'Retry-After': '5' },
    });
    const before = Date.now();
    const err = (await failure(() => client.call('my_account', {}))) as RateLimitedError;
    expect(err.resetAt!.getTime()).toBeGreaterThanOrEqual(before + 5000);
    expect(err.retryAfterMs()).toBeGreaterThan(4000);
    expect(err.retryAfterMs()).toBeLessThanOrEqual(5000);
  });
});

describe('transport failures', () => {
  it('a dropped connection is a retryable ServiceUnavailableError with a cause', async () => {
    server.script({ destroy: true });
    const err = await failure(() => client.call('my_account', {}));
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).reason).toBe('network');
    expect(err.retryable).toBe(true);
    expect(err.status).toBeNull();
    expect(err.cause).toBeInstanceOf(Error);
    expect(err.message).toMatch(
      /^my_account failed: service_unavailable: network error \((UND_ERR_SOCKET|ECONNRESET)\): /,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a refused connection is a retryable ServiceUnavailableError', async () => {
    const closed = await startScriptedServer();
    const url = closed.url;
    await closed.close();
    const c = createClient({ baseUrl: url, apiKey: KEY, connectTimeoutMs: 2000 });
    try {
      const err = await failure(() => c.call('my_account', {}));
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect((err as ServiceUnavailableError).reason).toBe('network');
      expect(err.message).toContain('ECONNREFUSED');
    } finally {
      await c.close();
    }
  });

  it('no headers within headersTimeoutMs is a retryable timeout', async () => {
    server.script({ hang: true });
    const started = Date.now();
    const err = await withClient({ headersTimeoutMs: 200 }, (c) => failure(() => c.call('my_account', {})));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).reason).toBe('timeout');
    expect(err.retryable).toBe(true);
    expect(err.message).toBe(
      'my_account failed: service_unavailable: timeout: no response headers within 200 ms (UND_ERR_HEADERS_TIMEOUT)',
    );
    expect((err.cause as { code?: string }).code).toBe('UND_ERR_HEADERS_TIMEOUT');
  });

  it('a body that stalls past bodyTimeoutMs is a retryable timeout', async () => {
    server.script({ stallBody: true, body: okEnvelope('my_account', { plan: 'paid' }) });
    const err = await withClient({ bodyTimeoutMs: 200 }, (c) => failure(() => c.call('my_account', {})));
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).reason).toBe('timeout');
    expect(err.message).toContain('response body stalled for 200 ms');
  });

  it("the caller's AbortSignal aborts the call (not retryable)", async () => {
    server.script({ delayMs: 2000, body: okEnvelope('my_account', { plan: 'paid' }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50); // the caller gives up mid-answer (2 s), as a user would
    const err = await failure(() => client.call('my_account', {}, { signal: controller.signal }));
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect(err.code).toBe('aborted');
    expect(err.retryable).toBe(false);
  });

  it('an AbortSignal.timeout deadline is a retryable timeout', async () => {
    server.script({ delayMs: 2000, body: okEnvelope('my_account', { plan: 'paid' }) });
    const err = await failure(() => client.call('my_account', {}, { signal: AbortSignal.timeout(50) }));
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).reason).toBe('timeout');
  });

  it('destroy -> 500 -> 429 -> 200: every failure is retryable and the fourth request succeeds', async () => {
    server.script(
      { destroy: true },
      { status: 500, body: errorEnvelope('search_investors', 'internal_error', 'boom') },
      {
        status: 429,
        body: errorEnvelope('search_investors', 'rate_limited', 'wait'),
        headers: { 'X-RateLimit-Reset': '1' },
      },
      { body: okEnvelope('search_investors', investors), headers: { 'X-RateLimit-Remaining': '57' } },
    );
    const seen: VisError[] = [];
    let detailed;
    for (;;) {
      try {
        detailed = await client.callDetailed('search_investors', { limit: 10 });
        break;
      } catch (err) {
        if (!isVisError(err) || !err.retryable || seen.length >= 5) throw err;
        seen.push(err);
        if (err instanceof RateLimitedError) {
          const wait = err.retryAfterMs();
          expect(wait).not.toBeNull();
          expect(wait).toBeLessThanOrEqual(1000);
        }
      }
    }
    expect(seen.map((e) => e.constructor.name)).toEqual([
      'ServiceUnavailableError',
      'ServiceUnavailableError',
      'RateLimitedError',
    ]);
    expect(seen.map((e) => e.status)).toEqual([null, 500, 429]);
    expect(readPage('search_investors', detailed.result.data).items).toHaveLength(1);
    expect(detailed.rateLimit.remaining).toBe(57);
    expect(server.requests).toHaveLength(4);
    expect(server.requests.every((r) => JSON.parse(r.body).limit === 10)).toBe(true);
  });
});

describe('malformed responses', () => {
  it('a 200 whose body is not JSON', async () => {
    server.script({ status: 200, body: 'this is not json' });
    const err = await failure(() => client.call('my_account', {}));
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err.code).toBe('malformed_response');
    expect(err.retryable).toBe(false);
    expect(err.message).toBe('my_account failed: 200 malformed_response: body is not JSON');
    expect((err as MalformedResponseError).excerpt).toBe('this is not json');
  });

  it('a 200 whose JSON is not the envelope', async () => {
    server.script({ status: 200, body: { hello: 'world' } });
    const err = await failure(() => client.call('my_account', {}));
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err.message).toMatch(
      /^my_account failed: 200 malformed_response: body is not the Result envelope \(success: /,
    );
  });

  it('a 200 envelope whose data is not an object (the envelope says object)', async () => {
    server.script({ body: okEnvelope('search_investors', ['a', 'b'] as never) });
    const err = await failure(() => client.call('search_investors', {}));
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err.message).toMatch(/body is not the Result envelope \(data: /);
  });

  it('a chart that is not an object breaks the envelope (charts is an array of objects)', async () => {
    server.script({ body: { ...okEnvelope('my_account', {}), charts: ['a chart'] } });
    const err = await failure(() => client.call('my_account', {}));
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err.message).toMatch(/body is not the Result envelope \(charts\.0: /);
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

describe('validation before sending', () => {
  const bad: [string, () => Promise<unknown>, string, string][] = [
    [
      'limit above bound',
      () => client.call('search_investors', { limit: 101 }),
      'limit',
      'limit must be at most 100 (1 to 100)',
    ],
    [
      'offset below 0',
      () => client.call('search_startups', { offset: -1 }),
      'offset',
      'offset must be at least 0',
    ],
    [
      'ask query too short',
      () => client.call('ask', { query: 'hi' }),
      'query',
      'query must be at least 3 characters (3 to 500)',
    ],
    [
      'missing required key',
      () => client.call('get_investor', {} as { key: string }),
      'key',
      'key is required',
    ],
    [
      'unknown parameter',
      () => client.call('my_account', { verbose: true } as never),
      'verbose',
      'unknown parameter verbose',
    ],
    [
      'non-integer limit',
      () => client.call('find_customers', { limit: 2.5 }),
      'limit',
      'limit must be an integer from 1 to 50',
    ],
    [
      'wrong stage',
      () => client.call('find_investors', { raising_stage: 'series-z' as 'seed' }),
      'raising_stage',
      'raising_stage must be one of',
    ],
    [
      'unknown operation',
      () => client.call('no_such_op' as 'my_account', {}),
      'operation',
      'unknown operation no_such_op',
    ],
  ];
  for (const [title, call, field, message] of bad) {
    it(`${title}: ParamValidationError naming ${field}, nothing sent`, async () => {
      const err = await failure(call);
      expect(err).toBeInstanceOf(ParamValidationError);
      expect(err.code).toBe('invalid_params');
      expect(err.retryable).toBe(false);
      expect(err.status).toBeNull();
      const issues = (err as ParamValidationError).issues;
      expect(issues.some((i) => i.field === field)).toBe(true);
      expect(err.message).toContain(message);
      expect(err.message.startsWith(`${err.operation} failed: invalid_params: `)).toBe(true);
      expect(server.requests).toHaveLength(0);
    });
  }
});

describe('options', () => {
  it('applies the defaults and hides the key', () => {
    const c = new VisClient({ baseUrl: server.url, apiKey: KEY });
    expect(c.options).toEqual({ baseUrl: server.url, ...CLIENT_DEFAULTS });
    expect(c.options.headersTimeoutMs).toBe(120_000);
    expect(Object.keys(c)).not.toContain('apiKey');
    expect(JSON.stringify(c)).not.toContain(KEY);
    return c.close();
  });

  const badOptions: [string, Partial<VisClientOptions> & Record<string, unknown>, string][] = [
    ['baseUrl not a URL', { baseUrl: 'not a url' }, 'baseUrl must be an absolute http(s) URL'],
    ['baseUrl ftp', { baseUrl: 'ftp://example.org' }, 'baseUrl must use http or https'],
    ['empty apiKey', { apiKey: '' }, 'apiKey is required'],
    ['apiKey with a space', { apiKey: 'vis_live_ bad' }, 'apiKey must be printable ASCII without spaces'],
    ['connections 0', { connections: 0 }, 'connections must be at least 1 (1 to 256)'],
    ['connections 1.5', { connections: 1.5 }, 'connections must be an integer from 1 to 256'],
    ['headersTimeoutMs negative', { headersTimeoutMs: -5 }, 'headersTimeoutMs must be at least 1 ms'],
    [
      'connectTimeoutMs as string',
      { connectTimeoutMs: '10' as unknown as number },
      'connectTimeoutMs must be a whole number of milliseconds',
    ],
    ['unknown option', { retries: 3 }, 'unknown option retries'],
  ];
  for (const [title, patch, message] of badOptions) {
    it(`refuses ${title}`, () => {
      let caught: unknown;
      try {
        createClient({ baseUrl: server.url, apiKey: KEY, ...patch });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(InvalidClientOptionsError);
      const err = caught as InvalidClientOptionsError;
      expect(err.code).toBe('invalid_options');
      expect(err.message).toBe(`invalid VisClient options: ${message}`);
      expect(err.message).not.toContain('vis_live_ bad');
    });
  }

  it('close() is idempotent and later calls fail with ClientClosedError without sending', async () => {
    const c = createClient({ baseUrl: server.url, apiKey: KEY });
    await c.close();
    await c.close();
    expect(c.closed).toBe(true);
    const err = await failure(() => c.call('my_account', {}));
    expect(err).toBeInstanceOf(ClientClosedError);
    expect(err.retryable).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
