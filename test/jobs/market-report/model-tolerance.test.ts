/**
 * Building the market report's model never throws on what a service sends inside `data` and
 * its charts: answers recorded from the sandbox over HTTP have random non-envelope fields
 * removed, renamed or given another type (fast-check), and reading them into the model always
 * gives a model, with the country and every question in it. A few of the mutated models are
 * rendered too (workbook and PDF), and open back.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { VisClient } from '../../../api/client.js';
import type { OperationName, ParamsIn } from '../../../api/operations.js';
import type { RunStats, StoredCall } from '../../../shared/types.js';
import { parseMarketReportJob } from '../../../jobs/market-report/index.js';
import { readAnswer } from '../../../jobs/market-report/read-answers.js';
import { readCountryCalls, type CountryCalls } from '../../../jobs/market-report/read-country.js';
import { toMarketReportModel } from '../../../jobs/market-report/model.js';
import { renderMarketReport } from '../../../jobs/market-report/report/index.js';
import { SANDBOX_TEST_AS_OF } from '../../../sandbox/data/index.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { openWorkbook } from '../../helpers/reports.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

let sandbox: RunningSandbox;
let recorded: { country: CountryCalls; answers: StoredCall[] };
const out = mkdtempSync(join(tmpdir(), 'vir-tolerance-'));

async function record<N extends OperationName>(
  client: VisClient,
  op: N,
  params: ParamsIn<N>,
): Promise<StoredCall> {
  const result = await client.call(op, params);
  return { operation: op, params, fetchedAt: new Date().toISOString(), result };
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, rateLimitPerMinute: 10_000 });
  const client = new VisClient({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc' });
  try {
    const byScore = await record(client, 'search_investors', { country: 'Germany', limit: 15 });
    const byInv = await record(client, 'search_investors', {
      country: 'Germany',
      sort: 'investments',
      limit: 15,
    });
    const startups = await record(client, 'search_startups', { countries: ['Germany'], limit: 15 });
    const investorKey = String((byScore.result.data?.investors as { key: string }[])[0]!.key);
    const startupKey = String((startups.result.data?.startups as { key: string }[])[0]!.key);
    recorded = {
      country: {
        refs: {
          country: 'Germany',
          overview: 'o',
          investorsByScore: ['a'],
          investorsByInvestments: ['b'],
          startups: ['c'],
          investorProfiles: ['d'],
          startupProfiles: ['e'],
          investorsTotal: 100,
          startupsTotal: 100,
          investorsCapped: true,
          startupsCapped: true,
        },
        overview: await record(client, 'country_overview', { country: 'Germany' }),
        investorsByScore: [byScore],
        investorsByInvestments: [byInv],
        startups: [startups],
        investorProfiles: [await record(client, 'get_investor', { key: investorKey })],
        startupProfiles: [await record(client, 'get_startup', { key: startupKey })],
      },
      answers: [
        await record(client, 'ask', { query: 'largest rounds of the last 7 days in Germany' }),
        await record(client, 'ask', { query: 'total capital raised in fintech by year' }),
      ],
    };
  } finally {
    await client.close();
  }
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(out, { recursive: true, force: true });
});

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

/** Every place inside `data` and inside each chart (never the envelope's own fields). */
function slots(calls: StoredCall[]): Slot[] {
  const found: Slot[] = [];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        found.push({ parent: v, key: i });
        visit(x);
      });
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        found.push({ parent: v as Record<string, unknown>, key: k });
        visit(x);
      }
    }
  };
  for (const c of calls) {
    visit(c.result.data);
    for (const chart of c.result.charts ?? []) visit(chart);
  }
  return found;
}

const ACTIONS = ['remove', 'rename', 'null', 'string', 'number', 'array', 'object'] as const;
const mutation = fc.record({
  at: fc.nat(),
  action: fc.constantFrom(...ACTIONS),
  name: fc.string({ minLength: 1, maxLength: 12 }),
});

function mutate(calls: StoredCall[], muts: { at: number; action: (typeof ACTIONS)[number]; name: string }[]) {
  for (const m of muts) {
    const all = slots(calls);
    if (all.length === 0) return;
    const { parent, key } = all[m.at % all.length]!;
    const p = parent as Record<string | number, unknown>;
    const value = p[key];
    if (Array.isArray(parent) && typeof key === 'number') {
      if (m.action === 'remove') parent.splice(key, 1);
      else p[key] = replacement(m.action, value, m.name);
      continue;
    }
    if (m.action === 'remove') delete p[key];
    else if (m.action === 'rename') {
      delete p[key];
      p[m.name] = value;
    } else p[key] = replacement(m.action, value, m.name);
  }
}

