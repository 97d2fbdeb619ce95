/**
 * The sandbox option `scale`: a larger generated data set (scale times the startups and
 * investors of scale 1) over real HTTP. Scale 2 stands for the larger scales (it builds in a
 * few seconds); its build goes to a temp folder, never the shared cache, and gives the pinned
 * hash of scale 2 (so a build on any machine and day is the same data). Scale 1 keeps its data
 * and its cache file name.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_MAX_SCALE, sandboxScaleOption } from '../../cli/options.js';
import { normaliseDomain } from '../../jobs/prospect-list/suppression.js';
import {
  DATASET_SIZE,
  GENERATOR_VERSION,
  MAX_DATASET_SCALE,
  SANDBOX_TEST_AS_OF,
  datasetHash,
  sandboxDatabasePath,
} from '../../sandbox/data/index.js';
import { validateSandboxOptions, type RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';

const AS_OF = SANDBOX_TEST_AS_OF;

/**
 * The dataset hash of seed 42 at scale 1 as of SANDBOX_TEST_AS_OF: the data the frozen fixtures
 * were recorded on. Change it only with a deliberate change of the generator (GENERATOR_VERSION).
 */
const SCALE_1_HASH = '4c50f1f635018efb27bef380b4a2fb722e746ac152a715c1e42577147bb33f62';

/** The same of scale 2: a fresh build must give it (determinism without a second build). */
const SCALE_2_HASH = 'e499c3a77c5464aef9bdaaaf0f4e1b62e6e2c76ba36e7167dcc1e1b94b3731d9';

interface Health {
  database: { hash: string; seed: number; asOf: string; scale: number };
}

async function health(sandbox: RunningSandbox): Promise<Health> {
  return (await (await fetch(`${sandbox.url}/health`)).json()) as Health;
}

async function total(sandbox: RunningSandbox, operation: 'search_startups' | 'search_investors') {
  const r = await callSandbox(sandbox, operation, { key: KEYS.startup, params: { limit: 1 } });
  expect(r.status).toBe(200);
  return (r.body.data as { total: number }).total;
}

describe('option validation', () => {
  it('names the field of a bad scale', async () => {
    expect(() => validateSandboxOptions({ scale: 0 })).toThrow('sandbox option scale: must be at least 1');
    expect(() => validateSandboxOptions({ scale: 1.5 })).toThrow('sandbox option scale: must be an integer');
    expect(() => validateSandboxOptions({ scale: MAX_DATASET_SCALE + 1 })).toThrow(
      `sandbox option scale: must be at most ${MAX_DATASET_SCALE}`,
    );
    expect(() => validateSandboxOptions({ scale: MAX_DATASET_SCALE })).not.toThrow();
    await expect(startTestSandbox({ scale: -1 })).rejects.toThrow('sandbox option scale: must be at least 1');
  });

  it('refuses a bad --sandbox-scale in vir dev, with the same bound as the sandbox', () => {
    expect(SANDBOX_MAX_SCALE).toBe(MAX_DATASET_SCALE);
    expect(sandboxScaleOption('5')).toBe(5);
    for (const bad of ['0', '-2', '1.5', 'five', String(MAX_DATASET_SCALE + 1)])
      expect(() => sandboxScaleOption(bad)).toThrow(/positive integer|at most/);
  });
});

describe('scale 1', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ asOf: AS_OF });
  });
  afterAll(() => sandbox?.close());

  it('keeps its data and its cache file name', async () => {
    const { database } = await health(sandbox);
    expect(database).toMatchObject({ seed: 42, asOf: AS_OF, scale: 1 });
    expect(database.hash).toBe(SCALE_1_HASH);
    expect(basename(sandboxDatabasePath({ asOf: AS_OF }))).toBe(
      `vis-seed42-${AS_OF}-g${GENERATOR_VERSION}.sqlite`,
    );
    expect(sandbox.db.prepare("SELECT value FROM meta WHERE key = 'scale'").get()).toBeUndefined();
    expect(await total(sandbox, 'search_startups')).toBe(DATASET_SIZE.startups);
    expect(await total(sandbox, 'search_investors')).toBe(DATASET_SIZE.investors);
  });
});

describe('scale 2', () => {
  const dirs: string[] = [];
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    dirs.push(mkdtempSync(join(tmpdir(), 'vis-scale-')));
    const started = performance.now();
    sandbox = await startTestSandbox({ asOf: AS_OF, scale: 2, dataDir: dirs[0] });
    console.log(`[sandbox-scale] scale 2 built and started in ${Math.round(performance.now() - started)} ms`);
  });
  afterAll(async () => {
    await sandbox?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('has twice the startups and investors of scale 1, in a cache file of its own', async () => {
    expect(await total(sandbox, 'search_startups')).toBe(2 * DATASET_SIZE.startups);
    expect(await total(sandbox, 'search_investors')).toBe(2 * DATASET_SIZE.investors);
    const { database } = await health(sandbox);
    expect(database).toMatchObject({ seed: 42, asOf: AS_OF, scale: 2 });
    const file = sandboxDatabasePath({ asOf: AS_OF, scale: 2, dataDir: dirs[0] });
    expect(basename(file)).toBe(`vis-seed42-${AS_OF}-scale2-g${GENERATOR_VERSION}.sqlite`);
    expect(existsSync(file)).toBe(true);
    expect(sandbox.db.prepare("SELECT value FROM meta WHERE key = 'scale'").get()).toEqual({ value: '2' });
  });

  it('is deterministic: the fresh build has the pinned hash of its records, scale 1 another', async () => {
    const { database } = await health(sandbox);
    expect(database.hash).toBe(datasetHash(sandbox.db));
    expect(database.hash).toBe(SCALE_2_HASH);
    expect(SCALE_2_HASH).not.toBe(SCALE_1_HASH);
  });

  it('gives every startup its own website domain, key and name', () => {
    const rows = sandbox.db.prepare('SELECT key, name, website, domain FROM startups').all() as {
      key: string;
      name: string;
      website: string;
      domain: string;
    }[];
    expect(rows).toHaveLength(2 * DATASET_SIZE.startups);
    const domains = new Set(rows.map((r) => normaliseDomain(r.website)));
    expect(domains.has(null)).toBe(false);
    expect(domains.size).toBe(rows.length);
    expect(rows.every((r) => normaliseDomain(r.website) === r.domain)).toBe(true);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.name.toLowerCase())).size).toBe(rows.length);
  });

  it('pages to the end over HTTP', async () => {
    const last = 2 * DATASET_SIZE.startups - 100;
    const r = await callSandbox(sandbox, 'search_startups', {
      key: KEYS.startup,
      params: { limit: 100, offset: last },
    });
    expect(r.status).toBe(200);
    const data = r.body.data as { startups: unknown[]; next_offset: number | null; offset: number };
    expect(data.startups).toHaveLength(100);
    expect(data.offset).toBe(last);
    expect(data.next_offset).toBeNull();
  });
});
