/**
 * The OpenAPI 3.1 description of the sandbox, generated from the operation table (never written
 * by hand per operation): parameter schemas come from the zod params (input side, so defaults
 * and bounds are documented), response schemas from the envelope and the sandbox's own shapes
 * of `data` (result-shapes.ts).
 */
import { z } from 'zod';
import { CreditsSchema, ErrorBodySchema, ErrorResponseSchema, ResultSchema } from '../api/envelope.js';
import { OPERATIONS, OPERATION_NAMES, type OperationDef, type OperationName } from '../api/operations.js';
import { ChartSpecSchema, RESULT_SHAPES } from './result-shapes.js';

/** A JSON Schema object (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers?: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, unknown>;
    headers: Record<string, unknown>;
    responses: Record<string, unknown>;
  };
}

export interface OpenApiOptions {
  /** Base URL put in `servers` (e.g. the sandbox's URL); omitted when not given. */
  serverUrl?: string;
}

/** Version of the description, per the spec's Versioning section. */
export const OPENAPI_DOCUMENT_VERSION = '1.0.0';

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Calls allowed in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Calls left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'When the current window resets: Unix time in seconds (wait until then after a 429).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Limit-Day': { description: 'Calls allowed in the current day.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining-Day': { description: 'Calls left in the current day.', schema: { type: 'integer' } },
  'X-RateLimit-Reset-Day': {
    description: 'When the daily window resets: Unix time in seconds.',
    schema: { type: 'integer' },
  },
} as const;

const RETRY_AFTER = {
  description: 'Seconds to wait before calling again (429 only).',
  schema: { type: 'integer', minimum: 1 },
} as const;

/** Error responses every operation can return, by status. */
const ERROR_RESPONSES = {
  '400': [
    'BadRequest',
    'Invalid input: a parameter outside its bounds, an unknown or a missing required parameter.',
  ],
  '401': ['Unauthorized', 'The key is missing, wrong or revoked.'],
  '402': [
    'PaymentRequired',
    'The operation needs a paid plan (upgrade_required) or the balance is too low (insufficient_credits).',
  ],
  '403': ['Forbidden', "The key lacks the operation's scope, or a plan or account type is required."],
  '404': ['NotFound', 'The investor, startup, country or data room does not exist.'],
  '429': ['TooManyRequests', 'Rate limit exceeded; wait until the time in the X-RateLimit-Reset header.'],
} as const;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** PascalCase of an operation name: search_investors -> SearchInvestors. */
function pascal(name: string): string {
  return name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** JSON Schema of a zod schema, without the `$schema` dialect marker (OpenAPI 3.1 sets it). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  return rest;
}

/** GET query parameters of a free operation, one per property of its input schema. */
function queryParameters(def: OperationDef, params: JsonSchema): Record<string, unknown>[] {
  const properties = (params.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((params.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const isArray = def.arrayParams.includes(name);
    return {
      name,
      in: 'query',
      required: required.has(name),
      schema,
      ...(isArray
        ? {
            style: 'form',
            explode: true,
            description: `Repeat the parameter for each value: ${name}=a&${name}=b.`,
          }
        : {}),
    };
  });
}

function operationExtensions(def: OperationDef): Record<string, unknown> {
  return {
    'x-credits': def.credits,
    'x-scope': def.scope,
    'x-plan': def.rule.text,
    ...(def.rule.accountTypes ? { 'x-account-types': [...def.rule.accountTypes] } : {}),
  };
}

function responsesOf(name: OperationName): Record<string, unknown> {
  const ok = {
    description: `Result envelope of ${name}.`,
    headers: { ...refHeaders() },
    content: { 'application/json': { schema: ref(`${pascal(name)}Result`) } },
  };
  const errors = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, [component]]) => [
      status,
      { $ref: `#/components/responses/${component}` },
    ]),
  );
  return { '200': ok, ...errors };
}

function refHeaders(): Record<string, { $ref: string }> {
  return Object.fromEntries(
    Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]),
  );
}

/**
 * Builds the OpenAPI 3.1.0 document of the service from the operation table: one POST path per
 * operation (plus GET with query parameters for 0-credit operations), the Result envelope with
 * that operation's data schema, the error responses with the rate-limit headers, the bearer
 * security scheme and `x-credits` / `x-scope` / `x-plan` extensions.
 *
 * @example
 * const doc = buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:8080' });
 * doc.paths['/v1/search_investors'].post; // { operationId: 'search_investors', ... }
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  // The sandbox's results carry the sandbox's chart shape (the runner reads any object).
  const sandboxResult = ResultSchema.extend({ charts: z.array(ChartSpecSchema).nullable().optional() });
  const schemas: Record<string, JsonSchema> = {
    ChartSpec: jsonSchema(ChartSpecSchema, 'output'),
    Credits: jsonSchema(CreditsSchema, 'output'),
    ErrorBody: jsonSchema(ErrorBodySchema, 'output'),
    Result: jsonSchema(sandboxResult, 'output'),
    ErrorResponse: jsonSchema(ErrorResponseSchema.extend({ charts: sandboxResult.shape.charts }), 'output'),
  };
  const paths: OpenApiDocument['paths'] = {};

  for (const name of OPERATION_NAMES) {
    const def = OPERATIONS[name] as OperationDef;
    const Name = pascal(name);
    const params = jsonSchema(def.params, 'input');
    schemas[`${Name}Params`] = params;
    schemas[`${Name}Data`] = jsonSchema(RESULT_SHAPES[name], 'output');
    schemas[`${Name}Result`] = {
      allOf: [
        ref('Result'),
        {
          type: 'object',
          properties: { operation: { const: name }, data: ref(`${Name}Data`) },
          required: ['success', 'operation', 'data'],
        },
      ],
    };
    const common = {
      summary: def.description,
      description: `${def.description}\n\nCredits: ${def.credits}. Scope: ${def.scope}. Plan: ${def.rule.text}.`,
      tags: [def.scope],
      responses: responsesOf(name),
      ...operationExtensions(def),
    };
    const item: Record<string, unknown> = {
      post: {
        operationId: name,
        ...common,
        requestBody: {
          required: true,
          description: 'Parameters as a JSON object; operations without parameters take an empty object.',
          content: { 'application/json': { schema: ref(`${Name}Params`) } },
        },
      },
    };
    if (def.credits === 0) {
      item.get = { operationId: `${name}_get`, ...common, parameters: queryParameters(def, params) };
    }
    paths[def.path] = item;
  }

  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This machine-readable description (OpenAPI 3.1).',
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI document.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };

  const responses = Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(([component, description]) => [
      component,
      {
        description,
        headers:
          component === 'TooManyRequests'
            ? { ...refHeaders(), 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
            : refHeaders(),
        content: { 'application/json': { schema: ref('ErrorResponse') } },
      },
    ]),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Venture Intelligence Service',
      version: OPENAPI_DOCUMENT_VERSION,
      description:
        'Investors, startups and funding rounds since 2020: search and profiles, investor matching, fund matching, ' +
        'prospect lists, deck analysis and country market overviews. Every operation is POST /v1/<operation> with a JSON ' +
        'body; 0-credit operations also accept GET with query parameters. Every response is the Result envelope.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl.replace(/\/+$/, '') }] } : {}),
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'read', description: 'Free read operations (scope read).' },
      { name: 'ask', description: 'The data agent (scope ask).' },
      { name: 'finder', description: 'Matching and analysis operations (scope finder).' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key: Authorization: Bearer <API_KEY>.',
        },
      },
      headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': RETRY_AFTER },
      responses,
    },
  };
}
