/**
 * What the client refuses before sending anything: parameters out of the spec's bounds, invalid
 * options, and calls after close(); and its options' defaults.
 */
import { describe, expect, it } from 'vitest';
import {
  CLIENT_DEFAULTS,
  ClientClosedError,
  createClient,
  InvalidClientOptionsError,
  ParamValidationError,
  VisClient,
  type VisClientOptions,
} from '../../api/index.js';
import { clientBed, KEY } from './client-bed.js';
import { failure, type ScriptedServer } from './scripted-server.js';

let server: ScriptedServer;
let client: VisClient;
clientBed((s, c) => ((server = s), (client = c)));

describe('validation before sending', () => {
  const bad: [string, () => Promise<unknown>, string, string][] = [
    [
      'limit above bound',
      () => client.call('search_investors', { limit: 101 }),
      'limit',
      'limit must be at most 100 (1 to 100)',
    ],
    [
      'offset below 0',
      () => client.call('search_startups', { offset: -1 }),
      'offset',
      'offset must be at least 0',
    ],
    [
      'ask query too short',
      () => client.call('ask', { query: 'hi' }),
      'query',
      'query must be at least 3 characters (3 to 500)',
    ],
    [
      'missing required key',
      () => client.call('get_investor', {} as { key: string }),
      'key',
      'key is required',
    ],
    [
      'unknown parameter',
      () => client.call('my_account', { verbose: true } as never),
      'verbose',
      'unknown parameter verbose',
    ],
    [
      'non-integer limit',
      () => client.call('find_customers', { limit: 2.5 }),
      'limit',
      'limit must be an integer from 1 to 50',
    ],
    [
      'wrong stage',
      () => client.call('find_investors', { raising_stage: 'series-z' as 'seed' }),
      'raising_stage',
      'raising_stage must be one of',
    ],
    [
      'unknown operation',
      () => client.call('no_such_op' as 'my_account', {}),
      'operation',
      'unknown operation no_such_op',
    ],
  ];
  for (const [title, call, field, message] of bad) {
    it(`${title}: ParamValidationError naming ${field}, nothing sent`, async () => {
      const err = await failure(call);
      expect(err).toBeInstanceOf(ParamValidationError);
      expect(err.code).toBe('invalid_params');
      expect(err.retryable).toBe(false);
      expect(err.status).toBeNull();
      const issues = (err as ParamValidationError).issues;
      expect(issues.some((i) => i.field === field)).toBe(true);
      expect(err.message).toContain(message);
      expect(err.message.startsWith(`${err.operation} failed: invalid_params: `)).toBe(true);
      expect(server.requests).toHaveLength(0);
    });
  }
});

describe('options', () => {
  it('applies the defaults and hides the key', () => {
    const c = new VisClient({ baseUrl: server.url, apiKey: KEY });
    expect(c.options).toEqual({ baseUrl: server.url, ...CLIENT_DEFAULTS });
    expect(c.options.headersTimeoutMs).toBe(120_000);
    expect(Object.keys(c)).not.toContain('apiKey');
    expect(JSON.stringify(c)).not.toContain(KEY);
    return c.close();
  });

  const badOptions: [string, Partial<VisClientOptions> & Record<string, unknown>, string][] = [
    ['baseUrl not a URL', { baseUrl: 'not a url' }, 'baseUrl must be an absolute http(s) URL'],
    ['baseUrl ftp', { baseUrl: 'ftp://example.org' }, 'baseUrl must use http or https'],
    ['empty apiKey', { apiKey: '' }, 'apiKey is required'],
    ['apiKey with a space', { apiKey: 'vis_live_ bad' }, 'apiKey must be printable ASCII without spaces'],
    ['connections 0', { connections: 0 }, 'connections must be at least 1 (1 to 256)'],
    ['connections 1.5', { connections: 1.5 }, 'connections must be an integer from 1 to 256'],
    ['headersTimeoutMs negative', { headersTimeoutMs: -5 }, 'headersTimeoutMs must be at least 1 ms'],
    [
      'connectTimeoutMs as string',
      { connectTimeoutMs: '10' as unknown as number },
      'connectTimeoutMs must be a whole number of milliseconds',
    ],
    ['unknown option', { retries: 3 }, 'unknown option retries'],
  ];
  for (const [title, patch, message] of badOptions) {
    it(`refuses ${title}`, () => {
      let caught: unknown;
      try {
        createClient({ baseUrl: server.url, apiKey: KEY, ...patch });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(InvalidClientOptionsError);
      const err = caught as InvalidClientOptionsError;
      expect(err.code).toBe('invalid_options');
      expect(err.message).toBe(`invalid VisClient options: ${message}`);
      expect(err.message).not.toContain('vis_live_ bad');
    });
  }

  it('close() is idempotent and later calls fail with ClientClosedError without sending', async () => {
    const c = createClient({ baseUrl: server.url, apiKey: KEY });
    await c.close();
    await c.close();
    expect(c.closed).toBe(true);
    const err = await failure(() => c.call('my_account', {}));
    expect(err).toBeInstanceOf(ClientClosedError);
    expect(err.retryable).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