function replacement(action: (typeof ACTIONS)[number], value: unknown, name: string): unknown {
  switch (action) {
    case 'null':
      return null;
    case 'string':
      return typeof value === 'number' ? String(value) : name;
    case 'number':
      return name.length * 7.5;
    case 'array':
      return [value, name];
    case 'object':
      return { [name]: value };
    default:
      return value;
  }
}

const job = parseMarketReportJob({
  id: 'tolerance',
  title: 'Tolerance',
  countries: ['Germany'],
  questions: ['largest rounds of the last 7 days in {country}', 'total capital raised in fintech by year'],
});

const QUESTIONS = ['largest rounds of the last 7 days in Germany', 'total capital raised in fintech by year'];

const stats: RunStats = {
  workflowId: 'wf',
  runId: 'run',
  startedAt: `${SANDBOX_TEST_AS_OF}T08:00:00.000Z`,
  callsByOperation: { country_overview: 1 },
  callsMade: 9,
  pages: 3,
  records: 45,
  creditsSpent: 2,
  creditsBudget: 10,
  accountBalance: 100,
  partial: false,
  reasons: [],
};

function buildModel(country: CountryCalls, answers: StoredCall[]) {
  const data = readCountryCalls(country);
  const read = answers.map((a, i) =>
    readAnswer({ question: QUESTIONS[i]!, country: 'Germany', ref: 'x', skipped: null, charged: 1 }, a),
  );
  return toMarketReportModel({
    job,
    countries: [data],
    answers: read,
    comparisons: [{ country: 'Germany', newTopInvestors: [], newTopStartups: [] }],
    previous: null,
    stats,
    asOf: SANDBOX_TEST_AS_OF,
  });
}

function mutatedCopy(muts: { at: number; action: (typeof ACTIONS)[number]; name: string }[]) {
  const copy = structuredClone(recorded);
  const c = copy.country;
  const calls = [
    c.overview!,
    ...c.investorsByScore,
    ...c.investorsByInvestments,
    ...c.startups,
    ...c.investorProfiles,
    ...c.startupProfiles,
    ...copy.answers,
  ];
  mutate(calls, muts);
  return copy;
}

test('the recorded answers give a full model as they are', () => {
  const model = buildModel(recorded.country, recorded.answers);
  const c = model.countries[0]!;
  expect(c.by_year.length).toBeGreaterThan(3);
  expect(c.stage_mix.length).toBeGreaterThan(2);
  expect(c.top_investors_by_score.length).toBeGreaterThan(5);
  expect(c.notable_startups.length).toBeGreaterThan(5);
  expect(c.profiles).toHaveLength(1);
  expect(c.not_provided).toBeUndefined();
  expect(model.answers.every((a) => (a.rows ?? []).length > 0)).toBe(true);
});

test('removing, renaming or retyping any fields inside data and charts never breaks model building', () => {
  fc.assert(
    fc.property(fc.array(mutation, { minLength: 1, maxLength: 25 }), (muts) => {
      const copy = mutatedCopy(muts);
      const model = buildModel(copy.country, copy.answers);
      expect(model.countries).toHaveLength(1);
      expect(model.countries[0]!.country).toBe('Germany');
      expect(model.answers.map((a) => a.question)).toEqual(QUESTIONS);
      // Plain data all the way (it crosses activities as JSON).
      expect(JSON.parse(JSON.stringify(model))).toEqual(model);
    }),
    { numRuns: 300, seed: 20261123 },
  );
});

test('whole sections removed are named as not provided by the service', () => {
  const copy = structuredClone(recorded);
  const d = copy.country.overview!.result.data!;
  delete d.stage_mix;
  delete d.most_active_investors;
  const model = buildModel(copy.country, copy.answers);
  expect(model.countries[0]!.not_provided).toEqual(['stage mix', 'most active investors']);
  expect(model.stats.sources).toEqual(
    expect.arrayContaining([
      'Germany: stage mix not provided by the service',
      'Germany: most active investors not provided by the service',
    ]),
  );
});

test('mutated models render to a workbook and a PDF that open back', async () => {
  const samples = fc.sample(fc.array(mutation, { minLength: 5, maxLength: 40 }), { numRuns: 4, seed: 7 });
  for (const [i, muts] of samples.entries()) {
    const copy = mutatedCopy(muts);
    const model = buildModel(copy.country, copy.answers);
    const res = await renderMarketReport(model, {
      outDir: out,
      formats: ['xlsx', 'pdf'],
      fileBase: `mutated-${i}`,
    });
    expect(existsSync(res.files.pdf!)).toBe(true);
    const wb = await openWorkbook(res.files.xlsx!);
    expect(wb.getWorksheet('Germany')).toBeDefined();
  }
}, 120_000);
