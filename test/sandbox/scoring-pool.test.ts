/**
 * The scoring pool (sandbox/scoring-pool.ts): the paid finders score on worker threads with the
 * same results as on the main thread, see data written at run time (raw UPDATEs included), keep
 * the repeat and free-plan rules exact under concurrency, take turns between accounts, persist
 * as before, close their threads, and load under `node --import tsx` and tsx's CLI alike.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import { scoreFund } from '../../sandbox/finders/fund-result.js';
import { getSnapshot } from '../../sandbox/finders/snapshot.js';
import type { Envelope, RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LIFTED = { rateLimitPerMinute: 100_000, rateLimitPerDay: 1_000_000 };

/** An answer's data and summary without what differs between two runs (ids, timestamps). */
function comparable(body: Envelope, baseUrl: string): string {
  const data = { ...body.data } as Record<string, unknown>;
  for (const field of ['batch_id', 'created_at', 'previous_batch_id']) delete data[field];
  if (data.repeat) data.repeat = { free: (data.repeat as { free: boolean }).free };
  const summary = body.summary
    .replace(/mb_[0-9a-f]{16}/g, 'mb_<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>');
  return JSON.stringify({ data, summary, charts: body.charts, charged: body.credits?.charged }).replaceAll(
    baseUrl,
    '<base>',
  );
}

describe('pooled scoring against scoring on the main thread', () => {
  let pooled: RunningSandbox;
  let inThread: RunningSandbox;
  beforeAll(async () => {
    [pooled, inThread] = await Promise.all([
      startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, scoringThreads: 2, ...LIFTED }),
      startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, scoringThreads: 0, ...LIFTED }),
    ]);
  });
  afterAll(async () => {
    await pooled?.close();
    await inThread?.close();
  });

  const calls: [string, string, Record<string, unknown>][] = [
    ['find_startups_for_fund', KEYS.vc, { limit: 30 }],
    ['find_startups_for_fund', KEYS.vc, { limit: 10 }],
    ['find_investors', KEYS.startup, { sector: 'Finance & Blockchain', tags: ['payments'], limit: 20 }],
    ['find_investors', KEYS.startup, { website: 'https://zzqx.example' }],
    ['find_customers', KEYS.provider, { limit: 15 }],
    ['find_customers', KEYS.provider, { limit: 15 }],
    ['find_customers', KEYS.org, { org_key: 'harbour-accelerator', limit: 10 }],
  ];

  it('gives byte-equal answers (ids and timestamps aside) for the same calls', async () => {
    for (const [operation, key, params] of calls) {
      const a = await callSandbox(pooled, operation, { key, params });
      const b = await callSandbox(inThread, operation, { key, params });
      expect(a.status, a.text).toBe(b.status);
      expect(comparable(a.body, pooled.url), `${operation} ${JSON.stringify(params)}`).toBe(
        comparable(b.body, inThread.url),
      );
    }
    expect(pooled.scoringThreads()).toBeGreaterThanOrEqual(1);
    expect(inThread.scoringThreads()).toBe(0);
  });

  it('refuses bad input the same way', async () => {
    for (const [operation, key, params] of [
      ['find_customers', KEYS.provider, { regions: ['atlantis'] }],
      ['find_customers', KEYS.org, { org_key: 'nope' }],
      ['find_investors', KEYS.startup, { investor_countries: ['Atlantis'] }],
    ] as const) {
      const a = await callSandbox(pooled, operation, { key, params });
      const b = await callSandbox(inThread, operation, { key, params });
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(a.text).toBe(b.text);
    }
  });
});

describe('the scoring threads see the data as it is now', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, scoringThreads: 1, ...LIFTED });
  });
  afterAll(() => sandbox?.close());

  type Entry = { key: string; name: string };
  const batch = async () => {
    const r = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 30 } });
    expect(r.status, r.text).toBe(200);
    return (r.body.data as { startups: Entry[] }).startups;
  };

  it('an UPDATE through sandbox.db is seen by the next find_startups_for_fund', async () => {
    const first = await batch();
    const top = first[0]!;
    sandbox.db
      .prepare('UPDATE startups SET name = ? WHERE key = ?')
      .run('Renamed On The Main Thread', top.key);
    const second = await batch();
    expect(second.find((e) => e.key === top.key)?.name).toBe('Renamed On The Main Thread');
    // An acquired startup is no longer a candidate.
    sandbox.db.prepare("UPDATE startups SET status = 'acquired' WHERE key = ?").run(top.key);
    const third = await batch();
    expect(third.map((e) => e.key)).not.toContain(top.key);
    expect(sandbox.scoringThreads()).toBe(1);
  });

  it('a startup inserted at run time is seen by the next call', async () => {
    const thesis = sandbox.state.accounts.get('acct_vc')!.thesis!;
    const scored = async () => {
      const r = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 1 } });
      return (r.body.data as { candidates_scored: number }).candidates_scored;
    };
    const before = await scored();
    const key = sandbox.insertStartup(
      {
        name: 'Pool Fresh Ledger AI',
        hq_country: thesis.countries[0]!,
        sector: thesis.sectors[0]!,
        stage: thesis.stages[0]!,
        status: 'active',
      },
      [{ stage: thesis.stages[0]!, amount_usd: 3_000_000, date: SANDBOX_TEST_AS_OF }],
    );
    expect(await scored()).toBe(before + 1);
    const r = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 30 } });
    expect(r.status, r.text).toBe(200);
    const inThread = scoreFund(getSnapshot(sandbox.db), thesis, 30, sandbox.url);
    const keys = (r.body.data as { startups: Entry[] }).startups.map((e) => e.key);
    expect(keys).toEqual(inThread.entries.map((e) => e.key));
    expect(inThread.total).toBe((r.body.data as { candidates_scored: number }).candidates_scored);
    expect(keys.includes(key)).toBe(inThread.entries.some((e) => e.key === key));
  });
});

