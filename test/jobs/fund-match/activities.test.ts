/**
 * The fund match's activities on the sandbox's real answers over HTTP, run after run: the
 * baseline, then a matched startup acquired and another raising a series B (past the thesis):
 * both dropped with their reasons, watchlist events for both, the next best startups new, the
 * others still matched with their fit and rank changes. Each record names the answers it came
 * from; the digest made again as the code before sources stored it still renders.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { snapshotRefOf } from '../../../activities/run.js';
import { LocalStore } from '../../../activities/store.js';
import type { FundDigest } from '../../../jobs/fund-match/digest.js';
import { createFundMatchActivities } from '../../../jobs/fund-match/activities.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { openWorkbook, pdfText } from '../../helpers/reports.js';
import {
  dataSheetRows,
  expectSourcesFromStore,
  sourcesSheetNote,
  sourcesSheetRows,
  withoutSources,
} from '../../helpers/report-sources.js';
import { noSourcesNote, SOURCE_COLUMN } from '../../../reports/sources.js';

let sandbox: RunningSandbox;
const dir = mkdtempSync(join(tmpdir(), 'vir-fund-'));
const store = new LocalStore(join(dir, 'store'));
const acts = createFundMatchActivities({ store, reportsDir: join(dir, 'reports') });
const job = { id: 'weekly-matches', title: 'Weekly matches', watchlist: 50, enrichNew: 30 };

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Calls the sandbox and stores the answer as the API activity does. */
async function stored(runKey: string, name: string, operation: string, params: Record<string, unknown>) {
  const r = await callSandbox(sandbox, operation, { key: KEYS.vc, params });
  expect(r.status, `${operation} ${JSON.stringify(params)}`).toBe(200);
  return store.putJson(runKey, name, {
    operation,
    params,
    fetchedAt: new Date().toISOString(),
    result: r.body,
  });
}

/** One run as the workflow makes it: the batch, the profiles, the digest; the history committed. */
async function run(n: number, date: string) {
  const runKey = `fund-run-${n}`;
  const batchRef = await stored(runKey, 'batch', 'find_startups_for_fund', { limit: 10 });
  const plan = await acts.planFundProfiles({ job, batchRef });
  const profiles = [];
  for (const [i, key] of plan.keys.entries()) {
    profiles.push({ key, ref: await stored(runKey, `profiles/startup-${i}`, 'get_startup', { key }) });
  }
  const built = await acts.buildFundDigest({ runKey, job, date, workflowId: runKey, batchRef, profiles });
  await store.putJsonAt(snapshotRefOf(job.id), await store.getJson(built.snapshotRef));
  return { built, plan, digest: await store.getJson<FundDigest>(built.digestRef) };
}

test('a baseline, then dropped with their reasons, watchlist events, new and still matched', async () => {
  const first = await run(1, '2026-11-16');
  expect(first.plan).toEqual({ keys: first.digest.newMatches.map((m) => m.key), batch: 10 });
  expect(first.built).toMatchObject({
    baseline: true,
    quiet: false,
    counts: { batch: 10, new: 0, dropped: 0 },
  });
  expect(first.digest.newMatches.every((m) => m.founders.length > 0)).toBe(true);

  // The best match is acquired; the second raises a series B today, past the thesis (seed, series A).
  const [acquired, raised] = first.digest.newMatches;
  sandbox.db.prepare("UPDATE startups SET status = 'acquired' WHERE key = ?").run(acquired!.key);
  const today = new Date().toISOString().slice(0, 10);
  sandbox.db
    .prepare(
      'INSERT INTO rounds (startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, NULL)',
    )
    .run(raised!.key, today, Number(today.slice(0, 4)), 'series-b', 25_000_000);
  sandbox.db.prepare("UPDATE startups SET stage = 'series-b' WHERE key = ?").run(raised!.key);

  const second = await run(2, '2026-11-23');
  // The watchlist read the two that left the batch.
  expect(second.plan.keys).toEqual(expect.arrayContaining([acquired!.key, raised!.key]));
  const d = second.digest;
  expect(d.baseline).toBe(false);
  expect(d.dropped.map((x) => [x.key, x.reason])).toEqual(
    expect.arrayContaining([
      [acquired!.key, 'status'],
      [raised!.key, 'stage'],
    ]),
  );
  expect(d.dropped.find((x) => x.key === acquired!.key)!.detail).toBe('acquired (was active)');
  expect(d.events.filter((e) => e.key === raised!.key).map((e) => e.kind)).toEqual(['round', 'stage']);
  expect(d.events.find((e) => e.key === acquired!.key)!.kind).toBe('status');
  expect(d.counts.new).toBe(d.newMatches.length);
  expect(d.counts.new).toBeGreaterThanOrEqual(2);
  expect(d.counts.still + d.counts.new).toBe(10);
  expect(d.still.every((s) => typeof s.rankChange === 'number')).toBe(true);
  expect(d.history.find((h) => h.key === acquired!.key)).toMatchObject({
    inBatch: false,
    status: 'acquired',
  });
  expect(d.history.filter((h) => h.inBatch)).toHaveLength(10);

  // The sources: the batch S1, then each profile in the order asked; each record names its own.
  const profileRefs = second.plan.keys.map((_, i) => `runs/fund-run-2/profiles/startup-${i}.json`);
  expect(d.sources!.map((s) => s.ref)).toEqual(['runs/fund-run-2/batch.json', ...profileRefs]);
  expect(d.sources!.map((s) => s.id)).toEqual(d.sources!.map((_, i) => `S${i + 1}`));
  const idOf = new Map(second.plan.keys.map((key, i) => [key, `S${i + 2}`]));
  expect(d.batch.every((b) => b.source === 'S1')).toBe(true);
  for (const x of [...d.dropped, ...d.events]) expect(x.source, x.key).toBe(idOf.get(x.key));
  for (const m of d.newMatches) expect(m.sources).toEqual(['S1', idOf.get(m.key)]);

  // Rendered: the Sources sheet is what the run stored.
  const render = async (digestRef: string, name: string) =>
    acts.renderFundDigest({
      digestRef,
      job: {
        id: job.id,
        destination: join(dir, 'reports', name),
        outputs: ['pdf', 'xlsx'],
        digestWhenQuiet: true,
      },
      date: '2026-11-23',
      workflowId: name,
    });
  const now = await render(second.built.digestRef, 'now');
  expectSourcesFromStore(await openWorkbook(now.files.xlsx!), {
    storeDir: join(dir, 'store'),
    runKey: 'fund-run-2',
    operations: ['find_startups_for_fund', 'get_startup'],
  });

  // The digest as the code before sources stored it: rendered all the same, saying why it lists none.
  const oldRef = await store.putJson('fund-run-2-old', 'digest/model', withoutSources(d));
  const old = await render(oldRef, 'old');
  const wb = await openWorkbook(old.files.xlsx!);
  expect(sourcesSheetRows(wb)).toEqual([]);
  expect(sourcesSheetNote(wb)).toBe(noSourcesNote('fund-run-2-old'));
  for (const sheet of ['Batch', 'Dropped'])
    expect(dataSheetRows(wb, sheet).every((r) => r[SOURCE_COLUMN] === '')).toBe(true);
  const text = pdfText(old.files.pdf!).replace(/\s+/g, ' ');
  expect(text).not.toContain('Source:');
  expect(text).toContain('This run was made before its report recorded its sources');
}, 60_000);
