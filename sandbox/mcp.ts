/**
 * The sandbox's MCP server at /mcp: Streamable HTTP in stateless mode (a new MCP server and
 * transport per request), authenticated by the same Bearer key as REST (a missing or bad key is
 * HTTP 401 before any MCP handling), one tool per operation with the operation's parameter
 * schema, and every call run through the same pipeline (scopes, plans, credits, rate limits)
 * with method 'MCP'. A tool result carries the Result envelope as structuredContent, the
 * summary (or the error message) as text, and isError for error envelopes.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../api/index.js';
import type { ExecuteFn, SandboxState } from './types.js';

/** Name and version the MCP server reports. */
export const MCP_SERVER_INFO = { name: 'venture-intelligence-sandbox', version: '1.0.0' } as const;

export interface McpDeps {
  /** The pipeline (auth, rate limit, params, scope, plan, credits, handler). */
  execute: ExecuteFn;
  /**
   * The sandbox state: with it an unknown or revoked key is refused with HTTP 401 before MCP
   * handling (without it only a missing or malformed header is; the pipeline refuses the rest).
   */
  state?: SandboxState;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Checks the Authorization header; the message never contains the key. */
export function checkMcpAuthorization(
  authorization: string | undefined,
  state?: SandboxState,
): { ok: true } | { ok: false; message: string } {
  if (!authorization?.trim())
    return { ok: false, message: 'missing API key: send the header Authorization: Bearer <API_KEY>' };
  const match = BEARER.exec(authorization.trim());
  if (!match?.[1])
    return { ok: false, message: "malformed Authorization header: expected 'Bearer <API_KEY>'" };
  if (state) {
    const key = state.keys.get(match[1]);
    if (!key || !state.accounts.has(key.account_id))
      return { ok: false, message: 'unknown API key: check the key on the developer page' };
    if (key.revoked)
      return { ok: false, message: 'this API key has been revoked: create a new key on the developer page' };
  }
  return { ok: true };
}

/** The MCP tool of an operation: its name, description (cost, scope, plan) and parameter JSON Schema. */
export function toolOf(name: OperationName): Tool {
  const def = OPERATIONS[name];
  const schema = z.toJSONSchema(def.params, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  const credits =
    def.credits === 0 ? 'free (0 credits)' : `${def.credits} credit${def.credits === 1 ? '' : 's'}`;
  return {
    name,
    title: name.replace(/_/g, ' '),
    description: `${def.description} Cost: ${credits}; scope: ${def.scope}; plan: ${def.rule.text}.`,
    inputSchema: { ...schema, type: 'object' },
    annotations: { readOnlyHint: def.credits === 0, openWorldHint: name === 'analyze_deck' },
  };
}

/** Every operation's tool, in the operation table's order. */
export const MCP_TOOLS: readonly Tool[] = OPERATION_NAMES.map(toolOf);

/** A new MCP server whose tools call the pipeline as the key in `authorization`. */
export function createMcpServer(execute: ExecuteFn, authorization: string): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      "Venture Intelligence Service (sandbox): the 12 operations as tools; each call acts as the key's account and uses its plan and credits.",
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...MCP_TOOLS] }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const response = await execute({
      operation: request.params.name,
      params: request.params.arguments ?? {},
      authorization,
      method: 'MCP',
    });
    const envelope = response.body;
    const text = envelope.success
      ? envelope.summary
      : (envelope.error?.message ?? `${envelope.operation} failed with HTTP ${response.status}`);
    return {
      structuredContent: envelope as unknown as Record<string, unknown>,
      content: [{ type: 'text', text }],
      isError: !envelope.success,
    };
  });
  return server;
}

function jsonRpcError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * Registers POST /mcp (and a 405 answer for GET and DELETE: the stateless server has no
 * sessions or server-sent event streams).
 *
 * @example
 * registerMcp(app, { execute: pipeline.execute, state });
 */
export function registerMcp(app: FastifyInstance, deps: McpDeps): void {
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    handler: async (_request, reply) =>
      jsonRpcError(
        reply,
        405,
        -32000,
        'this MCP server is stateless: send JSON-RPC requests with POST /mcp',
        { allow: 'POST' },
      ),
  });

  app.post('/mcp', async (request, reply) => {
    const header = request.headers.authorization;
    const authorization = Array.isArray(header) ? header[0] : header;
    const auth = checkMcpAuthorization(authorization, deps.state);
    if (!auth.ok) return jsonRpcError(reply, 401, -32001, auth.message, { 'www-authenticate': 'Bearer' });

    const server = createMcpServer(deps.execute, authorization);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        reply.raw.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }),
        );
      }
    }
  });
}
