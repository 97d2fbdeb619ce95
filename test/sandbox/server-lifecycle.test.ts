/**
 * Starting and stopping the sandbox: graceful close, options and accounts-file validation,
 * insertStartup, and the `npm run sandbox` entry point.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccountsFile, startSandbox } from '../../sandbox/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { KEYS, callSandbox, startTestSandbox } from '../helpers/sandbox.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vis-sandbox-test-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('close()', () => {
  it('finishes in-flight requests, ends idle keep-alive connections and stops accepting', async () => {
    const sandbox = await startTestSandbox();
    // An idle keep-alive connection from an earlier call.
    expect((await callSandbox(sandbox, 'my_account', { key: KEYS.vc })).status).toBe(200);
    sandbox.setFaults({ latencyMs: 400 });
    const inFlight = callSandbox(sandbox, 'my_account', { key: KEYS.vc });
    // No event says the sandbox is handling a request: 100 ms is ample for it to arrive over
    // loopback and well inside its 400 ms latency.
    await sleep(100);
    const started = performance.now();
    await sandbox.close();
    const took = performance.now() - started;
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.success).toBe(true);
    expect(took).toBeGreaterThanOrEqual(200);
    expect(took).toBeLessThan(3000);
    await expect(fetch(`${sandbox.url}/health`)).rejects.toThrow();
    // Closing twice is harmless.
    await sandbox.close();
  });

  it('cuts requests that outlive the close timeout', async () => {
    const sandbox = await startTestSandbox({ closeTimeoutMs: 200, faults: { latencyMs: 5000 } });
    const slow = callSandbox(sandbox, 'my_account', { key: KEYS.vc }).then(
      () => 'answered',
      () => 'cut',
    );
    // No event says the request arrived: 100 ms is ample over loopback, inside its 5 s latency.
    await sleep(100);
    const started = performance.now();
    await sandbox.close();
    expect(performance.now() - started).toBeLessThan(1500);
    expect(await slow).toBe('cut');
  });
});

describe('options', () => {
  it('refuses bad options, naming the field', async () => {
    await expect(startSandbox({ rateLimitPerMinute: 0 })).rejects.toThrow(
      'sandbox option rateLimitPerMinute: must be at least 1',
    );
    await expect(startSandbox({ port: 70000 })).rejects.toThrow('sandbox option port: must be at most 65535');
    await expect(startSandbox({ asOf: '21.11.2026' })).rejects.toThrow(
      'sandbox option asOf: must be a date YYYY-MM-DD',
    );
    await expect(startSandbox({ faults: { hangRate: 2 } })).rejects.toThrow('faults.hangRate');
  });

  it('loads extra accounts and keys from options and a JSON file', async () => {
    const file = join(dir, 'accounts.json');
    writeFileSync(
      file,
      JSON.stringify({
        accounts: [{ id: 'acct_file', name: 'File Fund', type: 'investor', plan: 'paid', credits: 7 }],
        keys: [{ key: 'vis_live_from_file', account_id: 'acct_file', scopes: ['read'] }],
      }),
    );
    const sandbox = await startTestSandbox({
      accountsFile: file,
      accounts: [{ id: 'acct_code', name: 'Code Co', type: 'startup', plan: 'free', credits: 0 }],
      keys: [{ key: 'vis_live_from_code', account_id: 'acct_code', scopes: ['read'], revoked: false }],
    });
    try {
      const fromFile = await callSandbox(sandbox, 'my_account', { key: 'vis_live_from_file' });
      expect(fromFile.status).toBe(200);
      expect(fromFile.body.data).toMatchObject({
        account_name: 'File Fund',
        plan: 'paid',
        credits_balance: 7,
        scopes: ['read'],
      });
      const fromCode = await callSandbox(sandbox, 'my_account', { key: 'vis_live_from_code' });
      expect(fromCode.body.data).toMatchObject({ account_name: 'Code Co', plan: 'free' });
      // The seeded keys are still there.
      expect((await callSandbox(sandbox, 'my_account', { key: KEYS.provider })).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('names the file and the field of a bad accounts file, and never the key', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ accounts: [{ id: 'a', name: 'A', type: 'startup', plan: 'gold', credits: 1 }] }),
    );
    expect(() => loadAccountsFile(bad)).toThrow(
      `accounts file ${bad}: accounts.0.plan: must be one of: free, paid`,
    );
    const orphan = join(dir, 'orphan.json');
    writeFileSync(orphan, JSON.stringify({ keys: [{ key: 'vis_live_orphan_secret', account_id: 'ghost' }] }));
    await expect(startTestSandbox({ accountsFile: orphan })).rejects.toThrow(
      `accounts file ${orphan}: keys.0.account_id: no account 'ghost'`,
    );
    await expect(startTestSandbox({ accountsFile: orphan })).rejects.not.toThrow(/vis_live_orphan_secret/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "accounts": [');
    expect(() => loadAccountsFile(broken)).toThrow(
      new RegExp(`accounts file ${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON`),
    );
    expect(() => loadAccountsFile(join(dir, 'missing.json'))).toThrow(/cannot be read \(ENOENT\)/);
    const extra = join(dir, 'extra.json');
    writeFileSync(
      extra,
      JSON.stringify({
        accounts: [{ id: 'a', name: 'A', type: 'startup', plan: 'paid', credits: 1, colour: 'red' }],
      }),
    );
    expect(() => loadAccountsFile(extra)).toThrow(/accounts\.0\.colour: unknown field/);
  });
});

describe('insertStartup', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ now: () => new Date('2026-11-18T10:00:00Z') });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('inserts a startup with defaults, a slug key and total raised from its rounds', () => {
    const investor = sandbox.db.prepare('SELECT key FROM investors ORDER BY key LIMIT 1').get() as {
      key: string;
    };
    const key = sandbox.insertStartup({ name: '=HYPERLINK("http://x","y")', hq_country: 'de' }, [
      { amount_usd: 3_000_000, stage: 'seed', date: '2025-01-10' },
      { amount_usd: 12_000_000, stage: 'series-a', lead_investor_key: investor.key },
    ]);
    expect(key).toBe('hyperlink-http-x-y');
    const row = sandbox.db.prepare('SELECT * FROM startups WHERE key = ?').get(key) as Record<
      string,
      unknown
    >;
    expect(row).toMatchObject({
      name: '=HYPERLINK("http://x","y")',
      hq_country: 'Germany',
      region: 'Europe',
      stage: 'series-a',
      status: 'active',
      total_raised_usd: 15_000_000,
      website: 'https://hyperlink-http-x-y.example.com',
      domain: 'hyperlink-http-x-y.example.com',
    });
    const rounds = sandbox.db
      .prepare(
        'SELECT date, year, stage, amount_usd, lead_investor_key FROM rounds WHERE startup_key = ? ORDER BY date',
      )
      .all(key);
    expect(rounds.map((r) => ({ ...r }))).toEqual([
      { date: '2025-01-10', year: 2025, stage: 'seed', amount_usd: 3_000_000, lead_investor_key: null },
      {
        date: '2026-11-18',
        year: 2026,
        stage: 'series-a',
        amount_usd: 12_000_000,
        lead_investor_key: investor.key,
      },
    ]);
    const leads = sandbox.db
      .prepare(
        'SELECT investor_key, is_lead FROM round_investors ri JOIN rounds r ON r.id = ri.round_id WHERE r.startup_key = ?',
      )
      .all(key);
    expect(leads.map((r) => ({ ...r }))).toEqual([{ investor_key: investor.key, is_lead: 1 }]);
    // The same name again gets a new key.
    expect(sandbox.insertStartup({ name: '=HYPERLINK("http://x","y")', hq_country: 'Germany' })).toBe(
      'hyperlink-http-x-y-2',
    );
  });

  it('makes the startup visible to the operations', async () => {
    sandbox.insertStartup({
      name: 'Zebra Quantum Widgets',
      hq_country: 'France',
      description: 'Quantum widgets for zebras.',
    });
    const r = await callSandbox(sandbox, 'get_startup', {
      key: KEYS.startup,
      params: { key: 'Zebra Quantum Widgets' },
    });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body.data)).toContain('Quantum widgets for zebras.');
  });

  it('refuses an unknown country', () => {
    expect(() => sandbox.insertStartup({ name: 'Nowhere Inc', hq_country: 'Atlantis' })).toThrow(
      "insertStartup: unknown country 'Atlantis'",
    );
  });
});

describe('npm run sandbox', () => {
  it('prints the URL and the seeded keys, serves, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'sandbox/main.ts', '--port', '0', '--rate-per-minute', '7'],
      {
        cwd: join(import.meta.dirname, '..', '..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Polls the output for the ready line (the event), for 30 s at most.
      for (let i = 0; i < 300 && !/Press Ctrl\+C/.test(out); i += 1) await sleep(100);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      expect(url, out).toBeDefined();
      for (const key of Object.values(KEYS)) expect(out).toContain(key);
      const r = await callSandbox(url ?? '', 'my_account', { key: KEYS.vc });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('7');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('SIGTERM: stopping the sandbox');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('exits 1 with a message on a bad option', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', '--port', 'eighty'], {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(err).toMatch(/--port must be an integer/);
  });
});
