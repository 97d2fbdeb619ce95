/**
 * Provenance of a prospect list, from the outside: a real run against the sandbox, its workbook
 * read back with exceljs and its brief with pdftotext, and every source followed to the stored
 * answer in the run's store folder by reading that file (not through the runner's code). The
 * Sources sheet lists each answer the list was read from, as stored; each Prospects and
 * Suppressed row names answers that hold that company; three figures of the workbook are each
 * found in the answer their row names. A list stored before sources were kept still renders.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { LocalStore } from '../../../activities/store.js';
import { createProspectListActivities } from '../../../jobs/prospect-list/activities.js';
import { parseProspectListJob, type ProspectListResult } from '../../../jobs/prospect-list/index.js';
import type { ProspectSummary } from '../../../jobs/prospect-list/types.js';
import { noSourcesNote } from '../../../reports/sources.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import type { StoredCall } from '../../../shared/types.js';
import { KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import { openWorkbook, pdfText } from '../../helpers/reports.js';
import { expectSourceCells, expectSourcesFromStore, sourcesSheetRows } from '../../helpers/report-sources.js';

/** The operations whose stored answers a prospect list is read from. */
const OPERATIONS = ['find_customers', 'search_startups', 'get_startup'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

let sandbox: RunningSandbox;
let h: RunnerHarness;
let result: ProspectListResult;
let wb: ExcelJS.Workbook;

/** A sheet's rows as objects by header (cells as exceljs gives them; a link's text for a link). */
function sheetRows(ws: ExcelJS.Worksheet): Record<string, unknown>[] {
  const headers = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Record<string, unknown>[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    rows.push(
      Object.fromEntries(
        headers.map((h, i) => {
          const v = row.getCell(i + 1).value;
          return [h, isObj(v) && 'text' in v ? v.text : (v ?? null)];
        }),
      ),
    );
  }
  return rows;
}

/** The ids a Source cell names: `S1, S3–S5` is S1, S3, S4, S5; an empty cell none. */
function sourceIds(cell: unknown): string[] {
  if (typeof cell !== 'string' || cell === '') return [];
  return cell.split(', ').flatMap((part) => {
    const m = /^S(\d+)(?:–S(\d+))?$/.exec(part);
    if (!m) throw new Error(`not a source id: ${part}`);
    const [a, b] = [Number(m[1]), Number(m[2] ?? m[1])];
    return Array.from({ length: b - a + 1 }, (_, k) => `S${a + k}`);
  });
}

/** The stored answer at a store reference, read from the store folder as a file. */
const answers = new Map<string, StoredCall>();
function storedAnswer(ref: string): StoredCall {
  let call = answers.get(ref);
  if (!call) {
    call = JSON.parse(readFileSync(join(h.dir, 'store', ref), 'utf8')) as StoredCall;
    answers.set(ref, call);
  }
  return call;
}

/** Every object in an answer's data that is the company's record (its key, or its website's host). */
function recordsOf(data: unknown, company: { key: unknown; domain: unknown }): Obj[] {
  const out: Obj[] = [];
  const host = (w: unknown) =>
    typeof w === 'string' && w !== '' ? new URL(w).hostname.replace(/^www\./, '') : null;
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (isObj(v)) {
      if (
        (company.key !== null && v.key === company.key) ||
        (company.domain !== null && host(v.website) === company.domain)
      )
        out.push(v);
      Object.values(v).forEach(visit);
    }
  };
  visit(data);
  return out;
}

/** Where a figure of the Prospects sheet is in the service's record of a company. */
const FIELD_OF: Record<string, (record: Obj) => unknown> = {
  'Last round (USD)': (r) =>
    r.last_round_amount_usd ?? (isObj(r.momentum) ? r.momentum.last_round_amount_usd : null),
  'Total raised (USD)': (r) => r.total_raised_usd,
  Founded: (r) => r.founded_year,
};

/**
 * Follows one figure of a Prospects row to the stored answers its Source names (through the
 * Sources sheet's store reference, the file read as it is): the ids of those whose record of the
 * company holds that very number.
 */
