/**
 * The OpenAPI 3.1 description of the sandbox, generated from the operation table (never written
 * by hand per operation): parameter schemas come from the zod params (input side, so defaults
 * and bounds are documented), response schemas from the envelope and the sandbox's own shapes
 * of `data` (result-shapes.ts).
 */
import { z } from 'zod';
import { CreditsSchema, ErrorBodySchema, ErrorResponseSchema, ResultSchema } from '../api/envelope.js';
import { OPERATIONS, OPERATION_NAMES, type OperationDef, type OperationName } from '../api/operations.js';
import { INVESTOR_REGIONS, RAISING_STAGES, SECTORS } from '../api/enums.js';
import { COUNTRIES } from './data/countries.js';
import { STAGES } from './data/schema.js';
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

/**
 * Error responses, by status: every operation can return these (402 too: the balance may be too
 * low), and 405, 413, 415 and 431 come from the HTTP layer before the operation runs.
 */
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
  '404': ['NotFound', 'The investor, startup, country, organisation or data room does not exist.'],
  '405': [
    'MethodNotAllowed',
    'The method is not allowed on this path (GET on an operation that costs credits, or any method but GET and POST): method_not_allowed; the Allow header lists the allowed ones.',
  ],
  '413': ['PayloadTooLarge', 'The request body is over 1 MiB: invalid_input.'],
  '415': ['UnsupportedMediaType', 'The request body is not application/json: unsupported_media_type.'],
  '429': ['TooManyRequests', 'Rate limit exceeded; wait until the time in the X-RateLimit-Reset header.'],
  '431': ['RequestHeaderFieldsTooLarge', 'The request line or headers are over 16 KiB: invalid_input.'],
} as const;

/** Statuses only some operations answer, with the operations. */
const OPERATION_ERRORS: Partial<Record<OperationName, Record<string, readonly [string, string]>>> = {
  analyze_deck: {
    '422': [
      'DeckFetchFailed',
      'The deck_url could not be fetched, or what it serves is not a PDF or PPTX file: deck_fetch_failed.',
    ],
  },
};

const unique = (values: readonly string[]) => [...new Set(values)];

/**
 * The sandbox's vocabularies where the server refuses (400) what it does not know: countries
 * (names, ISO codes, aliases), regions and stages. Matching is case-insensitive on the server; the
 * document lists the spellings it knows.
 */
function vocabularies() {
  // A GET reads commas in an array parameter as separators, so spellings with a comma are left out.
  const countries = unique(COUNTRIES.flatMap((c) => [c.name, c.iso2, ...c.aliases])).filter(
    (name) => !name.includes(','),
  );
  const regions = unique([...COUNTRIES.flatMap((c) => [c.region, c.subregion]), ...INVESTOR_REGIONS]);
  return {
    countries,
    searchRegions: regions,
    places: unique(['global', 'worldwide', 'world', ...regions, ...countries]),
    searchStages: unique([...STAGES, 'series-c-plus']),
    raisingStages: unique([...RAISING_STAGES, ...STAGES]),
  };
}

/**
 * deck_url as the sandbox takes it without a 400: an https link (no credentials, no port) to a
 * host name whose last label starts with a letter, a path of plain characters ending in .pdf or
 * .pptx, an optional plain query. (The server also takes links without an extension, and then
 * decides by what the link serves.)
 */
const DECK_URL =
  '^https://([A-Za-z0-9]+\\.)*[A-Za-z][A-Za-z0-9]*(/[A-Za-z0-9._~-]+)*/[A-Za-z0-9_~-]+\\.([pP][dD][fF]|[pP][pP][tT][xX])(\\?[A-Za-z0-9._~=&-]*)?$';

/** Required text: not empty once trimmed (the server trims before it checks). */
const NOT_BLANK = '\\S';

/**
 * Tightens an operation's parameter schema (generated from the client's zod params, which follow
 * the spec's free text) to what the sandbox accepts, so a client generated from the document
 * never sends what the server refuses: the vocabularies above, text that is not blank, and
 * find_investors' rule that the startup must be given somehow.
 */
function tightenParams(name: OperationName, params: JsonSchema): JsonSchema {
  const properties = (params.properties ?? {}) as Record<string, JsonSchema>;
  const voc = vocabularies();
  const setEnum = (prop: string, values: string[]) => {
    const schema = properties[prop];
    if (!schema) return;
    const target = schema.type === 'array' ? (schema.items as JsonSchema) : schema;
    delete target.minLength;
    delete target.pattern;
    target.enum = values;
  };
  for (const [prop, schema] of Object.entries(properties)) {
    const target = schema.type === 'array' ? (schema.items as JsonSchema | undefined) : schema;
    if (target?.type === 'string' && typeof target.minLength === 'number' && !target.enum) {
      if (!(name === 'ask' && prop === 'query')) target.pattern = NOT_BLANK;
    }
  }
  if (name === 'search_investors') {
    setEnum('country', voc.countries);
    setEnum('region', voc.searchRegions);
    setEnum('sector', [...SECTORS]);
  }
  if (name === 'search_startups') {
    setEnum('countries', voc.countries);
    setEnum('stages', voc.searchStages);
  }
  if (name === 'find_investors') {
    setEnum('investor_countries', voc.places);
    params.anyOf = ['website', 'description', 'sector', 'subsectors', 'tags'].map((prop) => ({
      required: [prop],
    }));
  }
  if (name === 'find_customers') {
    setEnum('regions', voc.places);
    setEnum('stages', voc.raisingStages);
  }
  if (name === 'analyze_deck' && properties.deck_url) properties.deck_url.pattern = DECK_URL;
  return params;
}

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
    Object.entries({ ...ERROR_RESPONSES, ...OPERATION_ERRORS[name] }).map(([status, [component]]) => [
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
    const params = tightenParams(name, jsonSchema(def.params, 'input'));
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

  const allErrors = [
    ...Object.values(ERROR_RESPONSES),
    ...Object.values(OPERATION_ERRORS).flatMap((byStatus) => Object.values(byStatus)),
  ];
  const responses = Object.fromEntries(
    allErrors.map(([component, description]) => [
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
