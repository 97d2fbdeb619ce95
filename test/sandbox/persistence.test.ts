/**
 * A sandbox whose state persists: stopped (closed, or killed with SIGKILL as a child process)
 * and started again on the same state file, it answers as if it had never stopped: balances,
 * free-plan runs, find_customers repeat records, match lists, data rooms (a running analysis
 * finishes after the restart), stored results and rate-limit windows. Seeds and options only add
 * accounts the file does not have; the default (memory) stays fresh at every start; one state
 * file serves one sandbox at a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_AS_OF, sandboxDatabasePath } from '../../sandbox/data/index.js';
import type { RunningSandbox, SandboxOptions } from '../../sandbox/index.js';
import { buildPdf, LEDGERLY_SLIDES } from '../fixtures/decks/build.js';
import { startDeckServer, type DeckServer } from '../fixtures/decks/tls-server.js';
import { callSandbox, KEYS, startTestSandbox, type CallResult } from '../helpers/sandbox.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sandboxMain = join(root, 'sandbox/main.ts');

type Data = Record<string, any>;

let dir: string;
let decks: DeckServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vir-sandbox-state-'));
  decks = await startDeckServer({
    '/ledgerly.pdf': { body: await buildPdf(LEDGERLY_SLIDES), type: 'application/pdf' },
  });
});
afterAll(async () => {
  await decks?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Long windows, so that nothing resets while the test runs; small limits, so a key can use one up. */
const LIMITS = {
  rateLimitPerMinute: 40,
  rateLimitPerDay: 80,
  minuteWindowMs: 600_000,
  dayWindowMs: 3_600_000,
};

function startPersisted(stateFile: string, extra: SandboxOptions = {}): Promise<RunningSandbox> {
  return startTestSandbox({
    asOf: SANDBOX_TEST_AS_OF,
    stateFile,
    trustedCa: [decks.cert.cert],
    deckWaitMs: 20,
    deckAnalysisMs: 1500,
    ...LIMITS,
    ...extra,
  });
}

const limits = (r: CallResult) => ({
  remaining: Number(r.headers.get('x-ratelimit-remaining')),
  reset: Number(r.headers.get('x-ratelimit-reset')),
  remainingDay: Number(r.headers.get('x-ratelimit-remaining-day')),
  resetDay: Number(r.headers.get('x-ratelimit-reset-day')),
});

const balance = async (target: RunningSandbox | string, key: string) =>
  (await callSandbox(target, 'my_account', { key })).body.data!.credits_balance as number;

async function pollUntilDone(target: RunningSandbox, roomId: string): Promise<Data> {
  for (let i = 0; i < 60; i++) {
    const r = await callSandbox(target, 'get_deck_analysis', { key: KEYS.vc, params: { room_id: roomId } });
    expect(r.status).toBe(200);
    if ((r.body.data as Data).status !== 'running') return r.body.data as Data;
    await new Promise((resolve) => setTimeout(resolve, 250)); // polls the service, as a client must
  }
  throw new Error(`room ${roomId} still running`);
}

const CUSTOMERS = { brief: 'fintech startups that need a law firm for their next round', limit: 5 };
const INVESTORS = { description: 'Payments API for cross-border merchants', raising_stage: 'seed', limit: 5 };