function follow(
  row: Record<string, unknown>,
  header: keyof typeof FIELD_OF,
  sources: Map<string, Record<string, unknown>>,
  ids = sourceIds(row.Source),
): string[] {
  const figure = row[header];
  return ids.filter((id) => {
    const source = sources.get(id);
    if (!source) return false;
    const call = storedAnswer(String(source['Store reference']));
    return recordsOf(call.result.data, { key: row['Service key'], domain: row.Domain }).some(
      (record) => Number(FIELD_OF[header]!(record)) === figure,
    );
  });
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.provider, name: 'provenance' });
  const job = parseProspectListJob({
    id: 'prospects-provenance',
    kind: 'prospect-list',
    title: 'Prospects provenance',
    briefs: [
      {
        brief: 'Startup law firm for seed and series A fintech companies that just raised',
        org_key: 'brightline-legal',
        regions: ['Germany', 'France'],
        limit: 20,
      },
    ],
    // Three pages of a search, two sources sharing companies with the brief.
    searches: [{ countries: ['Germany'], stages: ['seed'], cap: 250 }],
    enrich: 4,
    delivered: 'exclude',
    keepClosed: true,
    crm: ['generic'],
    budget: { credits: 10 },
    outputs: ['csv', 'xlsx', 'pdf'],
    destination: join(h.dir, 'reports', 'out'),
  });
  result = await followRun<ProspectListResult>(await startJobRun(h.client, h.settings, job), QUIET);
  expect(result.partial, result.reasons.join('; ')).toBe(false);
  wb = await openWorkbook(result.files.xlsx!);
}, 300_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe("a prospect list's sources", () => {
  test('the Sources sheet lists every stored answer the list was read from, as the store holds it', () => {
    // One row per stored answer of the run's folder the list reads, as the file holds it
    // (operation, parameters, time, status, credits; its reference in the run's folder).
    const byId = expectSourcesFromStore(wb, {
      storeDir: join(h.dir, 'store'),
      runKey: result.workflowId,
      operations: OPERATIONS,
    });
    // In the order the list read them: the brief, the search's pages, the four profiles.
    const operations = [...byId.values()].map((c) => c.operation);
    const pages = operations.filter((o) => o === 'search_startups').length;
    expect(pages).toBeGreaterThan(1);
    expect(operations).toEqual([
      'find_customers',
      ...Array<string>(pages).fill('search_startups'),
      ...Array<string>(4).fill('get_startup'),
    ]);
  });

  test("every row's Source names answers on the Sources sheet that hold that company", () => {
    const sources = new Map(sheetRows(wb.getWorksheet('Sources')!).map((s) => [String(s.Source), s]));
    // Every id a Prospects or Suppressed row names is a row of the Sources sheet.
    expectSourceCells(wb, ['Prospects', 'Suppressed'], new Set(sources.keys()));
    const prospects = sheetRows(wb.getWorksheet('Prospects')!);
    expect(prospects.length).toBe(result.listed);
    const byOperation = new Map<string, number>();
    for (const row of prospects) {
      const ids = sourceIds(row.Source);
      expect(ids.length, String(row.Company)).toBeGreaterThan(0);
      for (const id of ids) {
        const source = sources.get(id);
        expect(source, `${String(row.Company)}: ${id}`).toBeDefined();
        const call = storedAnswer(String(source!['Store reference']));
        const held = recordsOf(call.result.data, { key: row['Service key'], domain: row.Domain });
        expect(held.length, `${String(row.Company)} in ${id}`).toBeGreaterThan(0);
        byOperation.set(call.operation, (byOperation.get(call.operation) ?? 0) + 1);
      }
      // Found by a brief: its answer is named; enriched: its profile.
      if (String(row['Found by']).includes('brief'))
        expect(ids.some((id) => sources.get(id)!.Operation === 'find_customers')).toBe(true);
      if (row.Enriched === 'Yes')
        expect(ids.some((id) => sources.get(id)!.Operation === 'get_startup')).toBe(true);
    }
    expect(byOperation.get('get_startup')).toBe(4);
    // The Suppressed sheet names its rows' answers too (none left out here: its header only).
    const suppressed = wb.getWorksheet('Suppressed')!;
    expect((suppressed.getRow(1).values as unknown[]).includes('Source')).toBe(true);
    for (const row of sheetRows(suppressed))
      for (const id of sourceIds(row.Source)) expect(sources.has(id), id).toBe(true);
  });

  test("picks three figures from the workbook and follows each one's source row to a stored answer that holds it", () => {
    const sources = new Map(sheetRows(wb.getWorksheet('Sources')!).map((s) => [String(s.Source), s]));
    const prospects = sheetRows(wb.getWorksheet('Prospects')!);
    const given = (h: string) => (r: Record<string, unknown>) => typeof r[h] === 'number';
    // A founding year (only get_startup gives it), a total raised of a company a brief found, a
    // last round of a company only the search found: three rows.
    const founded = prospects.find((r) => r.Enriched === 'Yes' && given('Founded')(r))!;
    const raised = prospects.find(
      (r) => r !== founded && String(r['Found by']).includes('brief') && given('Total raised (USD)')(r),
    )!;
    const lastRound = prospects.find(
      (r) => r !== founded && r !== raised && r['Found by'] === 'search 1' && given('Last round (USD)')(r),
    )!;
    const picked = [
      [founded, 'Founded'],
      [raised, 'Total raised (USD)'],
      [lastRound, 'Last round (USD)'],
    ] as const;
    for (const [row, header] of picked) {
      expect(row, header).toBeDefined();
      const held = follow(row, header, sources);
      expect(
        held.length,
        `${header} ${String(row[header])} of ${String(row.Company)} in ${String(row.Source)}`,
      ).toBeGreaterThan(0);
    }
    // The check tells a wrong source: without its profile a row's founding year is in none of
    // its answers, and with every id one further on at least one of the three figures is lost.
    expect(
      follow(
        founded,
        'Founded',
        sources,
        sourceIds(founded.Source).filter((id) => sources.get(id)!.Operation !== 'get_startup'),
      ),
    ).toEqual([]);
    const shifted = (r: Record<string, unknown>) =>
      sourceIds(r.Source).map((id) => `S${Number(id.slice(1)) + 1}`);
    expect(picked.map(([row, header]) => follow(row, header, sources, shifted(row)).length)).toContain(0);
  });

  test('the brief captions each chart with its answers and lists them by operation in its appendix', () => {
    const text = pdfText(result.files.pdf!).replace(/\s+/g, ' ');
    const ids = sourcesSheetRows(wb).map((r) => r.Source!);
    const all = `S1–${ids.at(-1)!}`;
    const pages = `S2–S${ids.length - 4}`;
    const profiles = `S${ids.length - 3}–${ids.at(-1)!}`;
    // Stage, sector and country count every row (every answer); fit and momentum are the brief's.
    expect(text.split(`Source: find_customers, search_startups, get_startup (${all})`).length - 1).toBe(3);
    expect(text.split('Source: find_customers (S1)').length - 1).toBe(2);
    const appendix = text.slice(text.indexOf('Appendix: the run'));
    // The table by operation when the brief has room for it, else the same counts in a sentence
    // (tried before the brief drops top targets): which one depends on the day's data.
    if (appendix.includes(`Sources ${ids.length} stored answers of the service, by operation.`)) {
      expect(appendix).toMatch(
        new RegExp(
          `find_customers 1 20 3 S1 search_startups ${ids.length - 5} \\d+ 0 ${pages} get_startup 4 4 0 ${profiles}`,
        ),
      );
    } else {
      expect(appendix).toContain(
        `Sources ${ids.length} stored answers of the service: find_customers 1 (S1), ` +
          `search_startups ${ids.length - 5} (${pages}), get_startup 4 (${profiles}).`,
      );
    }
  });

  test('a list stored before sources were kept renders again: the Sources sheet says why, no Source cells', async () => {
    const store = new LocalStore(join(h.dir, 'store'));
    const runKey = `${result.workflowId}-legacy`;
    const summary = await store.getJson<ProspectSummary>(`runs/${result.workflowId}/list/summary.json`);
    // The summary and the rows as the code before this change stored them: no ids, no sources.
    const strip = (doc: unknown) =>
      JSON.parse(JSON.stringify(doc), (key, value: unknown) =>
        key === 'sourceIds' ? undefined : value,
      ) as unknown;
    const { sources: _sources, ...old } = strip(summary) as ProspectSummary;
    const listDir = join(h.dir, 'store', 'runs', result.workflowId, 'list');
    const rowChunks = readdirSync(listDir)
      .filter((f) => /^rows-\d{4}\.json$/.test(f))
      .sort();
    expect(rowChunks.length).toBeGreaterThan(0);
    const acts = createProspectListActivities({ store, reportsDir: join(h.dir, 'reports') });
    const out = await acts.renderProspectList({
      refs: {
        summaryRef: await store.putJson(runKey, 'list/summary', old),
        rowChunks: await Promise.all(
          rowChunks.map(async (f) =>
            store.putJson(
              runKey,
              `list/${f.replace(/\.json$/, '')}`,
              strip(await store.getJson(`runs/${result.workflowId}/list/${f}`)),
            ),
          ),
        ),
        suppressedChunks: [],
      },
      job: { id: 'prospects-provenance', outputs: ['xlsx', 'pdf'], crm: ['generic'] },
      date: summary.date,
      workflowId: runKey,
    });
    const book = await openWorkbook(out.files.xlsx!);
    expect(book.getWorksheet('Sources')!.getCell(2, 1).value).toBe(noSourcesNote(runKey));
    const prospects = sheetRows(book.getWorksheet('Prospects')!);
    expect(prospects.length).toBe(result.listed);
    expect(prospects.every((r) => r.Source === null)).toBe(true);
    const text = pdfText(out.files.pdf!).replace(/\s+/g, ' ');
    expect(text).not.toContain('Source:');
    expect(text).toContain('This run was made before its report recorded its sources');
  });
});
