/**
 * The API key never leaks: not in an error's message, stack, JSON, util.inspect output, nor in
 * its cause chain, even when the server echoes the Authorization header back. Each scenario
 * runs with a service-style key (caught by pattern too) and with an arbitrary token (caught
 * only because the client redacts its own key).
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyError,
  createClient,
  InvalidClientOptionsError,
  REDACTED,
  VisClient,
  type OperationName,
} from '../../api/index.js';
import {
  errorEnvelope,
  okEnvelope,
  startScriptedServer,
  type Responder,
  type ScriptedServer,
  failure,
} from './scripted-server.js';

const KEYS = ['vis_live_SECRET123abcDEF456ghi', 'plainSECRETtoken987zyx'];

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

/** Every printed form of an error and of its cause chain. */
function printedForms(err: unknown): string[] {
  const out: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    if (current instanceof Error) {
      out.push(current.message, current.stack ?? '', String(current));
    } else {
      out.push(typeof current === 'string' ? current : inspect(current));
    }
    out.push(inspect(current, { depth: Infinity }), inspect(current, { depth: Infinity, showHidden: true }));
    try {
      out.push(JSON.stringify(current) ?? '');
    } catch {
      // a cause that is not serialisable cannot leak through JSON
    }
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

function expectNoSecret(err: unknown, key: string) {
  const distinctive = key.slice(-12);
  for (const text of printedForms(err)) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(distinctive);
  }
}

/** Echoes the Authorization header (and the bare key) in every place a body can carry it. */
const echo =
  (status: number, code: string): Responder =>
  (req) => {
    const auth = String(req.headers.authorization);
    const bare = auth.replace(/^Bearer /, '');
    return {
      status,
      body: {
        ...errorEnvelope('search_investors', code, `bad request with ${auth} (key ${bare})`, {
          echoed: auth,
        }),
        error: {
          code,
          message: `bad request with ${auth} (key ${bare})`,
          debug: { authorization: auth, [bare]: bare, list: [auth, { nested: bare }] },
        },
      },
      headers: { 'X-Echo': bare },
    };
  };

const scenarios: [string, Responder][] = [
  ['400', echo(400, 'invalid_input')],
  ['401', echo(401, 'unauthorized')],
  ['402 upgrade_required', echo(402, 'upgrade_required')],
  ['402 insufficient_credits', echo(402, 'insufficient_credits')],
  ['403', echo(403, 'insufficient_scope')],
  ['404', echo(404, 'not_found')],
  ['429', echo(429, 'rate_limited')],
  ['500', echo(500, 'internal_error')],
  ['503', echo(503, 'service_unavailable')],
  ['418', echo(418, 'teapot')],
  ['200 success:false', echo(200, 'insufficient_credits')],
  [
    '502 HTML page',
    (req) => ({
      status: 502,
      body: `<html><body>Bad gateway for ${String(req.headers.authorization)}</body></html>`,
    }),
  ],
  ['200 not JSON', (req) => ({ status: 200, body: `oops ${String(req.headers.authorization)}` })],
  ['200 not the envelope', (req) => ({ status: 200, body: { auth: req.headers.authorization } })],
  [
    '200 envelope whose data is not an object',
    (req) => ({ body: { ...okEnvelope('search_investors', {}), data: String(req.headers.authorization) } }),
  ],
  [
    '200 envelope with the key in an unknown error field',
    (req) => ({
      status: 400,
      body: {
        success: false,
        operation: 'x',
        error: { code: String(req.headers.authorization), message: 'm' },
      },
    }),
  ],
  ['dropped connection', () => ({ destroy: true })],
];

