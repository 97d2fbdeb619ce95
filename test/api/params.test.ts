/**
 * Every bound of the spec, for every operation: a value just inside passes, just outside fails
 * with a message naming the field. Failing values are also sent through the client, which must
 * refuse them before sending (the scripted server must see no request at all).
 *
 * The spec's tables are written out here verbatim and compared with OPERATIONS, so neither can
 * drift from the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  INVESTOR_REGIONS,
  OPERATION_NAMES,
  OPERATIONS,
  ParamValidationError,
  RAISING_STAGES,
  SECTORS,
  validateParams,
  VisClient,
  type OperationName,
} from '../../api/index.js';
import { startScriptedServer, type ScriptedServer } from './scripted-server.js';

/** Smallest valid parameters of each operation (required fields only). */
const MINIMAL: Record<OperationName, Record<string, unknown>> = {
  my_account: {},
  ask: { query: 'abc' },
  find_investors: {},
  analyze_deck: { deck_url: 'https://example.org/deck.pdf' },
  get_deck_analysis: { room_id: 'room-1' },
  find_startups_for_fund: {},
  find_customers: {},
  search_investors: {},
  get_investor: { key: 'acme-ventures' },
  search_startups: {},
  get_startup: { key: 'acme' },
  country_overview: { country: 'France' },
};

/** The spec's limit ranges and defaults. */
const LIMITS: Partial<Record<OperationName, { max: number; dflt: number }>> = {
  search_investors: { max: 100, dflt: 25 },
  search_startups: { max: 100, dflt: 25 },
  find_investors: { max: 50, dflt: 20 },
  find_startups_for_fund: { max: 30, dflt: 20 },
  find_customers: { max: 50, dflt: 20 },
};

/** The spec's required parameters. */
const REQUIRED: Record<OperationName, string[]> = {
  my_account: [],
  ask: ['query'],
  find_investors: [],
  analyze_deck: ['deck_url'],
  get_deck_analysis: ['room_id'],
  find_startups_for_fund: [],
  find_customers: [],
  search_investors: [],
  get_investor: ['key'],
  search_startups: [],
  get_startup: ['key'],
  country_overview: ['country'],
};

const SPEC_RAISING_STAGES = ['pre-seed', 'seed', 'series-a', 'series-b', 'series-c-plus'];
const SPEC_INVESTOR_REGIONS = [
  'europe',
  'eu',
  'cee',
  'dach',
  'nordics',
  'north america',
  'n america',
  'us',
  'uk',
  'apac',
  'asia',
  'latam',
  'mena',
  'africa',
  'global',
];
const SPEC_SECTORS = [
  'Artificial Intelligence & Data',
  'Commerce & Marketing',
  'Consumer, Lifestyle & Services',
  'Energy, Environment & Mobility',
  'Finance & Blockchain',
  'Healthcare & Life Sciences',
  'Industry & Hardware',
  'Software & Developer Tools',
];

function shapeOf(op: OperationName): Record<string, z.ZodType> {
  return (OPERATIONS[op].params as unknown as z.ZodObject).shape;
}

let server: ScriptedServer;
let client: VisClient;
let refusedThroughClient = 0;

