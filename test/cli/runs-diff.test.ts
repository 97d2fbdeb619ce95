/**
 * `vir runs diff` on real runs: real workers on the embedded Temporal server against the sandbox
 * over HTTP, two runs of each job with the sandbox's data changed between them.
 * - A fund match, run before and after a simulated week of market news: the diff's records of
 *   find_startups_for_fund and its get_startup profiles must be what the two runs' stored
 *   answers, read straight from the store folder, say was added, removed and changed, and the
 *   week's news must be there (its new startups added, the acquired one removed, the one that
 *   raised at its stage changed, its profile's total raised moved by the round's amount).
 * - A smoke job paging 200 startups of Germany in two pages, before and after a startup with a
 *   formula for a name raises the most and another startup moves city: the pages are merged.
 * The workbook is read back (the same rows, no formula cell); refusals say why with their codes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { runVir } from '../../cli/entry.js';
import type { RunDiffReport } from '../../activities/run-diff.js';
import { parseFundMatchJob } from '../../jobs/fund-match/index.js';
import { parseSmokeJob } from '../../jobs/smoke/job.js';
import type { MarketWeek, RunningSandbox } from '../../sandbox/index.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { formulaLikeCells, openWorkbook, sheetRows } from '../helpers/reports.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;
let week: MarketWeek;
const fund: string[] = [];
const smoke: string[] = [];
/** The startup with a formula for a name, and the one that moved city, between the smoke runs. */
let formulaKey: string;
let movedKey: string;
const FORMULA_NAME = '=HYPERLINK("http://x","y")';

type AnyJob = Parameters<typeof startJobRun>[2];
async function runJob(job: AnyJob): Promise<string> {
  const result = await followRun<JobRunResult>(await startJobRun(h.client, h.settings, job), QUIET);
  expect(result.partial, result.reasons.join('; ')).toBe(false);
  return result.workflowId;
}

const fundJob = () =>
  parseFundMatchJob({
    id: 'diff-funds',
    kind: 'fund-match',
    title: 'Fund match diff',
    limit: 10,
    watchlist: 30,
    budget: { credits: 3 },
    destination: `${h.dir}/reports`,
  });
const smokeJob = () =>
  parseSmokeJob({ id: 'diff-smoke', title: 'Smoke diff', country: 'Germany', records: 200 });

interface Stored {
  operation: string;
  params: Record<string, unknown>;
  result: { data: Record<string, unknown> };
}
type Obj = Record<string, unknown>;

/** The stored answers of a run, read from its store folder without the code under test. */
function storedAnswers(workflowId: string): Stored[] {
  const folder = join(h.settings.storeDir, 'runs', workflowId);
  const out: Stored[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) {
        const doc = JSON.parse(readFileSync(path, 'utf8')) as Obj;
        if (['operation', 'params', 'fetchedAt', 'result'].every((k) => k in doc)) out.push(doc as never);
      }
    }
  };
  walk(folder);
  return out;
}

/** A value as compared: short text and numbers; prose (> 200 characters), nulls and empty lists dropped. */
function norm(v: unknown): unknown {
  if (typeof v === 'string') return v.length > 200 ? undefined : v;
  if (Array.isArray(v)) {
    if (v.length === 0) return undefined;
    if (v.every((x) => x === null || typeof x !== 'object')) {
      const s = v.map((x) => (x === null ? '' : String(x))).join(', ');
      return s.length > 200 ? undefined : s;
    }
    return v.map(norm);
  }
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, norm((v as Obj)[k])])
        .filter(([, x]) => x !== undefined),
    );
  return v ?? undefined;
}
const same = (x: unknown, y: unknown) => JSON.stringify(norm(x)) === JSON.stringify(norm(y));

/** Added, removed and changed keys of two maps of records, sorted. */
function expected(a: Map<string, unknown>, b: Map<string, unknown>) {
  return {
    added: [...b.keys()].filter((k) => !a.has(k)).sort(),
    removed: [...a.keys()].filter((k) => !b.has(k)).sort(),
    changed: [...a.keys()].filter((k) => b.has(k) && !same(a.get(k), b.get(k))).sort(),
  };
}

/** What the diff says for an operation, keys sorted. */
function said(report: RunDiffReport, operation: string) {
  const groups = report.operations.find((o) => o.operation === operation)?.groups ?? [];
  const keys = (pick: (g: (typeof groups)[number]) => { key: string }[]) =>
    groups
      .flatMap(pick)
      .map((r) => r.key)
      .sort();
  return { added: keys((g) => g.added), removed: keys((g) => g.removed), changed: keys((g) => g.changed) };
}

