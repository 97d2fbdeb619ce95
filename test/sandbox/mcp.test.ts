/**
 * The MCP endpoint with the SDK's own client over Streamable HTTP: 401 before MCP without a
 * valid key, the 12 tools with the operations' schemas, and tool calls through the pipeline
 * returning the Result envelope as structuredContent.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../api/index.js';
import { SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import type { Envelope, RunningSandbox } from '../../sandbox/index.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'vis-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const envelopeOf = (r: CallToolResult) => r.structuredContent as unknown as Envelope;
const textOf = (r: CallToolResult) => (r.content[0] as { type: 'text'; text: string }).text;

describe('MCP server', () => {
  it('answers HTTP 401 before MCP handling without a key or with a bad key', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`${sandbox.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain(
      'missing API key',
    );
    for (const key of ['vis_live_wrong', KEYS.revoked]) {
      const bad = await fetch(`${sandbox.url}/mcp`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${key}` },
        body: JSON.stringify(init),
      });
      expect(bad.status).toBe(401);
      expect(await bad.text()).not.toContain(key);
    }
    await expect(connect('vis_live_wrong')).rejects.toThrow();
  });

  it('lists one tool per operation with the operation schemas (bounds and enums kept)', async () => {
    const client = await connect(KEYS.vc);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...OPERATION_NAMES].sort());
    expect(tools).toHaveLength(12);
    const ask = tools.find((t) => t.name === 'ask')!;
    expect(ask.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { query: { type: 'string', minLength: 3, maxLength: 500 } },
    });
    const finder = tools.find((t) => t.name === 'find_investors')!.inputSchema as {
      properties: Record<string, any>;
    };
    expect(finder.properties.raising_stage.enum).toEqual([
      'pre-seed',
      'seed',
      'series-a',
      'series-b',
      'series-c-plus',
    ]);
    expect(finder.properties.limit).toMatchObject({ minimum: 1, maximum: 50 });
    expect(tools.find((t) => t.name === 'search_investors')!.annotations?.readOnlyHint).toBe(true);
  });

  it('calls my_account and search_investors: the envelope as structuredContent, the summary as text', async () => {
    const client = await connect(KEYS.vc);
    const account = (await client.callTool({ name: 'my_account', arguments: {} })) as CallToolResult;
    expect(account.isError).toBe(false);
    const env = envelopeOf(account);
    expect(env).toMatchObject({ success: true, operation: 'my_account', credits: { charged: 0 } });
    expect(textOf(account)).toBe(env.summary);

    const search = (await client.callTool({
      name: 'search_investors',
      arguments: { country: 'Germany', limit: 3 },
    })) as CallToolResult;
    expect(search.isError).toBe(false);
    const investors = (envelopeOf(search).data as { investors: { hq_country: string }[] }).investors;
    expect(investors).toHaveLength(3);
    expect(investors.every((i) => i.hq_country === 'Germany')).toBe(true);
  });

  it('runs paid tools with the same credits as REST', async () => {
    const client = await connect(KEYS.vc);
    const before = envelopeOf(
      (await client.callTool({ name: 'my_account', arguments: {} })) as CallToolResult,
    ).credits!.remaining!;
    const r = (await client.callTool({
      name: 'ask',
      arguments: { query: 'median series A size in the US' },
    })) as CallToolResult;
    expect(r.isError).toBe(false);
    expect(envelopeOf(r).credits).toEqual({ charged: 1, remaining: before - 1 });
    expect(envelopeOf(r).data).toMatchObject({ mapped: true, pattern: 'median_round' });
  });

  it('returns error envelopes with isError: unknown investor, missing scope, bad parameters', async () => {
    const vc = await connect(KEYS.vc);
    const unknown = (await vc.callTool({
      name: 'get_investor',
      arguments: { key: 'no-such-investor-xyz' },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(envelopeOf(unknown)).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect(textOf(unknown)).toBe(envelopeOf(unknown).error!.message);

    const bounds = (await vc.callTool({ name: 'ask', arguments: { query: 'ab' } })) as CallToolResult;
    expect(bounds.isError).toBe(true);
    expect(envelopeOf(bounds).error!.code).toBe('invalid_input');

    const readonly = await connect(KEYS.readonly);
    const denied = (await readonly.callTool({
      name: 'ask',
      arguments: { query: 'how many seed rounds in Germany' },
    })) as CallToolResult;
    expect(denied.isError).toBe(true);
    expect(envelopeOf(denied).success).toBe(false);
    expect(envelopeOf(denied).credits!.charged).toBe(0);
    expect(textOf(denied)).not.toContain(KEYS.readonly);
  });
});
