/**
 * The REST protocol over real HTTP: required JSON bodies, GET query decoding, methods,
 * unknown operations, /openapi.json and /health.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultSchema, OPERATION_NAMES } from '../../api/index.js';
import { readQueryParams } from '../../sandbox/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { KEYS, callSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe('POST bodies', () => {
  it('refuses a POST without a body with 400 invalid_input', async () => {
    const r = await callSandbox(sandbox, 'my_account', { key: KEYS.startup, body: null });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_input');
    expect(r.body.error?.message).toMatch(/body is required/);
    expect(ResultSchema.safeParse(r.body).success).toBe(true);
    expect(r.body).toMatchObject({
      success: false,
      operation: 'my_account',
      data: null,
      charts: [],
      url: null,
    });
  });

  it('refuses an empty JSON body', async () => {
    const r = await callSandbox(sandbox, 'my_account', { key: KEYS.startup, body: '' });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toMatch(/body is required/);
  });

  it('refuses a body that is not JSON', async () => {
    const r = await callSandbox(sandbox, 'my_account', { key: KEYS.startup, body: '{not json' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_input' });
    expect(r.body.error?.message).toMatch(/not valid JSON/);
  });

  it.each(['[]', '[{}]', 'null', '42', '"text"'])('refuses the non-object body %s', async (body) => {
    const r = await callSandbox(sandbox, 'my_account', { key: KEYS.startup, body });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_input');
    expect(r.body.error?.message).toMatch(/must be a JSON object/);
  });

  it('refuses a body of another content type with 415 and an envelope', async () => {
    const r = await callSandbox(sandbox, 'search_investors', {
      key: KEYS.startup,
      body: '{"limit": 101}',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(415);
    expect(r.body.error?.code).toBe('unsupported_media_type');
    expect(r.body.error?.message).toMatch(/must be application\/json/);
  });

  it('refuses a body over 1 MiB with 413 and an envelope', async () => {
    const r = await callSandbox(sandbox, 'ask', {
      key: KEYS.startup,
      body: JSON.stringify({ query: 'x'.repeat(1_100_000) }),
    });
    expect(r.status).toBe(413);
    expect(r.body.error?.code).toBe('invalid_input');
    expect(r.body.error?.message).toMatch(/too large/);
    expect(r.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('names the parameter and its bound on invalid input', async () => {
    const r = await callSandbox(sandbox, 'ask', { key: KEYS.startup, params: { query: 'hi' } });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toBe('ask: query must be at least 3 characters (3 to 500)');
    const unknown = await callSandbox(sandbox, 'search_startups', { key: KEYS.startup, params: { limt: 5 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.message).toMatch(/unknown parameter limt/);
  });
});

describe('GET queries', () => {
  it('decodes arrays given as repeated parameters and comma-separated, and integers', () => {
    expect(readQueryParams('search_startups', 'countries=Germany&countries=France&limit=5&offset=0')).toEqual(
      {
        countries: ['Germany', 'France'],
        limit: 5,
        offset: 0,
      },
    );
    expect(
      readQueryParams('search_startups', 'countries=Germany,France&stages=seed&stages=series-a,series-b'),
    ).toEqual({
      countries: ['Germany', 'France'],
      stages: ['seed', 'series-a', 'series-b'],
    });
    expect(readQueryParams('search_startups', 'countries=Germany%2C%20France')).toEqual({
      countries: ['Germany', 'France'],
    });
    expect(readQueryParams('search_investors', 'limit=ten&query=a&query=b')).toEqual({
      limit: 'ten',
      query: ['a', 'b'],
    });
    expect(readQueryParams('search_investors', 'query=Berlin%2C+DE')).toEqual({ query: 'Berlin, DE' });
  });

  it('validates decoded integers against their bounds', async () => {
    const over = await callSandbox(sandbox, 'search_investors', {
      key: KEYS.startup,
      method: 'GET',
      params: { limit: 101 },
    });
    expect(over.status).toBe(400);
    expect(over.body.error?.message).toBe('search_investors: limit must be at most 100 (1 to 100)');
    const text = await callSandbox(sandbox, 'search_investors', {
      key: KEYS.startup,
      method: 'GET',
      params: { limit: 'ten' },
    });
    expect(text.status).toBe(400);
    expect(text.body.error?.message).toMatch(/limit must be an integer from 1 to 100/);
    const empty = await fetch(`${sandbox.url}/v1/search_startups?countries=`, {
      headers: { authorization: `Bearer ${KEYS.startup}` },
    });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toMatch(
      /countries must list at least one value/,
    );
  });

  it('answers GET and POST alike, with arrays either way', async () => {
    const post = await callSandbox(sandbox, 'search_startups', {
      key: KEYS.startup,
      params: { countries: ['Germany', 'France'], limit: 10 },
    });
    const repeated = await fetch(
      `${sandbox.url}/v1/search_startups?countries=Germany&countries=France&limit=10`,
      {
        headers: { authorization: `Bearer ${KEYS.startup}` },
      },
    );
    const commas = await fetch(`${sandbox.url}/v1/search_startups?countries=Germany,France&limit=10`, {
      headers: { authorization: `Bearer ${KEYS.startup}` },
    });
    const germany = await callSandbox(sandbox, 'search_startups', {
      key: KEYS.startup,
      method: 'GET',
      params: { countries: 'Germany', limit: 10 },
    });
    expect(post.status).toBe(200);
    expect(repeated.status).toBe(200);
    expect(commas.status).toBe(200);
    const a = (await repeated.json()) as { data: unknown };
    const b = (await commas.json()) as { data: unknown };
    expect(a.data).toEqual(post.body.data);
    expect(b.data).toEqual(post.body.data);
    expect(germany.body.data).not.toEqual(post.body.data);
  });

  it('refuses GET on a paid operation with 405 method_not_allowed', async () => {
    const r = await callSandbox(sandbox, 'ask', {
      key: KEYS.startup,
      method: 'GET',
      params: { query: 'how many seed rounds?' },
    });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body.error?.code).toBe('method_not_allowed');
    expect(r.body.error?.message).toMatch(/ask costs 1 credit and must be called with POST \/v1\/ask/);
    expect(r.body.credits).toEqual({
      charged: 0,
      remaining: sandbox.state.accounts.get('acct_startup')?.credits,
    });
  });

  it('refuses other methods with 405 and an Allow header', async () => {
    const put = await callSandbox(sandbox, 'my_account', { key: KEYS.startup, method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    expect(put.body.error?.code).toBe('method_not_allowed');
    const del = await callSandbox(sandbox, 'find_investors', { key: KEYS.startup, method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('POST');
    expect(del.headers.get('x-ratelimit-limit')).toBe('60');
    const head = await fetch(`${sandbox.url}/v1/my_account`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${KEYS.startup}` },
    });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
  });
});

describe('unknown operations and routes', () => {
  it('answers an unknown operation with 404 not_found naming it and listing the valid ones', async () => {
    for (const method of ['POST', 'GET', 'PUT']) {
      const r = await callSandbox(sandbox, 'find_unicorns', { key: KEYS.startup, method });
      expect(r.status).toBe(404);
      expect(r.body.error?.code).toBe('not_found');
      expect(r.body.error?.message).toContain("unknown operation 'find_unicorns'");
      for (const name of OPERATION_NAMES) expect(r.body.error?.message).toContain(name);
      expect(r.headers.get('x-ratelimit-limit')).toBe('60');
      expect(r.body.operation).toBe('find_unicorns');
    }
  });

  it('answers 404 before authentication, without a key too', async () => {
    const r = await callSandbox(sandbox, 'nope', {});
    expect(r.status).toBe(404);
    expect(r.body.credits).toBeNull();
    expect(r.headers.get('x-ratelimit-remaining')).toBe('60');
    const nested = await callSandbox(sandbox, 'ask/extra', { key: KEYS.startup });
    expect(nested.status).toBe(404);
    expect(nested.body.error?.message).toContain("unknown operation 'ask/extra'");
  });

  it('answers other paths with a 404 envelope', async () => {
    const r = await fetch(`${sandbox.url}/v2/ask`);
    expect(r.status).toBe(404);
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).toMatch(/no route GET \/v2\/ask/);
  });
});

describe('service routes', () => {
  it('serves the OpenAPI 3.1 document with the sandbox as server', async () => {
    const r = await fetch(`${sandbox.url}/openapi.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    const doc = (await r.json()) as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]?.url).toBe(sandbox.url);
    expect(Object.keys(doc.paths)).toContain('/v1/find_investors');
  });

  it('serves /health without a key', async () => {
    const r = await fetch(`${sandbox.url}/health`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { status: string; operations: number; database: { hash: string } };
    expect(body.status).toBe('ok');
    expect(body.operations).toBe(12);
    expect(body.database.hash).toMatch(/\w+/);
  });
});

describe('HTML views', () => {
  it('serves the view a result url points at, without a key', async () => {
    const r = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
    expect(r.status).toBe(200);
    expect(r.body.url?.startsWith(`${sandbox.url}/view/`)).toBe(true);
    const page = await fetch(r.body.url ?? '');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('Northwind Ventures');
    expect(html).not.toContain(KEYS.vc);
  });
});

describe('MCP endpoint', () => {
  it('runs tool calls through the same pipeline as REST (same credits, same rate limit)', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } =
      await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    sandbox.addAccount({ id: 'acct_mcp', name: 'MCP Co', type: 'startup', plan: 'paid', credits: 5 }, [
      { key: 'vis_live_test_mcp', account_id: 'acct_mcp', scopes: ['read', 'ask'], revoked: false },
    ]);
    const client = new Client({ name: 'server-protocol-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`), {
      requestInit: { headers: { authorization: 'Bearer vis_live_test_mcp' } },
    });
    await client.connect(transport);
    try {
      const asked = await client.callTool({
        name: 'ask',
        arguments: { query: 'How many seed rounds were there in Germany in 2025?' },
      });
      expect(asked.structuredContent).toMatchObject({
        success: true,
        operation: 'ask',
        credits: { charged: 1, remaining: 4 },
      });
      const refused = await client.callTool({ name: 'find_investors', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({
        success: false,
        error: { code: 'insufficient_scope' },
      });
    } finally {
      await client.close();
    }
    const rest = await callSandbox(sandbox, 'my_account', { key: 'vis_live_test_mcp' });
    expect(rest.body.data?.credits_balance).toBe(4);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('57');
  });
});