beforeAll(async () => {
  server = await startScriptedServer();
  client = new VisClient({ baseUrl: server.url, apiKey: 'vis_live_paramstest0000' });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** Asserts the parameters pass validation and returns the validated value. */
function accepts(op: OperationName, params: Record<string, unknown>): Record<string, unknown> {
  const r = validateParams(op, params);
  if (!r.ok) throw new Error(`expected ${op} to accept ${JSON.stringify(params)}: ${r.message}`);
  return r.value;
}

/** Asserts validation fails naming `field` (and `fragment` in the message), through the client too. */
async function refuses(op: OperationName, params: Record<string, unknown>, field: string, fragment?: string) {
  const r = validateParams(op, params);
  expect(r.ok, `${op} should refuse ${JSON.stringify(params)}`).toBe(false);
  if (r.ok) return;
  const issue = r.issues.find((i) => i.field === field);
  expect(issue, `${op}: an issue naming ${field} in ${r.message}`).toBeDefined();
  expect(issue!.message).toContain(field.split('.')[0]);
  if (fragment !== undefined) expect(issue!.message).toContain(fragment);

  const before = server.requests.length;
  let caught: unknown;
  try {
    await client.call(op, params);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ParamValidationError);
  const err = caught as ParamValidationError;
  expect(err.issues.some((i) => i.field === field)).toBe(true);
  expect(err.message).toContain(field.split('.')[0]);
  expect(err.operation).toBe(op);
  expect(server.requests.length).toBe(before);
  refusedThroughClient++;
}

describe('the spec tables match OPERATIONS', () => {
  it('operations with a limit', () => {
    const withLimit = OPERATION_NAMES.filter((op) => 'limit' in shapeOf(op)).sort();
    expect(withLimit).toEqual(Object.keys(LIMITS).sort());
  });

  it('required parameters', () => {
    for (const op of OPERATION_NAMES) {
      const shape = shapeOf(op);
      const required = Object.keys(shape).filter((k) => !shape[k]!.safeParse(undefined).success);
      expect(required.sort(), op).toEqual(REQUIRED[op].sort());
    }
  });

  it('array and integer parameters are declared for GET encoding', () => {
    for (const op of OPERATION_NAMES) {
      const shape = shapeOf(op);
      const arrays = Object.keys(shape).filter((k) => shape[k]!.safeParse(['x']).success);
      const integers = Object.keys(shape).filter(
        (k) => shape[k]!.safeParse(1).success && !shape[k]!.safeParse(1.5).success,
      );
      expect(arrays.sort(), op).toEqual([...OPERATIONS[op].arrayParams].sort());
      expect(integers.sort(), op).toEqual([...OPERATIONS[op].integerParams].sort());
    }
  });

  it('enumerations are the spec verbatim', () => {
    expect([...RAISING_STAGES]).toEqual(SPEC_RAISING_STAGES);
    expect([...INVESTOR_REGIONS]).toEqual(SPEC_INVESTOR_REGIONS);
    expect([...SECTORS]).toEqual(SPEC_SECTORS);
  });
});

describe.each(OPERATION_NAMES)('%s', (op) => {
  it('accepts its minimal parameters', () => {
    accepts(op, MINIMAL[op]);
  });

  it('refuses an unknown parameter, naming it', async () => {
    await refuses(op, { ...MINIMAL[op], bogus_param: 1 }, 'bogus_param', 'unknown parameter bogus_param');
  });

  it('refuses a body that is not an object', () => {
    const r = validateParams(op, ['not', 'an', 'object']);
    expect(r.ok).toBe(false);
  });

  for (const field of REQUIRED[op]) {
    it(`requires ${field}`, async () => {
      const { [field]: _dropped, ...rest } = MINIMAL[op];
      await refuses(op, rest, field, 'required');
      await refuses(op, { ...MINIMAL[op], [field]: '' }, field);
      await refuses(op, { ...MINIMAL[op], [field]: 42 }, field);
    });
  }

  const limit = LIMITS[op];
  if (limit !== undefined) {
    it(`limit 1..${limit.max}, default ${limit.dflt}`, async () => {
      expect(accepts(op, MINIMAL[op]).limit).toBe(limit.dflt);
      expect(accepts(op, { ...MINIMAL[op], limit: 1 }).limit).toBe(1);
      expect(accepts(op, { ...MINIMAL[op], limit: limit.max }).limit).toBe(limit.max);
      await refuses(
        op,
        { ...MINIMAL[op], limit: 0 },
        'limit',
        `limit must be at least 1 (1 to ${limit.max})`,
      );
      await refuses(
        op,
        { ...MINIMAL[op], limit: limit.max + 1 },
        'limit',
        `limit must be at most ${limit.max} (1 to ${limit.max})`,
      );
      await refuses(
        op,
        { ...MINIMAL[op], limit: 1.5 },
        'limit',
        `limit must be an integer from 1 to ${limit.max}`,
      );
      await refuses(op, { ...MINIMAL[op], limit: '10' }, 'limit', `1 to ${limit.max}`);
    });
  }

  if ('offset' in shapeOf(op)) {
    it('offset >= 0, default 0', async () => {
      expect(accepts(op, MINIMAL[op]).offset).toBe(0);
      expect(accepts(op, { ...MINIMAL[op], offset: 0 }).offset).toBe(0);
      expect(accepts(op, { ...MINIMAL[op], offset: 10_000 }).offset).toBe(10_000);
      await refuses(op, { ...MINIMAL[op], offset: -1 }, 'offset', 'offset must be at least 0');
      await refuses(op, { ...MINIMAL[op], offset: 0.5 }, 'offset', 'offset must be an integer >= 0');
    });
  }

  for (const field of OPERATIONS[op].arrayParams) {
    it(`${field} is a non-empty array of non-empty strings`, async () => {
      expect(accepts(op, { ...MINIMAL[op], [field]: ['a', 'b'] })[field]).toEqual(['a', 'b']);
      await refuses(op, { ...MINIMAL[op], [field]: [] }, field, 'at least one');
      await refuses(op, { ...MINIMAL[op], [field]: 'a' }, field);
      await refuses(op, { ...MINIMAL[op], [field]: ['a', ''] }, `${field}.1`, 'must not be empty');
    });
  }
});

describe('ask', () => {
  it('query is 3 to 500 characters', async () => {
    accepts('ask', { query: 'abc' });
    accepts('ask', { query: 'x'.repeat(500) });
    await refuses('ask', { query: 'ab' }, 'query', 'query must be at least 3 characters (3 to 500)');
    await refuses(
      'ask',
      { query: 'x'.repeat(501) },
      'query',
      'query must be at most 500 characters (3 to 500)',
    );
  });
});

describe('find_investors', () => {
  it('accepts every raising_stage and refuses others', async () => {
    for (const stage of SPEC_RAISING_STAGES)
      expect(accepts('find_investors', { raising_stage: stage }).raising_stage).toBe(stage);
    await refuses(
      'find_investors',
      { raising_stage: 'series-d' },
      'raising_stage',
      'raising_stage must be one of',
    );
    await refuses(
      'find_investors',
      { raising_stage: 'Seed' },
      'raising_stage',
      'raising_stage must be one of',
    );
  });

  it('accepts every investor_region and refuses others', async () => {
    for (const region of SPEC_INVESTOR_REGIONS) {
      expect(accepts('find_investors', { investor_region: region }).investor_region).toBe(region);
    }
    await refuses(
      'find_investors',
      { investor_region: 'antarctica' },
      'investor_region',
      'investor_region must be one of',
    );
    await refuses(
      'find_investors',
      { investor_region: 'Europe' },
      'investor_region',
      'investor_region must be one of',
    );
  });

  it('accepts the 8 sectors verbatim and refuses anything else', async () => {
    for (const sector of SPEC_SECTORS) expect(accepts('find_investors', { sector }).sector).toBe(sector);
    await refuses('find_investors', { sector: 'AI' }, 'sector', 'sector must be one of');
    await refuses(
      'find_investors',
      { sector: 'artificial intelligence & data' },
      'sector',
      'sector must be one of',
    );
    await refuses('find_investors', { sector: 'Finance and Blockchain' }, 'sector', 'sector must be one of');
  });

  it('accepts the documented free-text fields', () => {
    accepts('find_investors', {
      website: 'https://example.org',
      description: 'We build robots.',
      investor_countries: ['France'],
      subsectors: ['Robotics'],
      tags: ['warehouse'],
    });
  });
});

describe('search_investors', () => {
  it('sort is score or investments, default score', async () => {
    expect(accepts('search_investors', {}).sort).toBe('score');
    expect(accepts('search_investors', { sort: 'investments' }).sort).toBe('investments');
    await refuses('search_investors', { sort: 'name' }, 'sort', 'sort must be one of: score, investments');
  });
});

describe('through the client', () => {
  it('no refused call reached the server', () => {
    expect(refusedThroughClient).toBeGreaterThan(50);
    expect(server.requests).toHaveLength(0);
  });
});
