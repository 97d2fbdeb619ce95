/**
 * The client's error classes on a scripted server: each status and code to its class, the
 * rate-limit state and reset formats of a 429, and 200 answers that are not the envelope.
 */
import { describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  InsufficientCreditsError,
  InvalidInputError,
  MalformedResponseError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnexpectedStatusError,
  UpgradeRequiredError,
  type VisClient,
  VisError,
} from '../../api/index.js';
import { clientBed } from './client-bed.js';
import { errorEnvelope, failure, okEnvelope, type ScriptedServer } from './scripted-server.js';

let server: ScriptedServer;
let client: VisClient;
clientBed((s, c) => ((server = s), (client = c)));

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
