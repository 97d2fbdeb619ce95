import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  classifyError,
  ClientClosedError,
  errorFromResponse,
  ForbiddenError,
  InsufficientCreditsError,
  isVisError,
  RateLimitedError,
  redactDeep,
  redactText,
  RequestAbortedError,
  ServiceUnavailableError,
  VisError,
} from '../../api/index.js';

describe('classifyError', () => {
  it('passes VisErrors through unchanged', () => {
    const original = new ForbiddenError('no', { operation: 'ask', status: 403 });
    expect(classifyError(original)).toBe(original);
  });

  const network: [string, unknown][] = [
    ['ECONNRESET on the error', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    [
      'ECONNREFUSED in an AggregateError',
      new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })], 'connect failed'),
    ],
    [
      'undici SocketError in the cause',
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      }),
    ],
    [
      'a parser error',
      Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), {
        code: 'HPE_INVALID_CONSTANT',
      }),
    ],
  ];
  for (const [title, err] of network) {
    it(`${title} -> retryable network ServiceUnavailableError`, () => {
      const v = classifyError(err, { operation: 'my_account' });
      expect(v).toBeInstanceOf(ServiceUnavailableError);
      expect((v as ServiceUnavailableError).reason).toBe('network');
      expect(v.retryable).toBe(true);
      expect(v.cause).toBe(err);
      expect(v.message.startsWith('my_account failed: service_unavailable: network error (')).toBe(true);
    });
  }

  it('timeouts are retryable, naming the configured value', () => {
    const v = classifyError(
      Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
      {
        operation: 'ask',
        timeouts: { connectTimeoutMs: 1234 },
      },
    );
    expect(v).toBeInstanceOf(ServiceUnavailableError);
    expect((v as ServiceUnavailableError).reason).toBe('timeout');
    expect(v.message).toBe(
      'ask failed: service_unavailable: timeout: no connection within 1234 ms (UND_ERR_CONNECT_TIMEOUT)',
    );
  });

  it('aborts and closed clients are not retryable', () => {
    const abort = classifyError(new DOMException('This operation was aborted', 'AbortError'));
    expect(abort).toBeInstanceOf(RequestAbortedError);
    expect(abort.retryable).toBe(false);
    const closed = classifyError(
      Object.assign(new Error('The client is destroyed'), { code: 'UND_ERR_DESTROYED' }),
    );
    expect(closed).toBeInstanceOf(ClientClosedError);
  });

  it('anything else is a non-retryable unexpected_error keeping the cause', () => {
    const boom = new TypeError('x is not a function');
    const v = classifyError(boom, { operation: 'ask' });
    expect(v.constructor).toBe(VisError);
    expect(v.code).toBe('unexpected_error');
    expect(v.retryable).toBe(false);
    expect(v.cause).toBe(boom);
    expect(v.message).toBe('ask failed: unexpected_error: x is not a function');
    expect(classifyError('a string').message).toBe('request failed: unexpected_error: a string');
  });

  it('maps a real refused connection (node:net) to network', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as { port: number };
    await new Promise<void>((r) => srv.close(() => r()));
    const err = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    const v = classifyError(err);
    expect(v).toBeInstanceOf(ServiceUnavailableError);
    expect(v.message).toContain('ECONNREFUSED');
  });
});

describe('errorFromResponse', () => {
  const base = { operation: 'find_investors', rateLimit: null, text: '' };
  it('402 by code', () => {
    expect(
      errorFromResponse({ ...base, status: 402, body: { code: 'insufficient_credits', message: 'm' } }),
    ).toBeInstanceOf(InsufficientCreditsError);
    expect(errorFromResponse({ ...base, status: 402, body: null, text: '' }).message).toBe(
      'find_investors failed: 402 insufficient_credits: empty body',
    );
  });
  it('403 without a code is forbidden', () => {
    const e = errorFromResponse({ ...base, status: 403, body: null, text: 'nope' });
    expect(e.code).toBe('forbidden');
  });
  it('429 without headers has an unknown reset', () => {
    const e = errorFromResponse({ ...base, status: 429, body: null, text: '' }) as RateLimitedError;
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.resetAt).toBeNull();
    expect(e.retryAfterMs()).toBeNull();
    expect(isVisError(e)).toBe(true);
    expect(isVisError(new Error('x'))).toBe(false);
  });
});

describe('redaction', () => {
  it('redacts given secrets, bearer tokens and service keys, idempotently', () => {
    const once = redactText('k=s3cr3t-value; Authorization: Bearer tok.en; other vis_test_ABC', [
      's3cr3t-value',
    ]);
    expect(once).toBe('k=[redacted]; Authorization: Bearer [redacted]; other [redacted]');
    expect(redactText(once, ['s3cr3t-value'])).toBe(once);
  });
  it('ignores secrets too short to match safely', () => {
    expect(redactText('a b c', ['a'])).toBe('a b c');
  });
  it('redacts strings and keys deep in plain objects, leaves other values', () => {
    const when = new Date(0);
    const out = redactDeep({ s3cr3t: ['x s3cr3t', { n: 1, when }], ok: true }, ['s3cr3t']);
    expect(out).toEqual({ '[redacted]': ['x [redacted]', { n: 1, when }], ok: true });
  });
});
