/**
 * The client on a scripted server when the transport fails: dropped and refused connections,
 * headers and body timeouts, aborts, and a sequence of retryable failures before a success.
 */
import { describe, expect, it } from 'vitest';
import {
  createClient,
  isVisError,
  RateLimitedError,
  readPage,
  RequestAbortedError,
  ServiceUnavailableError,
  type VisClient,
  type VisError,
} from '../../api/index.js';
import { clientBed, investors, KEY } from './client-bed.js';
import {
  errorEnvelope,
  failure,
  okEnvelope,
  startScriptedServer,
  type ScriptedServer,
} from './scripted-server.js';

let server: ScriptedServer;
let client: VisClient;
const { withClient } = clientBed((s, c) => ((server = s), (client = c)));

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
