/**
 * Hostile input: whatever arrives, the answer is the spec's error envelope (success false, an
 * error with a code and a message) with a fitting status, never Fastify's or Node's own shape
 * and never a 5xx. Requests Node's HTTP parser refuses are sent raw over a socket.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Sends raw bytes and reads the answer until the server closes the connection. */
function sendRaw(sandbox: RunningSandbox, request: Buffer): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const socket = connect(sandbox.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', fail);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const at = line.indexOf(':');
          return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
        }),
      );
      let body: unknown;
      try {
        body = JSON.parse(rest.join('\r\n\r\n'));
      } catch {
        body = rest.join('\r\n\r\n');
      }
      done({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(request);
  });
}

async function send(sandbox: RunningSandbox, path: string, init: RequestInit = {}): Promise<RawAnswer> {
  const response = await fetch(`${sandbox.url}${path}`, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: Object.fromEntries(response.headers), body };
}

/** The envelope of an error, as the spec shows it. */
function expectEnvelope(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.body).toMatchObject({
    success: false,
    operation: expect.any(String),
    data: null,
    summary: expect.any(String),
    charts: [],
    url: null,
    error: { code, message: expect.any(String) },
  });
  const { error } = answer.body as { error: { message: string } };
  expect(error.message.length).toBeGreaterThan(0);
}

const auth = { authorization: `Bearer ${KEYS.vc}` };
const json = { ...auth, 'content-type': 'application/json' };

describe('hostile input', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it('a raw 0xFF byte in the request line: 400', async () => {
    const request = Buffer.concat([
      Buffer.from('GET /v1/my_'),
      Buffer.from([0xff]),
      Buffer.from('account HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]);
    const answer = await sendRaw(sandbox, request);
    expectEnvelope(answer, 400, 'invalid_input');
    expect(answer.headers.connection).toBe('close');
  });

  it('10,000 query parameters: 431', async () => {
    const query = Array.from({ length: 10_000 }, (_, i) => `p${i}=1`).join('&');
    const answer = await sendRaw(
      sandbox,
      Buffer.from(`GET /v1/my_account?${query} HTTP/1.1\r\nHost: x\r\n\r\n`),
    );
    expectEnvelope(answer, 431, 'invalid_input');
  });

  it('a huge header: 431', async () => {
    const answer = await sendRaw(
      sandbox,
      Buffer.from(`POST /v1/my_account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`),
    );
    expectEnvelope(answer, 431, 'invalid_input');
  });

  it('a method HTTP does not know on an operation path: 405 with Allow', async () => {
    const answer = await sendRaw(sandbox, Buffer.from('BREW /v1/ask HTTP/1.1\r\nHost: x\r\n\r\n'));
    expectEnvelope(answer, 405, 'method_not_allowed');
    expect(answer.headers.allow).toBe('POST');
  });

  it('a broken header line: 400', async () => {
    const answer = await sendRaw(
      sandbox,
      Buffer.from('POST /v1/my_account HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'),
    );
    expectEnvelope(answer, 400, 'invalid_input');
  });

  it('bad JSON: 400', async () => {
    expectEnvelope(
      await send(sandbox, '/v1/my_account', { method: 'POST', headers: json, body: '{"a":' }),
      400,
      'invalid_input',
    );
  });

  it('a wrong content type: 415', async () => {
    expectEnvelope(
      await send(sandbox, '/v1/my_account', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/plain' },
        body: '{}',
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('a body over 1 MiB: 413', async () => {
    expectEnvelope(
      await send(sandbox, '/v1/ask', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ query: 'x'.repeat(1_200_000) }),
      }),
      413,
      'invalid_input',
    );
  });

  it.each([
    ['QUERY', 'my_account', 'GET, POST'],
    ['PUT', 'ask', 'POST'],
    ['DELETE', 'find_investors', 'POST'],
    ['PATCH', 'search_investors', 'GET, POST'],
    ['OPTIONS', 'analyze_deck', 'POST'],
  ])('%s on /v1/%s: 405 with Allow %s', async (method, operation, allow) => {
    const answer = await send(sandbox, `/v1/${operation}`, {
      method,
      headers: json,
      body: '{}',
    });
    expectEnvelope(answer, 405, 'method_not_allowed');
    expect(answer.headers.allow).toBe(allow);
  });

  it('TRACE and QUERY sent raw: 405 with Allow', async () => {
    // fetch refuses to send TRACE.
    for (const method of ['TRACE', 'QUERY']) {
      const answer = await sendRaw(
        sandbox,
        Buffer.from(`${method} /v1/ask HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      expectEnvelope(answer, 405, 'method_not_allowed');
      expect(answer.headers.allow).toBe('POST');
    }
  });

  it('GET on a paid operation: 405 with Allow POST', async () => {
    const answer = await send(sandbox, '/v1/ask?query=hello', { headers: auth });
    expectEnvelope(answer, 405, 'method_not_allowed');
    expect(answer.headers.allow).toBe('POST');
  });

  it('an unknown path: 404', async () => {
    expectEnvelope(await send(sandbox, '/nowhere', { headers: auth }), 404, 'not_found');
  });

  it('a path with a broken percent-escape: 400', async () => {
    expectEnvelope(await send(sandbox, '/v1/%ff', { headers: auth }), 400, 'invalid_input');
    expectEnvelope(await send(sandbox, '/nowhere/%ff', { headers: auth }), 400, 'invalid_input');
  });

  it('an unknown operation: 404, with any method', async () => {
    expectEnvelope(
      await send(sandbox, '/v1/drop_tables', { method: 'POST', headers: json, body: '{}' }),
      404,
      'not_found',
    );
    const trace = await sendRaw(
      sandbox,
      Buffer.from('TRACE /v1/drop_tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    expectEnvelope(trace, 404, 'not_found');
  });

  it('a deck_url with a broken percent-escape: 400, not 500', async () => {
    const answer = await send(sandbox, '/v1/analyze_deck', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ deck_url: 'https://example.com/%E0.pdf' }),
    });
    expectEnvelope(answer, 400, 'invalid_input');
  });
});
