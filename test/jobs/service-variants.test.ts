/**
 * The runner works against services that read the spec otherwise. Every job kind's example
 * job runs through each variant of test/helpers/service-variants.ts (a proxy in front of the
 * sandbox changes the answers: names, totals, charts, account fields, sections, unknown
 * fields, numbers as strings, reset formats) to a complete report, and its figures equal
 * those of the same job run against the plain sandbox, except what the variant removed,
 * which the report names as "not provided by the service".
 */
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VisClient } from '../../api/client.js';
import { readAccount } from '../../api/read-account.js';
import { snapshotRefOf } from '../../activities/run.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseJob } from '../../jobs/files.js';
import type { MarketReportModel } from '../../jobs/market-report/report/model.js';
import { JOB_KINDS, DEMO_JOB, type AnyJob } from '../../jobs/registry.js';
import { normalizeChart } from '../../reports/charts/index.js';
import type { ChartSpec } from '../../api/envelope.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startCountingProxy, type CountingProxy, type ProxiedAnswer } from '../helpers/counting-proxy.js';
import { maskClock, maskVolatile, reportDigest, type ReportDigest } from '../helpers/report-digest.js';
import { startFixedDateSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { SERVICE_VARIANTS, variantTransform, type ServiceVariant } from '../helpers/service-variants.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

let sandbox: RunningSandbox;
let proxy: CountingProxy;
let h: RunnerHarness;
/** find_customers is for service providers: the prospect list runs with the provider's key. */
let provider: RunnerHarness;
/** find_investors is for startups: the investor shortlist runs with the startup account's key. */
let startupRunner: RunnerHarness;

beforeAll(async () => {
  sandbox = await startFixedDateSandbox();
  proxy = await startCountingProxy(sandbox.url);
  h = await startRunner({ baseUrl: proxy.url, apiKey: KEY, name: 'variants' });
  provider = await startRunner({ baseUrl: proxy.url, apiKey: PROVIDER_KEY, name: 'variants-provider' });
  startupRunner = await startRunner({ baseUrl: proxy.url, apiKey: STARTUP_KEY, name: 'variants-startup' });
});

afterAll(async () => {
  await h?.close();
  await provider?.close();
  await startupRunner?.close();
  await proxy?.close();
  await sandbox?.close();
});

interface Manifest {
  status: string;
  notProvided: string[];
  startedAt: string;
  charts: number;
  calls: { total: number; byOperation: Record<string, number> };
}

/** What a run of a kind gave, reduced to what must not depend on how the service reads the spec. */
interface Outcome {
  manifest: Manifest;
  /** The kind's figures (the report model, the summary), masked for run ids and times. */
  figures: Record<string, unknown>;
  /** What a person reads (PDF text and workbook cells), when the kind writes a report. */
  digest: ReportDigest | null;
}

/**
 * Each kind's example job at a smaller size, as the variants run it: its demo when it has one,
 * read from the file, its lists shortened (one country, fewer records, enrichments and pages, but
 * still more than one page where the service pages) and its files only those the comparison
 * reads (the market report's PDF and workbook are what it proves; the other kinds' figures are
 * their models, so one cheap file each). Every field a variant changes is still read.
 */
async function exampleJob(kind: (typeof JOB_KINDS)[number]): Promise<AnyJob> {
  const file = resolve(
    root,
    kind.kind === 'market-report'
      ? DEMO_JOB.file
      : (kind.examples.find((f) => f.endsWith('/demo.yaml')) ?? kind.examples[0]!),
  );
  const doc = parseYaml(readFileSync(file, 'utf8')) as { jobs: Record<string, unknown>[] };
  const raw = structuredClone(doc.jobs.find((j) => j.kind === kind.kind)!);
  const SMALLER: Record<string, (j: Record<string, unknown>) => void> = {
    'market-report': (j) => {
      j.countries = ['Germany'];
      j.top = { investors: 5, startups: 5 };
      // Two pages a stream: the paging variant's next offset is read.
      j.paging = { maxInvestorsPerCountry: 200, maxStartupsPerCountry: 200 };
      j.enrich = { investors: 1, startups: 1 };
      j.questions = (j.questions as string[]).slice(0, 2);
    },
    'fund-match': (j) => {
      j.limit = 6;
      j.enrichNew = 3;
      j.outputs = ['xlsx'];
    },
    'prospect-list': (j) => {
      const [brief] = j.briefs as Record<string, unknown>[];
      j.briefs = [{ ...brief, limit: 10 }];
      j.searches = (j.searches as Record<string, unknown>[]).map((x) => ({ ...x, cap: 150 }));
      // The summary's top rows are the enriched ones (their last round from get_startup).
      j.outputs = ['csv'];
      // The prospect demo keeps companies that raised within 12 months: a rule on the very field
      // one variant removes (the last round date), so that variant would list other companies by
      // design (the rule cannot judge; see list.test.ts). The companies must be the same here:
      // the example runs without the rule, which worth-calling.test.ts proves against the sandbox.
      delete j.raisedWithin;
    },
    'investor-shortlist': (j) => {
      j.companies = (j.companies as Record<string, unknown>[]).map((c) => ({ ...c, limit: 8 }));
      j.enrich = 2;
      j.outputs = ['xlsx'];
    },
  };
  SMALLER[kind.kind]?.(raw);
  return parseJob(raw, file);
}

/** A plain run of a kind's smaller example job, loaded machine (about 15 s alone). */
const PLAIN_RUN_MS = 120_000;
/** One run through a variant, and its comparison (about 10 s alone). */
const VARIANT_RUN_MS = 120_000;

function copyAnswer(a: ProxiedAnswer): ProxiedAnswer {
  return { ...a, headers: structuredClone(a.headers), body: Buffer.from(a.body) };
}

/** How many of the answers the variant changes (status, headers or body). */
function changedAnswers(v: ServiceVariant, answers: readonly ProxiedAnswer[]): number {
  const transform = variantTransform(v);
  let changed = 0;
  for (const a of answers) {
    const out = transform(copyAnswer(a)) as ProxiedAnswer;
    const same =
      out.status === a.status &&
      out.body.equals(a.body) &&
      JSON.stringify(out.headers) === JSON.stringify(a.headers);
    if (!same) changed += 1;
  }
  return changed;
}

/** The account's balance before every run, so that runs that spend the same end the same. */
const BALANCE = 50_000;
const KEY = 'vis_live_sandbox_vc';
const PROVIDER_KEY = 'vis_live_sandbox_provider';
const STARTUP_KEY = 'vis_live_sandbox_startup';

function account(key = KEY) {
  const id = sandbox.state.keys.get(key)!.account_id;
  return sandbox.state.accounts.get(id)!;
}

async function runThrough(job: AnyJob, label: string): Promise<Outcome> {
  const runner =
    job.kind === 'prospect-list' ? provider : job.kind === 'investor-shortlist' ? startupRunner : h;
  // Every run is a first run: the comparison with an earlier run is another test's business.
  rmSync(join(runner.dir, 'store', snapshotRefOf(job.id)), { force: true });
  account(runner.settings.visApiKey).credits = BALANCE;
  const run = { ...job, destination: join(runner.dir, 'reports', label) } as AnyJob;
  const result = await followRun(await startJobRun(runner.client, runner.settings, run), QUIET);
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as Manifest;
  const mask = (v: unknown) =>
    JSON.parse(
      maskClock(maskVolatile(JSON.stringify(v), result.workflowId, manifest.startedAt.slice(0, 10))),
    ) as Record<string, unknown>;
  if (job.kind === 'market-report') {
    const model = JSON.parse(
      readFileSync(join(h.dir, 'store', 'runs', result.workflowId, 'report', 'model.json'), 'utf8'),
    ) as MarketReportModel;
    // The balance the report gives is the account's, as the service saw it after the run.
    expect(model.stats.creditsRemaining).toBe(account().credits);
    expect(model.stats.creditsRemaining).toBe(BALANCE - model.stats.creditsSpent);
    const { generatedAt: _g, ...rest } = model;
    const { durationMs: _d, ...stats } = rest.stats;
    const digest = await reportDigest(result.files, {
      workflowId: result.workflowId,
      runDate: manifest.startedAt.slice(0, 10),
    });
    return { manifest, figures: mask({ ...rest, stats }), digest };
  }
  // The fund match's digest and the shortlist's report: the models their files are drawn from.
  const model = { 'fund-match': 'digest/model.json', 'investor-shortlist': 'shortlist/report.json' }[
    job.kind as string
  ];
  if (model) {
    const figures = JSON.parse(
      readFileSync(join(runner.dir, 'store', 'runs', result.workflowId, ...model.split('/')), 'utf8'),
    ) as Record<string, unknown>;
    return { manifest, figures: mask(figures), digest: null };
  }
  if (job.kind === 'prospect-list') {
    const { stats: _s, ...summary } = JSON.parse(
      readFileSync(join(runner.dir, 'store', 'runs', result.workflowId, 'list', 'summary.json'), 'utf8'),
    ) as Record<string, unknown>;
    const rows: Record<string, string>[] = parse(readFileSync(result.files['csv-generic']!), {
      bom: true,
      columns: true,
    });
    // The list itself: the same companies in the same order, and every cell.
    const list = rows.map((r) => [r.service_key, r.name, r.domain]);
    return { manifest, figures: mask({ ...summary, list, rows }), digest: null };
  }
  const summary = JSON.parse(readFileSync(Object.values(result.files)[0]!, 'utf8')) as Record<
    string,
    unknown
  >;
  return { manifest, figures: mask(summary), digest: null };
}

/** What a chart draws: its categories and values per series (not its names, type or title). */
function drawn(spec: ChartSpec) {
  const n = normalizeChart(spec);
  return { x: n.xKey, series: n.series.map((s) => s.key), rows: n.rows };
}

type Figures = Record<string, unknown>;

/**
 * The plain run's figures as the variant must give them: what the variant removed emptied and
 * named, the notes a variant adds to the method section accepted.
 */
function expectedMarketFigures(plain: Figures, v: ServiceVariant): Figures {
  const m = structuredClone(plain) as unknown as MarketReportModel;
  for (const c of m.countries) {
    const gone = new Set(v.removes);
    if (gone.has('stage mix')) c.stage_mix = [];
    if (gone.has('top sectors')) c.top_sectors = [];
    for (const s of c.notable_startups) {
      if (gone.has('startup last round date')) s.last_round_date = null;
      if (gone.has('startup last round amount')) s.last_round_amount_usd = null;
    }
    if (v.removes.length > 0) c.not_provided = [...v.removes];
  }
  return m as unknown as Figures;
}

/** Method notes a variant may add (or word otherwise), per what it changed. */
function acceptedNotes(plainSources: string[], v: ServiceVariant, countries: string[]): string[] {
  let sources = [...plainSources];
  if (v.noTotals)
    sources = sources.map((s) => s.replace(/(startup list capped at \d+) of \d+/, '$1 of more'));
  for (const c of countries) {
    for (const what of v.removes) sources.push(`${c}: ${what} not provided by the service`);
    if (v.noTotals)
      sources.push(`${c}: the startup search gave no total, so it was paged until a short page`);
    if (v.chartsChanged)
      sources.push(
        `${c}: the "Deal flow by weekday" chart of the country overview had no data the report could draw and was left out`,
      );
  }
  return sources;
}

function compareMarket(plain: Outcome, got: Outcome, v: ServiceVariant): void {
  const want = expectedMarketFigures(plain.figures, v) as unknown as MarketReportModel;
  const have = structuredClone(got.figures) as unknown as MarketReportModel;
  const countries = want.countries.map((c) => c.country);
  expect(new Set(have.stats.sources)).toEqual(new Set(acceptedNotes(want.stats.sources, v, countries)));
  have.stats.sources = want.stats.sources;
  if (v.chartsChanged) {
    // The same figures drawn, whatever shape the service gave its charts.
    const charts = (m: MarketReportModel) => [
      ...m.countries.map((c) => c.charts.map(drawn)),
      ...m.answers.map((a) => (a.charts ?? []).map(drawn)),
    ];
    expect(charts(have)).toEqual(charts(want));
    for (const m of [have, want]) {
      m.countries.forEach((c) => (c.charts = []));
      m.answers.forEach((a) => (a.charts = []));
    }
  }
  expect(have).toEqual(want);
  if (v.removes.length === 0 && !v.noTotals && !v.chartsChanged) {
    // Nothing removed: the report a person reads is the same, cell by cell and line by line.
    expect(got.digest!.workbook.map(maskClock)).toEqual(plain.digest!.workbook.map(maskClock));
    expect(got.digest!.pdf.map(maskClock)).toEqual(plain.digest!.pdf.map(maskClock));
  }
  if (v.removes.length > 0) {
    const text = got.digest!.pdf.join(' ');
    expect(text).toContain('Not provided by the service:');
    for (const what of v.removes) expect(text).toContain(what);
  }
}

function compareSmoke(plain: Outcome, got: Outcome, v: ServiceVariant): void {
  const want = structuredClone(plain.figures);
  if (v.noTotals) {
    want.total = null;
    want.notProvided = ['total of the search (paged until a short page)'];
  }
  expect(got.figures).toEqual(want);
}

/**
 * A prospect list's figures as the variant must give them: the same companies in the same order
 * with the same counts, sources and charts; a search without totals says none; the search
 * records' last round removed is named, and only those cells differ. What a brief cost is left
 * out (the plain run pays, the repeats within 24 hours are free).
 */
function compareProspects(plain: Outcome, got: Outcome, v: ServiceVariant): void {
  type Summary = {
    briefs: { charged: number }[];
    searches: { total: number | null }[];
    limits: string[];
    notProvided: string[];
    rows?: unknown;
    top: { lastRoundDate?: unknown; lastRoundAmountUsd?: unknown }[];
  };
  const want = structuredClone(plain.figures) as unknown as Summary;
  const have = structuredClone(got.figures) as unknown as Summary;
  for (const s of [want, have]) s.briefs.forEach((b) => (b.charged = 0));
  if (v.noTotals) {
    want.searches.forEach((s) => (s.total = null));
    want.limits = want.limits.map((l) => l.replace(/ of \d+ matching startups/, ''));
  }
  if (v.removes.some((r) => r.startsWith('startup last round'))) {
    want.notProvided = ['search_startups: last_round_date', 'search_startups: last_round_amount_usd'];
    // The rows' last round cells of the searched companies are what the variant removed: in the
    // CSV rows and in the summary's first rows alike (the enriched ones get theirs from get_startup).
    delete want.rows;
    delete have.rows;
    for (const s of [want, have])
      for (const row of s.top) {
        delete row.lastRoundDate;
        delete row.lastRoundAmountUsd;
      }
  }
  expect(have).toEqual(want);
}

/** The fund match's digest is the same whatever the variant (it reads no section a variant removes). */
function compareFundMatch(plain: Outcome, got: Outcome): void {
  expect(got.figures).toEqual(plain.figures);
}

/**
 * The shortlist's report is the same whatever the variant, its sections' charts aside: they are
 * the service's own, kept as it gave them (their drawing is the charts variant's business).
 */
function compareShortlist(plain: Outcome, got: Outcome): void {
  const strip = (f: Figures) => {
    const r = structuredClone(f) as { companies: { charts: unknown[] }[] };
    r.companies.forEach((c) => (c.charts = []));
    return r;
  };
  expect(strip(got.figures)).toEqual(strip(plain.figures));
}

const COMPARE: Record<string, (plain: Outcome, got: Outcome, v: ServiceVariant) => void> = {
  'fund-match': compareFundMatch,
  'investor-shortlist': compareShortlist,
  'market-report': compareMarket,
  'prospect-list': compareProspects,
  smoke: compareSmoke,
};

test('every job kind has a comparison under the service variants', () => {
  expect(Object.keys(COMPARE).sort()).toEqual(JOB_KINDS.map((k) => k.kind).sort());
});

for (const kind of JOB_KINDS) {
  describe(`${kind.kind} through services that read the spec otherwise`, () => {
    let job: AnyJob;
    let plain: Outcome;
    /** Every answer the plain run got, as the proxy passed it on. */
    const answers: ProxiedAnswer[] = [];

    beforeAll(async () => {
      job = await exampleJob(kind);
      proxy.setTransform((a) => (answers.push(copyAnswer(a)), a));
      try {
        plain = await runThrough(job, `${kind.kind}-plain`);
      } finally {
        proxy.setTransform(null);
      }
      expect(plain.manifest.status).toBe('complete');
      expect(plain.manifest.notProvided).toEqual([]);
      expect(answers.length).toBe(plain.manifest.calls.total);
    }, PLAIN_RUN_MS);

    for (const v of SERVICE_VARIANTS) {
      test(
        `${v.name}: ${v.description}`,
        async () => {
          if (changedAnswers(v, answers) === 0) {
            // The variant changes none of the operations this kind calls (paging and sections for
            // the fund match and the shortlist): each answer of the plain run comes back from it
            // byte for byte, headers included, so a run through it gets the plain run's answers
            // and makes the plain run's calls; it is the plain run, already compared above.
            expect(answers.map((a) => a.operation)).toContain('my_account');
            return;
          }
          proxy.setTransform(variantTransform(v));
          let got: Outcome;
          try {
            got = await runThrough(job, `${kind.kind}-${v.name}`);
          } finally {
            proxy.setTransform(null);
          }
          expect(got.manifest.status).toBe('complete');
          if (kind.kind === 'market-report') {
            const countries = (plain.figures as unknown as MarketReportModel).countries.map((c) => c.country);
            expect(got.manifest.notProvided.sort()).toEqual(
              countries.flatMap((c) => v.removes.map((w) => `${c}: ${w}`)).sort(),
            );
            if (!v.chartsChanged && v.removes.length === 0)
              expect(got.manifest.charts).toBe(plain.manifest.charts);
          }
          expect(got.manifest.calls.byOperation).toEqual(plain.manifest.calls.byOperation);
          COMPARE[kind.kind]!(plain, got, v);
        },
        VARIANT_RUN_MS,
      );
    }
  });
}

test('the account variant: the balance is read from data when the envelope carries none', async () => {
  const client = new VisClient({ baseUrl: proxy.url, apiKey: KEY });
  try {
    proxy.setTransform(variantTransform(SERVICE_VARIANTS.find((x) => x.name === 'account')!));
    const account = await client.call('my_account', {});
    expect(account.credits?.remaining).toBeNull();
    expect(account.data?.credits_balance).toBeUndefined();
    proxy.setTransform(null);
    const plainAccount = await client.call('my_account', {});
    expect(readAccount(account)).toEqual(readAccount(plainAccount));
    expect(readAccount(account).balance).toBeGreaterThan(0);
  } finally {
    proxy.setTransform(null);
    await client.close();
  }
});