describe('a persisted sandbox closed and started again on the same state file', () => {
  it('keeps balances, free-plan runs, repeat records, match lists, rooms, results and rate-limit windows', async () => {
    const stateFile = join(dir, 'restart', 'state.sqlite');
    const first = await startPersisted(stateFile);
    expect(first.stateFile).toBe(stateFile);

    // Credits: a paid run on the startup account, the free plan's one run.
    const paid = await callSandbox(first, 'find_investors', { key: KEYS.startup, params: INVESTORS });
    expect(paid.body.credits).toEqual({ charged: 3, remaining: 99_997 });
    const freeRun = await callSandbox(first, 'find_investors', { key: KEYS.free, params: INVESTORS });
    expect(freeRun.status).toBe(200);
    expect(freeRun.body.credits).toEqual({ charged: 3, remaining: 7 });
    expect((await callSandbox(first, 'find_investors', { key: KEYS.free, params: INVESTORS })).status).toBe(
      402,
    );

    // A find_customers call: charged, and its repeat free.
    const customers = await callSandbox(first, 'find_customers', { key: KEYS.provider, params: CUSTOMERS });
    expect(customers.body.credits).toEqual({ charged: 3, remaining: 99_997 });
    const chargedAt = (customers.body.data as Data).repeat.charged_at as string;

    // A match list batch, kept as a result for its view.
    const fund = await callSandbox(first, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 5 } });
    expect(fund.status).toBe(200);
    const batchId = (fund.body.data as Data).batch_id as string;
    expect(fund.body.url).toBe(`${first.url}/view/results/${batchId}`);

    // A data room analysed before the stop, and one still running when it stops.
    const done = await callSandbox(first, 'analyze_deck', {
      key: KEYS.vc,
      params: { deck_url: `${decks.url}/ledgerly.pdf` },
    });
    const doneRoom = await pollUntilDone(first, (done.body.data as Data).room_id);
    expect(doneRoom.status).toBe('done');
    const running = await callSandbox(first, 'analyze_deck', {
      key: KEYS.vc,
      params: { deck_url: `${decks.url}/ledgerly.pdf` },
    });
    expect((running.body.data as Data).status).toBe('running');
    const runningId = (running.body.data as Data).room_id as string;

    // Rate limits: the VC key's windows part used, the read-only key's minute used up.
    const lastVc = limits(await callSandbox(first, 'my_account', { key: KEYS.vc }));
    for (let i = 0; i < LIMITS.rateLimitPerMinute; i++)
      expect((await callSandbox(first, 'search_startups', { key: KEYS.readonly })).status).toBe(200);
    const refused = await callSandbox(first, 'search_startups', { key: KEYS.readonly });
    expect(refused.status).toBe(429);

    const balances = {
      startup: await balance(first, KEYS.startup),
      vc: await balance(first, KEYS.vc),
      provider: await balance(first, KEYS.provider),
      free: await balance(first, KEYS.free),
    };
    expect(balances).toEqual({ startup: 99_997, vc: 99_991, provider: 99_997, free: 7 });
    const vcBefore = limits(await callSandbox(first, 'my_account', { key: KEYS.vc }));
    await first.close();

    const second = await startPersisted(stateFile);
    try {
      // Rate limits go on where they were: same resets, one call fewer left.
      const vcAfter = limits(await callSandbox(second, 'my_account', { key: KEYS.vc }));
      expect(vcAfter).toEqual({
        ...vcBefore,
        remaining: vcBefore.remaining - 1,
        remainingDay: vcBefore.remainingDay - 1,
      });
      expect(vcBefore.remaining).toBe(lastVc.remaining - 2); // two more my_account calls
      const stillRefused = await callSandbox(second, 'search_startups', { key: KEYS.readonly });
      expect(stillRefused.status).toBe(429);
      expect(limits(stillRefused)).toEqual(limits(refused));

      expect({
        startup: await balance(second, KEYS.startup),
        vc: await balance(second, KEYS.vc),
        provider: await balance(second, KEYS.provider),
        free: await balance(second, KEYS.free),
      }).toEqual(balances);

      // The free plan's run stays used.
      const freeAccount = await callSandbox(second, 'my_account', { key: KEYS.free });
      expect(freeAccount.body.data).toMatchObject({ plan: 'free', free_find_investors_runs_used: 1 });
      const again = await callSandbox(second, 'find_investors', { key: KEYS.free, params: INVESTORS });
      expect(again.status).toBe(402);
      expect(again.body.error?.code).toBe('upgrade_required');

      // The repeat of the find_customers call is still free, counted from the first charge.
      const repeat = await callSandbox(second, 'find_customers', { key: KEYS.provider, params: CUSTOMERS });
      expect(repeat.body.credits).toEqual({ charged: 0, remaining: balances.provider });
      expect((repeat.body.data as Data).repeat).toMatchObject({ free: true, charged_at: chargedAt });

      // The match list: the next batch follows the saved one.
      const vcAccount = await callSandbox(second, 'my_account', { key: KEYS.vc });
      expect((vcAccount.body.data as Data).match_list).toMatchObject({
        batches: 1,
        latest: { batch_id: batchId, startups: 5 },
      });
      const next = await callSandbox(second, 'find_startups_for_fund', {
        key: KEYS.vc,
        params: { limit: 5 },
      });
      expect((next.body.data as Data).previous_batch_id).toBe(batchId);

      // Rooms: the finished one unchanged, the running one finishes after the restart.
      expect(await pollUntilDone(second, doneRoom.room_id)).toEqual(doneRoom);
      const finished = await pollUntilDone(second, runningId);
      expect(finished.status).toBe('done');
      expect(finished.analysis.deal_score).toBe(doneRoom.analysis.deal_score);

      // Results stored for their views are still served.
      const view = await fetch(`${second.url}/view/results/${batchId}`);
      expect(view.status).toBe(200);
      expect(await view.text()).toContain(batchId);
    } finally {
      await second.close();
    }
  });

  it('lets persisted accounts win over seeds and options, which only add new accounts and keys', async () => {
    const stateFile = join(dir, 'seeds', 'state.sqlite');
    const first = await startPersisted(stateFile);
    await callSandbox(first, 'ask', {
      key: KEYS.startup,
      params: { query: 'How many seed rounds in 2025?' },
    });
    await first.close();

    const newcomer = {
      id: 'acct_new',
      name: 'Newcomer',
      type: 'startup',
      plan: 'paid',
      credits: 40,
    } as const;
    const second = await startPersisted(stateFile, {
      accounts: [
        { id: 'acct_startup', name: 'Lumen Health', type: 'startup', plan: 'free', credits: 5 },
        newcomer,
      ],
      keys: [{ key: 'vis_live_newcomer_1', account_id: 'acct_new', scopes: ['read'], revoked: false }],
    });
    try {
      const startup = await callSandbox(second, 'my_account', { key: KEYS.startup });
      expect(startup.body.data).toMatchObject({ plan: 'paid', credits_balance: 99_999 });
      expect(await balance(second, 'vis_live_newcomer_1')).toBe(40);
    } finally {
      await second.close();
    }
  });

  it("starts over with state 'reset'", async () => {
    // The state file the first test left (a free-plan run used, balances and windows moved):
    // reopened as it is first, to see that there is something to start over from.
    const stateFile = join(dir, 'restart', 'state.sqlite');
    const kept = await startPersisted(stateFile);
    try {
      expect(await balance(kept, KEYS.free)).toBe(7);
    } finally {
      await kept.close();
    }
    const second = await startPersisted(stateFile, { state: 'reset' });
    try {
      expect(await balance(second, KEYS.free)).toBe(10);
      expect(await balance(second, KEYS.vc)).toBe(100_000);
      const r = await callSandbox(second, 'my_account', { key: KEYS.free });
      expect(r.body.data).toMatchObject({ free_find_investors_runs_used: 0 });
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(LIMITS.rateLimitPerMinute - 2));
      expect((await callSandbox(second, 'search_startups', { key: KEYS.readonly })).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses a second sandbox on a state file in use, naming the file', async () => {
    const stateFile = join(dir, 'busy', 'state.sqlite');
    const first = await startPersisted(stateFile);
    try {
      await expect(startPersisted(stateFile)).rejects.toThrow(
        `sandbox state file ${stateFile}: it is in use by another sandbox`,
      );
    } finally {
      await first.close();
    }
  });
});