describe.each(KEYS)('key %s', (key) => {
  let client: VisClient;
  beforeAll(() => {
    client = new VisClient({ baseUrl: server.url, apiKey: key, headersTimeoutMs: 200, bodyTimeoutMs: 200 });
  });
  afterAll(async () => {
    await client.close();
  });

  for (const [title, responder] of scenarios) {
    it(`${title}: no trace of the key`, async () => {
      const before = server.requests.length;
      server.script(responder);
      const err = await failure(() => client.call('search_investors', {}));
      expect(server.requests.length).toBe(before + 1);
      expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${key}`);
      expectNoSecret(err, key);
    });
  }

  it('an echoed key is replaced by [redacted] in the body', async () => {
    server.script(echo(400, 'invalid_input'));
    const err = await failure(() => client.call('search_investors', {}));
    expect(err.message).toBe(
      `search_investors failed: 400 invalid_input: bad request with Bearer ${REDACTED} (key ${REDACTED})`,
    );
    expect(err.body?.message).toContain(REDACTED);
    expect(JSON.stringify(err.body)).toContain(`"authorization":"Bearer ${REDACTED}"`);
  });

  it('headers timeout: no trace of the key', async () => {
    server.script({ hang: true });
    expectNoSecret(await failure(() => client.call('search_investors', {})), key);
  });

  it('body timeout: no trace of the key', async () => {
    server.script((req) => ({ stallBody: true, body: `${String(req.headers.authorization)} `.repeat(10) }));
    expectNoSecret(await failure(() => client.call('search_investors', {})), key);
  });

  it('abort: no trace of the key', async () => {
    server.script({ delayMs: 1000, body: okEnvelope('search_investors', { investors: [] }) });
    const err = await failure(() => client.call('search_investors', {}, { signal: AbortSignal.timeout(30) }));
    expectNoSecret(err, key);
  });

  it('parameter errors that carry the key: none sent, no trace', async () => {
    const before = server.requests.length;
    const cases: [OperationName, Record<string, unknown>][] = [
      ['search_investors', { [key]: 1 }],
      ['search_investors', { limit: key }],
      ['find_investors', { raising_stage: key }],
      ['ask', { query: key.repeat(30) }],
    ];
    for (const [op, params] of cases) expectNoSecret(await failure(() => client.call(op, params)), key);
    expectNoSecret(await failure(() => client.call('ask', { query: key }, { method: 'GET' })), key);
    expect(server.requests.length).toBe(before);
  });

  it('a wrapped error whose message and cause carry the key is redacted', () => {
    const inner = new Error(`socket for Authorization: Bearer ${key} closed`, {
      cause: new Error(`key=${key}`),
    });
    Object.assign(inner, { code: 'ECONNRESET', config: { headers: { authorization: `Bearer ${key}` } } });
    const err = classifyError(inner, { operation: 'my_account', secrets: [key] });
    expect(err.retryable).toBe(true);
    expect((err.cause as { code?: string }).code).toBe('ECONNRESET');
    expectNoSecret(err, key);
  });

  it('the client object never shows the key, even with a call in flight', async () => {
    server.script({ delayMs: 100, body: okEnvelope('my_account', { plan: 'paid' }) });
    const pending = client.call('my_account', {});
    for (const text of [
      inspect(client, { depth: Infinity, showHidden: true }),
      JSON.stringify(client),
      `${inspect(client)}`,
    ]) {
      expect(text).not.toContain(key);
    }
    expect(Object.values(client.options)).not.toContain(key);
    await pending;
  });

  it('a bad option next to the key does not echo it', () => {
    let caught: unknown;
    try {
      createClient({ baseUrl: 'nope', apiKey: `${key} extra` });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidClientOptionsError);
    expectNoSecret(caught, key);
  });
});

describe('pattern redaction without being told the key', () => {
  it('classifyError redacts bearer tokens and service keys it was not given', () => {
    const err = classifyError(new Error('failed with Bearer abc.def-ghi and vis_live_OTHERKEY999'), {
      operation: 'ask',
    });
    expect(err.message).toBe(`ask failed: unexpected_error: failed with Bearer ${REDACTED} and ${REDACTED}`);
    expect(inspect(err, { depth: Infinity })).not.toContain('OTHERKEY999');
    expect(inspect(err, { depth: Infinity })).not.toContain('abc.def-ghi');
  });
});
