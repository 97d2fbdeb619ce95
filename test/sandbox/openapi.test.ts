import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { FREE_OPERATIONS, OPERATIONS, OPERATION_NAMES, RAISING_STAGES, SECTORS } from '../../api/index.js';
import { buildOpenApiDocument } from '../../sandbox/openapi.js';

type Json = Record<string, any>;

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:9999/' }) as unknown as Json;

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:9999' }]);
  });

  it('has one POST path per operation, with a required body and the extensions', () => {
    const opPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/'));
    expect(opPaths.sort()).toEqual(OPERATION_NAMES.map((n) => `/v1/${n}`).sort());
    for (const name of OPERATION_NAMES) {
      const post = doc.paths[`/v1/${name}`].post;
      expect(post.operationId).toBe(name);
      expect(post.requestBody.required).toBe(true);
      expect(post.requestBody.content['application/json'].schema.$ref).toBe(
        `#/components/schemas/${name
          .split('_')
          .map((s) => s[0]!.toUpperCase() + s.slice(1))
          .join('')}Params`,
      );
      expect(post['x-credits']).toBe(OPERATIONS[name].credits);
      expect(post['x-scope']).toBe(OPERATIONS[name].scope);
      expect(post['x-plan']).toBe(OPERATIONS[name].rule.text);
      expect(Object.keys(post.responses).sort()).toEqual(
        ['200', '400', '401', '402', '403', '404', '405', '413', '415', '429', '431']
          .concat(name === 'analyze_deck' ? ['422'] : [])
          .sort(),
      );
    }
    expect(doc.paths['/v1/analyze_deck'].post['x-account-types']).toEqual(['investor']);
  });

  it('offers GET with query parameters for the 0-credit operations only', () => {
    for (const name of OPERATION_NAMES) {
      const get = doc.paths[`/v1/${name}`].get;
      if (FREE_OPERATIONS.includes(name)) expect(get, name).toBeDefined();
      else expect(get, name).toBeUndefined();
    }
    const params = doc.paths['/v1/search_startups'].get.parameters as Json[];
    const countries = params.find((p) => p.name === 'countries')!;
    expect(countries).toMatchObject({ in: 'query', style: 'form', explode: true, required: false });
    expect(countries.schema.type).toBe('array');
    const limit = params.find((p) => p.name === 'limit')!;
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    const key = (doc.paths['/v1/get_investor'].get.parameters as Json[]).find((p) => p.name === 'key')!;
    expect(key.required).toBe(true);
    expect(doc.paths['/v1/my_account'].get.parameters).toEqual([]);
  });

  it('documents every bound, default and enum of the params', () => {
    const s = doc.components.schemas;
    expect(s.SearchInvestorsParams.properties.limit).toMatchObject({ maximum: 100, minimum: 1, default: 25 });
    expect(s.SearchInvestorsParams.properties.offset).toMatchObject({ minimum: 0, default: 0 });
    expect(s.SearchInvestorsParams.properties.sort.enum).toEqual(['score', 'investments']);
    expect(s.SearchInvestorsParams.additionalProperties).toBe(false);
    expect(s.FindInvestorsParams.properties.raising_stage.enum).toEqual([...RAISING_STAGES]);
    expect(s.FindInvestorsParams.properties.sector.enum).toEqual([...SECTORS]);
    expect(s.FindInvestorsParams.properties.sector.enum).toHaveLength(8);
    expect(s.FindInvestorsParams.properties.limit).toMatchObject({ maximum: 50, default: 20 });
    expect(s.FindInvestorsParams.properties.investor_region.enum).toContain('north america');
    expect(s.FindStartupsForFundParams.properties.limit).toMatchObject({ maximum: 30, default: 20 });
    expect(s.AskParams.properties.query).toMatchObject({ minLength: 3, maxLength: 500 });
    expect(s.AskParams.required).toEqual(['query']);
    expect(s.CountryOverviewParams.required).toEqual(['country']);
    expect(s.FindInvestorsDataSchema).toBeUndefined();
    expect(s.FindInvestorsData.properties.investors.maxItems).toBe(50);
  });

  it('describes the responses: the envelope with the data schema, errors with rate-limit headers, bearer auth', () => {
    const s = doc.components.schemas;
    expect(s.SearchInvestorsResult.allOf[0].$ref).toBe('#/components/schemas/Result');
    expect(s.SearchInvestorsResult.allOf[1].properties.data.$ref).toBe(
      '#/components/schemas/SearchInvestorsData',
    );
    expect(s.SearchInvestorsData.required).toContain('investors');
    expect(s.ErrorResponse.required).toEqual(expect.arrayContaining(['success', 'error']));
    const tooMany = doc.components.responses.TooManyRequests;
    expect(Object.keys(tooMany.headers)).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-RateLimit-Limit-Day',
      'X-RateLimit-Remaining-Day',
      'X-RateLimit-Reset-Day',
      'Retry-After',
    ]);
    expect(doc.components.responses.BadRequest.headers['Retry-After']).toBeUndefined();
    expect(tooMany.content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponse');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
  });

  it('omits servers without a server URL and is deterministic', () => {
    const a = buildOpenApiDocument();
    expect('servers' in a).toBe(false);
    expect(JSON.stringify(a)).toBe(JSON.stringify(buildOpenApiDocument()));
  });
});