describe('state stays on the main thread, exact under concurrency', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, scoringThreads: 2, ...LIFTED });
  });
  afterAll(() => sandbox?.close());

  it('six same find_customers at once: one charged, five free repeats', async () => {
    const account = sandbox.state.accounts.get(sandbox.state.keys.get(KEYS.provider)!.account_id)!;
    const before = account.credits;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        callSandbox(sandbox, 'find_customers', { key: KEYS.provider, params: { limit: 7 } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const charged = answers.map((a) => a.body.credits!.charged).sort();
    expect(charged).toEqual([0, 0, 0, 0, 0, 3]);
    expect(before - account.credits).toBe(3);
    expect(answers.filter((a) => (a.body.data as { repeat: { free: boolean } }).repeat.free)).toHaveLength(5);
  });

  it('three find_investors at once on the free plan: one run, two refused', async () => {
    const account = sandbox.state.accounts.get('acct_free')!;
    const before = account.credits;
    const answers = await Promise.all(
      Array.from({ length: 3 }, () =>
        callSandbox(sandbox, 'find_investors', {
          key: KEYS.free,
          params: { sector: 'Healthcare & Life Sciences' },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 402, 402]);
    expect(sandbox.state.freeFinderRunsUsed.get('acct_free')).toBe(1);
    expect(before - account.credits).toBe(3);
  });

  it('a free-plan call refused for its input leaves the run to the call waiting behind it', async () => {
    sandbox.state.freeFinderRunsUsed.delete('acct_free');
    const [bad, good] = await Promise.all([
      callSandbox(sandbox, 'find_investors', {
        key: KEYS.free,
        params: { investor_countries: ['Atlantis'] },
      }),
      callSandbox(sandbox, 'find_investors', {
        key: KEYS.free,
        params: { sector: 'Healthcare & Life Sciences' },
      }),
    ]);
    expect(bad.status).toBe(400);
    expect(good.status, good.text).toBe(200);
    expect(sandbox.state.freeFinderRunsUsed.get('acct_free')).toBe(1);
  });

  it("takes turns between accounts: another account's call does not wait for a burst", async () => {
    const vcAnswered: number[] = [];
    const burst = Array.from({ length: 16 }, () =>
      callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 30 } }).then((r) => {
        vcAnswered.push(performance.now());
        return r;
      }),
    );
    // No event says the burst is queued in the sandbox (its log records answers, not arrivals):
    // 300 ms lets 16 loopback requests arrive; the assertions below check the burst was still
    // being answered when the other account's call came back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const other = await callSandbox(sandbox, 'find_investors', {
      key: KEYS.startup,
      params: { sector: 'Finance & Blockchain' },
    });
    const answeredBefore = vcAnswered.length;
    await Promise.all(burst);
    expect(other.status, other.text).toBe(200);
    // Round robin: at most a turn or two of the burst per thread before it, not all 16.
    expect(answeredBefore).toBeLessThan(8);
  }, 120_000);
});

describe('the persisted state mode', () => {
  it('keeps balances, repeats and match lists across a restart, with the pool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vir-scoring-pool-'));
    const stateFile = join(dir, 'state.sqlite');
    try {
      const first = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, stateFile, scoringThreads: 1 });
      const charged = await callSandbox(first, 'find_customers', {
        key: KEYS.provider,
        params: { limit: 5 },
      });
      const batch = await callSandbox(first, 'find_startups_for_fund', {
        key: KEYS.vc,
        params: { limit: 5 },
      });
      expect(charged.body.credits!.charged).toBe(3);
      const balance = first.state.accounts.get('acct_vc')!.credits;
      expect(first.scoringThreads()).toBe(1);
      await first.close();
      expect(first.scoringThreads()).toBe(0);

      const second = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, stateFile, scoringThreads: 1 });
      try {
        expect(second.state.accounts.get('acct_vc')!.credits).toBe(balance);
        const repeat = await callSandbox(second, 'find_customers', {
          key: KEYS.provider,
          params: { limit: 5 },
        });
        expect(repeat.body.credits!.charged).toBe(0);
        const next = await callSandbox(second, 'find_startups_for_fund', {
          key: KEYS.vc,
          params: { limit: 5 },
        });
        expect((next.body.data as { previous_batch_id: string }).previous_batch_id).toBe(
          (batch.body.data as { batch_id: string }).batch_id,
        );
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('starting the sandbox as `npm run sandbox` and `vir sandbox` do', () => {
  const launchers: [string, string[]][] = [
    ['node --import tsx', [process.execPath, '--import', 'tsx']],
    ['the tsx CLI', [process.execPath, join(ROOT, 'node_modules/tsx/dist/cli.mjs')]],
  ];
  it.each(launchers)(
    'answers a finder call from its scoring thread under %s',
    async (_name, command) => {
      const child = spawn(
        command[0]!,
        [
          ...command.slice(1),
          'sandbox/main.ts',
          '--port',
          '0',
          '--state',
          'memory',
          '--as-of',
          SANDBOX_TEST_AS_OF,
          '--scoring-threads',
          '1',
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const m = /listening on (http:\/\/\S+)/.exec(output);
            if (m) resolve(m[1]!);
          });
          void exited.then((code) => reject(new Error(`sandbox exited (${code}): ${output}`)));
        });
        const r = await callSandbox(url, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 30 } });
        expect(r.status, r.text).toBe(200);
        expect((r.body.data as { startups: unknown[] }).startups).toHaveLength(30);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited, output).toBe(0);
    },
    60_000,
  );
});