describe('state options and state files', () => {
  it('refuses bad options, naming the field', async () => {
    await expect(startTestSandbox({ state: 'disk' as 'persist' })).rejects.toThrow(
      'sandbox option state: must be one of: memory, persist, reset',
    );
    await expect(startTestSandbox({ state: 'memory', stateFile: join(dir, 'x.sqlite') })).rejects.toThrow(
      "sandbox option stateFile: is not used with state 'memory'",
    );
  });

  it('refuses a state file with a broken row, naming the file, the table and the key', async () => {
    const stateFile = join(dir, 'broken', 'state.sqlite');
    await (await startPersisted(stateFile)).close();
    const db = new DatabaseSync(stateFile);
    db.prepare("UPDATE accounts SET value = json_set(value, '$.plan', 'gold') WHERE key = 'acct_vc'").run();
    db.close();
    await expect(startPersisted(stateFile)).rejects.toThrow(
      `sandbox state file ${stateFile}: accounts 'acct_vc': plan: must be one of: free, paid`,
    );
  });
});

describe('the default state (memory)', () => {
  it('is fresh at every start and writes no state file', async () => {
    // A data folder of its own (the cached database copied in), to see that nothing else lands in it.
    const dataDir = join(dir, 'memory-data');
    const cached = sandboxDatabasePath({ asOf: SANDBOX_TEST_AS_OF });
    mkdirSync(dataDir);
    copyFileSync(cached, join(dataDir, basename(cached)));
    const options = { asOf: SANDBOX_TEST_AS_OF, dataDir };
    const a = await startTestSandbox(options);
    try {
      expect(a.stateFile).toBeNull();
      // A charged call (ask: no finder, so no scoring snapshot to build) and used windows.
      const asked = await callSandbox(a, 'ask', {
        key: KEYS.startup,
        params: { query: 'How many seed rounds in 2025?' },
      });
      expect(asked.body.credits).toEqual({ charged: 1, remaining: 99_999 });
      expect(await balance(a, KEYS.free)).toBe(10);
    } finally {
      await a.close();
    }
    const b = await startTestSandbox(options);
    try {
      expect(await balance(b, KEYS.startup)).toBe(100_000);
      expect(await balance(b, KEYS.free)).toBe(10);
      const r = await callSandbox(b, 'my_account', { key: KEYS.free });
      expect(r.headers.get('x-ratelimit-remaining')).toBe('58');
    } finally {
      await b.close();
    }
    expect(readdirSync(dataDir)).toEqual([basename(cached)]);
  });
});

