/**
 * Contract fuzzing: schemathesis (pinned in scripts/install-python-tools.sh) runs every check
 * (`--checks all`) against a running sandbox from its own /openapi.json, with a fixed seed and a
 * bounded number of examples, once per key: the VC key (investor account, every finder) and the
 * provider key (service provider: find_customers, 403 on the VC-only finders). Zero failures.
 *
 * test/sandbox/schemathesis.toml adds, for two operations only, the statuses they answer to
 * input no schema can rule out (find_investors: free text that names no market, 400;
 * analyze_deck: a link that serves no deck, 422). No check is excluded.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SCHEMATHESIS = join(ROOT, '.tools/venv/bin/schemathesis');
const CONFIG = join(ROOT, 'test/sandbox/schemathesis.toml');
/** Examples per operation and phase. */
const MAX_EXAMPLES = 20;
const SEED = 1;

function runSchemathesis(
  url: string,
  key: string,
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  const args = [
    '--config-file',
    CONFIG,
    'run',
    `${url}/openapi.json`,
    '--checks',
    'all',
    '--seed',
    String(SEED),
    '--max-examples',
    String(MAX_EXAMPLES),
    '--header',
    `Authorization: Bearer ${key}`,
    '--no-color',
  ];
  return new Promise((done, fail) => {
    const child = spawn(SCHEMATHESIS, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

describe('contract fuzzing with schemathesis', () => {
  let sandbox: RunningSandbox;
  let cwd: string;

  beforeAll(async () => {
    if (!existsSync(SCHEMATHESIS))
      throw new Error(
        `${SCHEMATHESIS} is missing: run bash scripts/install-python-tools.sh (npm test runs it)`,
      );
    // No rate limit in the way, and the seeded accounts' 100,000 credits each outlast the run.
    sandbox = await startTestSandbox({ rateLimitPerMinute: 1_000_000, rateLimitPerDay: 100_000_000 });
    cwd = mkdtempSync(join(tmpdir(), 'vis-fuzz-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  // The two keys run side by side (about 70 s together on 2 cores).
  it.concurrent.each([
    ['vc', KEYS.vc],
    ['provider', KEYS.provider],
  ])(
    'finds no failure with the %s key',
    async (_name, key) => {
      const { code, output } = await runSchemathesis(sandbox.url, key, cwd);
      if (code !== 0) console.log(output);
      expect(code, output.slice(-4000)).toBe(0);
    },
    240_000,
  );
});