/** A search's records in a run: its pages merged in offset order. */
function mergedPages(workflowId: string, operation: string, list: string): Map<string, Obj> {
  const pages = storedAnswers(workflowId)
    .filter((s) => s.operation === operation)
    .sort((x, y) => Number(x.params.offset ?? 0) - Number(y.params.offset ?? 0));
  const out = new Map<string, Obj>();
  for (const p of pages)
    for (const r of p.result.data[list] as Obj[]) if (!out.has(r.key as string)) out.set(r.key as string, r);
  return out;
}
const profiles = (workflowId: string) =>
  new Map(
    storedAnswers(workflowId)
      .filter((s) => s.operation === 'get_startup')
      .map((s) => [s.params.key as string, s.result.data] as const),
  );

const cliEnv = (over: Record<string, string> = {}) => ({
  TEMPORAL_ADDRESS: h.settings.temporalAddress,
  VIR_STORE_DIR: h.settings.storeDir,
  VIR_LOG_LEVEL: 'silent',
  ...over,
});
async function vir(args: string[], env = cliEnv()) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVir(args, env, {
    out: (l) => out.push(...l.split('\n')),
    err: (l) => err.push(...l.split('\n')),
  });
  return { code, out, err };
}
async function diffJson(a: string, b: string, extra: string[] = []): Promise<RunDiffReport> {
  const r = await vir(['runs', 'diff', a, b, '--json', ...extra]);
  expect(r.code, r.err.join('\n')).toBe(0);
  return JSON.parse(r.out.join('\n')) as RunDiffReport;
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.vc, name: 'runs-diff' });
  fund.push(await runJob(fundJob()));
  smoke.push(await runJob(smokeJob()));
  week = sandbox.simulateMarketWeek({ limit: 10, seed: 3 });
  formulaKey = sandbox.insertStartup({ name: FORMULA_NAME, hq_country: 'Germany' }, [{ amount_usd: 9e10 }]);
  movedKey = [...mergedPages(smoke[0]!, 'search_startups', 'startups').keys()][150]!;
  sandbox.db.prepare("UPDATE startups SET hq_city = 'Potsdam' WHERE key = ?").run(movedKey);
  fund.push(await runJob(fundJob()));
  smoke.push(await runJob(smokeJob()));
}, 240_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe('vir runs diff', () => {
  test("a fund match's batch and profiles: what the stored answers and the week's news say", async () => {
    const [a, b] = fund as [string, string];
    const report = await diffJson(a, b);
    expect(report).toMatchObject({ jobId: 'diff-funds', a: { workflowId: a }, b: { workflowId: b } });
    expect(report.leftOut.my_account!.a).toBeGreaterThanOrEqual(1);

    const batch = (id: string) =>
      new Map(
        (
          storedAnswers(id).find((s) => s.operation === 'find_startups_for_fund')!.result.data
            .startups as Obj[]
        ).map((r) => [r.key as string, r] as const),
      );
    const records = expected(batch(a), batch(b));
    expect(said(report, 'find_startups_for_fund')).toEqual(records);
    for (const s of week.newStartups) expect(records.added).toContain(s.key);
    for (const s of [week.acquired, week.pastThesisStage]) if (s) expect(records.removed).toContain(s.key);
    const sameStage = week.sameStageRound!;
    const moved = report.operations
      .find((o) => o.operation === 'find_startups_for_fund')!
      .groups[0]!.changed.find((r) => r.key === sameStage.key)!;
    expect(moved.fields.map((f) => f.field)).toContain('fit_pct');

    expect(said(report, 'get_startup')).toEqual(expected(profiles(a), profiles(b)));
    const profile = report.operations
      .find((o) => o.operation === 'get_startup')!
      .groups.flatMap((g) => g.changed)
      .find((r) => r.key === sameStage.key)!;
    expect(profile.fields.find((f) => f.field === 'startup.total_raised_usd')?.change).toBe(
      sameStage.amountUsd,
    );

    // The text: both runs named, the counts per operation, the records by name and key.
    const text = await vir(['runs', 'diff', a, b]);
    expect(text.code).toBe(0);
    expect(text.out.slice(0, 3)).toEqual([
      'runs diff of job diff-funds',
      expect.stringMatching(new RegExp(`^  A  ${a}  started \\d{4}-.*Z  closed \\d{4}-.*Z$`)),
      expect.stringMatching(new RegExp(`^  B  ${b}  started `)),
    ]);
    expect(text.out).toContain(
      `find_startups_for_fund (1 search): added ${records.added.length}, removed ${records.removed.length}, changed ${records.changed.length}, unchanged ${10 - records.removed.length - records.changed.length}`,
    );
    expect(
      text.out.some((l) =>
        l.startsWith(`      + ${week.newStartups[0]!.name} (${week.newStartups[0]!.key})`),
      ),
    ).toBe(true);
  });

  test('a paged search merged across its pages; the workbook holds the same rows, no formula', async () => {
    const [a, b] = smoke as [string, string];
    const dir = await mkdtemp(join(tmpdir(), 'vir-diff-'));
    try {
      const path = join(dir, 'diff.xlsx');
      const report = await diffJson(a, b, ['--xlsx', path]);
      const pagesA = mergedPages(a, 'search_startups', 'startups');
      const pagesB = mergedPages(b, 'search_startups', 'startups');
      expect([pagesA.size, pagesB.size]).toEqual([200, 200]);
      const records = expected(pagesA, pagesB);
      expect(said(report, 'search_startups')).toEqual(records);
      expect(records.added).toEqual([formulaKey]);
      expect(records.removed).toEqual([[...pagesA.keys()].at(-1)]);
      expect(records.changed).toContain(movedKey);
      const search = report.operations.find((o) => o.operation === 'search_startups')!.groups;
      expect(search).toHaveLength(1);
      expect(search[0]).toMatchObject({ label: 'countries=Germany', answers: { a: 2, b: 2 } });
      expect(search[0]!.changed.find((r) => r.key === movedKey)!.fields).toContainEqual(
        expect.objectContaining({ field: 'hq_city', after: 'Potsdam' }),
      );

      const wb = await openWorkbook(path);
      expect(formulaLikeCells(wb)).toEqual([]);
      const added = sheetRows(wb, 'Added');
      const groups = report.operations.flatMap((o) => o.groups);
      expect(added.map((r) => `${r['Operation']} ${r['Key']}`).sort()).toEqual(
        groups.flatMap((g) => g.added.map((x) => `${g.operation} ${x.key}`)).sort(),
      );
      expect(added.find((r) => r['Key'] === formulaKey)!['Name']).toBe(`'${FORMULA_NAME}`);
      expect(sheetRows(wb, 'Removed')).toHaveLength(groups.reduce((n, g) => n + g.removed.length, 0));
      const changed = sheetRows(wb, 'Changed');
      expect(changed.map((r) => `${r['Key']} ${r['Field']}`)).toEqual(
        groups
          .filter((g) => g.kind === 'records')
          .flatMap((g) => g.changed.flatMap((x) => x.fields.map((f) => `${x.key} ${f.field}`))),
      );
      expect(changed.find((r) => r['Key'] === movedKey && r['Field'] === 'hq_city')!['After']).toBe(
        'Potsdam',
      );
      const figures = sheetRows(wb, 'Figures');
      expect(figures.length).toBe(
        groups.reduce(
          (n, g) => n + (g.kind === 'records' ? g.figures.length : (g.changed[0]?.fields.length ?? 0)),
          0,
        ),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('refuses an unknown run, a run not completed, runs of two jobs and a run with no answers', async () => {
    const [a, b] = fund as [string, string];
    const unknown = await vir(['runs', 'diff', a, `${b}-missing`]);
    expect([unknown.code, unknown.err]).toEqual([
      1,
      [`vir: no run ${b}-missing (vir runs list shows the runs)`],
    ]);

    const running = `fund-match-diff-funds-running-${Date.now()}`;
    await h.client.workflow.start('fundMatchWorkflow', {
      taskQueue: `nobody-${running}`,
      workflowId: running,
      args: [{ job: fundJob(), trigger: 'manual' }],
      memo: { jobId: 'diff-funds', trigger: 'manual' },
    });
    try {
      const r = await vir(['runs', 'diff', running, b]);
      expect([r.code, r.err]).toEqual([
        1,
        [`vir: run ${running} is running: only a completed run's answers can be compared`],
      ]);
    } finally {
      await h.client.workflow.getHandle(running).terminate('test cleanup');
    }

    const other = await vir(['runs', 'diff', a, smoke[1]!]);
    expect([other.code, other.err]).toEqual([
      2,
      [
        `vir: ${a} is a run of job diff-funds and ${smoke[1]} of job diff-smoke: only two runs of the same job can be compared`,
      ],
    ]);

    const empty = await mkdtemp(join(tmpdir(), 'vir-empty-store-'));
    try {
      const none = await vir(['runs', 'diff', a, b], cliEnv({ VIR_STORE_DIR: empty }));
      expect([none.code, none.err]).toEqual([
        1,
        [`vir: run ${a} has no stored answers: the store holds none under ${join(empty, 'runs', a)}`],
      ]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