/** Starts `sandbox/main.ts` as its own process; resolves with its URL once it listens. */
function startSandboxProcess(
  args: string[],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', sandboxMain, '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url && output.includes('Press Ctrl+C to stop.')) resolve({ child, url, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before listening:\n${output}`)));
  });
}

function killed(child: ChildProcess): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode);
    else child.once('exit', (_code, signal) => resolve(signal));
  });
}

describe('a sandbox process killed with SIGKILL', () => {
  it('comes back with the balances, free-plan runs and rate-limit windows of every answer it sent', async () => {
    const stateFile = join(dir, 'killed', 'state.sqlite');
    const args = ['--as-of', SANDBOX_TEST_AS_OF, '--state-file', stateFile, '--rate-per-minute', '50'];
    const first = await startSandboxProcess(args);
    let second: Awaited<ReturnType<typeof startSandboxProcess>> | undefined;
    try {
      expect(first.output()).toContain(`State:   ${stateFile}`);
      expect(
        (await callSandbox(first.url, 'find_investors', { key: KEYS.free, params: INVESTORS })).status,
      ).toBe(200);
      for (let i = 0; i < 3; i++) {
        const r = await callSandbox(first.url, 'ask', {
          key: KEYS.broke,
          params: { query: 'How many seed rounds were there in Germany in 2025?' },
        });
        expect(r.status).toBe(i < 2 ? 200 : 402);
      }
      const customers = await callSandbox(first.url, 'find_customers', {
        key: KEYS.provider,
        params: CUSTOMERS,
      });
      expect(customers.body.credits).toEqual({ charged: 3, remaining: 99_997 });
      const last = limits(await callSandbox(first.url, 'my_account', { key: KEYS.provider }));

      // No close, no flush: the process is gone the moment the last answer arrived.
      first.child.kill('SIGKILL');
      expect(await killed(first.child)).toBe('SIGKILL');

      second = await startSandboxProcess(args);
      expect(await balance(second.url, KEYS.free)).toBe(7);
      const free = await callSandbox(second.url, 'find_investors', { key: KEYS.free, params: INVESTORS });
      expect(free.status).toBe(402);
      expect(free.body.error?.code).toBe('upgrade_required');
      expect(await balance(second.url, KEYS.broke)).toBe(0);
      const repeat = await callSandbox(second.url, 'find_customers', {
        key: KEYS.provider,
        params: CUSTOMERS,
      });
      expect(repeat.body.credits).toEqual({ charged: 0, remaining: 99_997 });
      const after = limits(await callSandbox(second.url, 'my_account', { key: KEYS.provider }));
      expect(after).toEqual({ ...last, remaining: last.remaining - 2, remainingDay: last.remainingDay - 2 });
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
      if (second) {
        second.child.kill('SIGTERM');
        await killed(second.child);
      }
    }
  });
});
