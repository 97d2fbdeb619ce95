/**
 * Fault injection over real HTTP: latency, 500/503, dropped connections, responses that never
 * finish (and do not block close()), malformed bodies, bursts of 429; seeded and /v1 only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ResultSchema } from '../../api/index.js';
import { FaultInjector, validateFaults } from '../../sandbox/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { KEYS, callSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.setFaults({});
});

function vcCredits(): number | undefined {
  return sandbox.state.accounts.get('acct_vc')?.credits;
}

describe('fault injection', () => {
  it('is off by default', async () => {
    for (let i = 0; i < 5; i += 1) {
      const r = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
      expect(r.status).toBe(200);
    }
  });

  it('adds latency (fixed plus jitter)', async () => {
    sandbox.setFaults({ latencyMs: 250, jitterMs: 100 });
    const started = performance.now();
    const r = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
    const took = performance.now() - started;
    expect(r.status).toBe(200);
    expect(took).toBeGreaterThanOrEqual(245);
    expect(took).toBeLessThan(2000);
  });

  it('answers a share of calls with 500 and 503 envelopes that charge nothing', async () => {
    sandbox.setFaults({ errorRate: 1 });
    const before = vcCredits();
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i += 1) {
      const r = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 5 } });
      statuses.add(r.status);
      expect(ResultSchema.safeParse(r.body).success).toBe(true);
      expect(r.body.success).toBe(false);
      expect(r.body.error?.code).toBe(r.status === 500 ? 'internal_error' : 'service_unavailable');
      if (r.status === 503) expect(r.headers.get('retry-after')).toBe('1');
      expect(r.headers.get('x-ratelimit-limit')).toBe('60');
    }
    expect([...statuses].sort()).toEqual([500, 503]);
    expect(vcCredits()).toBe(before);
  });

  it('drops connections without a response', async () => {
    sandbox.setFaults({ dropRate: 1 });
    await expect(callSandbox(sandbox, 'my_account', { key: KEYS.vc })).rejects.toThrow();
  });

  it('starts responses that never finish until the client gives up', async () => {
    sandbox.setFaults({ hangRate: 1 });
    const started = performance.now();
    const response = await fetch(`${sandbox.url}/v1/my_account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.vc}`, 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(400),
    });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(350);
  });

  it('sends malformed bodies: not JSON or not the envelope', async () => {
    sandbox.setFaults({ malformedRate: 1, seed: 7 });
    const kinds = new Set<string>();
    for (let i = 0; i < 12; i += 1) {
      const r = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
      expect(r.status).toBe(200);
      if (r.body === undefined) kinds.add('not-json');
      else {
        expect(ResultSchema.safeParse(r.body).success).toBe(false);
        kinds.add('not-envelope');
      }
    }
    expect(kinds).toEqual(new Set(['not-json', 'not-envelope']));
  });

  it('answers a burst of N calls with 429 and a short reset, then goes back to normal', async () => {
    sandbox.setFaults({ burst429: 2 });
    const now = Date.now();
    for (let i = 0; i < 2; i += 1) {
      const r = await callSandbox(sandbox, 'my_account', { key: KEYS.provider });
      expect(r.status).toBe(429);
      expect(r.body.error?.code).toBe('rate_limited');
      const reset = Number(r.headers.get('x-ratelimit-reset'));
      expect(reset * 1000).toBeGreaterThanOrEqual(now);
      expect(reset * 1000).toBeLessThanOrEqual(now + 3000);
      expect(r.headers.get('retry-after')).toBe('1');
    }
    const after = await callSandbox(sandbox, 'my_account', { key: KEYS.provider });
    expect(after.status).toBe(200);
    // The burst did not count against the key's own limit.
    expect(after.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('applies to /v1 routes only', async () => {
    sandbox.setFaults({ errorRate: 1 });
    const health = await fetch(`${sandbox.url}/health`);
    expect(health.status).toBe(200);
    const openapi = await fetch(`${sandbox.url}/openapi.json`);
    expect(openapi.status).toBe(200);
  });

  it('draws the same faults from the same seed', async () => {
    const sequence = async (seed: number) => {
      sandbox.setFaults({ errorRate: 0.4, malformedRate: 0.2, seed });
      const out: string[] = [];
      for (let i = 0; i < 16; i += 1) {
        const r = await callSandbox(sandbox, 'nope', {});
        out.push(r.body === undefined ? 'x' : String(r.status));
      }
      return out.join(',');
    };
    const a = await sequence(11);
    const b = await sequence(11);
    const c = await sequence(12);
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).toMatch(/404/);
    expect(a).toMatch(/50[03]/);
  });

  it('refuses bad fault options, naming the field', () => {
    expect(() => sandbox.setFaults({ errorRate: 1.5 })).toThrow(
      'faults.errorRate: errorRate must be at most 1',
    );
    expect(() => validateFaults({ dropRate: 0.6, hangRate: 0.6 })).toThrow(/must not exceed 1/);
    expect(() => validateFaults({ burst429: -1 })).toThrow(/faults.burst429/);
    expect(new FaultInjector({ burst429: 3 }, 1, 60).faults.burst429).toBe(3);
  });
});

describe('faults after the charge (afterCharge)', () => {
  const ask = () =>
    fetch(`${sandbox.url}/v1/ask`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.vc}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'how many seed rounds were there in Germany in 2025' }),
      signal: AbortSignal.timeout(1500),
    });
  const savedAsks = () => [...sandbox.state.results.values()].filter((r) => r.operation === 'ask').length;

  it.each([
    ['dropRate', 'the connection is dropped'],
    ['errorRate', 'a 500 or 503 comes back'],
    ['hangRate', 'the answer never finishes'],
    ['malformedRate', 'a body that is not the envelope comes back'],
  ] as const)('%s: the account paid and the result was saved, but %s', async (mode, _what) => {
    sandbox.setFaults({ afterCharge: { [mode]: 1 } });
    const before = vcCredits()!;
    const saved = savedAsks();
    const outcome = await ask()
      .then(
        async (r) => {
          const text = await r.text();
          return { status: r.status, envelope: ResultSchema.safeParse(JSON.parse(text || 'null')).success };
        },
        () => ({ status: 0, envelope: false }),
      )
      .catch(() => ({ status: 0, envelope: false }));
    // The caller never sees a successful answer...
    expect(outcome.status === 200 && outcome.envelope).toBe(false);
    if (mode === 'errorRate') expect([500, 503]).toContain(outcome.status);
    // ...but the service did its work and charged for it.
    expect(vcCredits()).toBe(before - 1);
    expect(savedAsks()).toBe(saved + 1);
  });

  it('faults only calls that charged, of the listed operations, the first N times', async () => {
    sandbox.setFaults({ afterCharge: { dropRate: 1, operations: ['ask'], times: 2 } });
    const r = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
    expect(r.status).toBe(200);
    const before = vcCredits()!;
    await expect(ask()).rejects.toThrow();
    await expect(ask()).rejects.toThrow();
    const third = await ask();
    expect(third.status).toBe(200);
    expect(vcCredits()).toBe(before - 3);
  });

  it('refuses bad options, naming the field', () => {
    expect(() => validateFaults({ afterCharge: { dropRate: 2 } })).toThrow(/afterCharge.dropRate/);
    expect(() => validateFaults({ afterCharge: { dropRate: 0.6, errorRate: 0.6 } })).toThrow(
      /must not add up to more than 1/,
    );
    expect(() => validateFaults({ afterCharge: { times: -1 } })).toThrow(/afterCharge.times/);
  });
});

describe('close() with faults', () => {
  it('is not blocked by responses that never finish', async () => {
    const own = await startTestSandbox({ faults: { hangRate: 1 } });
    // fetch resolves once the server has written the headers; the body never finishes.
    const response = await fetch(`${own.url}/v1/my_account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.vc}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    const outcome = response.text().then(
      () => 'finished',
      () => 'cut',
    );
    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(1500);
    expect(await outcome).toBe('cut');
  });
});
