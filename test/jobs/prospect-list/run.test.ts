/**
 * The prospect list on the real embedded Temporal server, with real workers, against the
 * sandbox over HTTP. What the list must hold is worked out from the outside: the sandbox is
 * asked directly (the same search paged, the same brief, a free repeat) and the suppression list
 * applied by hand; the CSV files are read back with csv-parse, the workbook with exceljs, the
 * PDF's text with pdftotext; the credits are the account's balance before and after.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import {
  CRM_PROFILE_SPECS,
  CRM_PROFILES,
  parseProspectListJob,
  type ProspectListJob,
  type ProspectListResult,
} from '../../../jobs/prospect-list/index.js';
import { normaliseDomain, normaliseName } from '../../../jobs/prospect-list/suppression.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { callSandbox, KEYS, startFixedDateSandbox } from '../../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import {
  allCells,
  CSV_UTF8_IMPORT,
  formulaLikeCells,
  openWorkbook,
  pdfPages,
  pdfText,
} from '../../helpers/reports.js';
import { sofficeConvertMany } from '../../helpers/soffice-many.js';
import ExcelJS from 'exceljs';

const KEY = KEYS.provider;
const EVIL = '=HYPERLINK("http://x","y")';
const MINUS = '-2+3';
const HAN = '北京智能科技';
/** A company whose website a CRM would turn into a live script link. */
const SCRIPTED = 'Scripted Website GmbH';
/**
 * The search: Germany's seed startups, a few pages (more than one, so paging is in it) of the
 * country whose startups the brief also finds (so the two sources share companies to merge).
 */
const SEARCH = {
  countries: ['Germany'],
  stages: ['seed'],
};
const BRIEF = {
  brief: 'Startup law firm for seed and series A fintech companies that just raised',
  org_key: 'brightline-legal',
  regions: ['Germany', 'France'],
  limit: 20,
};

let sandbox: RunningSandbox;
let h: RunnerHarness;

type Row = Record<string, string>;

async function balance(): Promise<number> {
  const r = await callSandbox(sandbox, 'my_account', { key: KEY });
  return r.body.credits?.remaining as number;
}

/** Every startup the search gives, paged directly against the sandbox. */
async function searchedDirectly(): Promise<{ key: string; name: string; domain: string | null }[]> {
  const out: { key: string; name: string; domain: string | null }[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await callSandbox(sandbox, 'search_startups', {
      key: KEY,
      params: { ...SEARCH, limit: 100, offset },
    });
    const page = (r.body.data as { startups: { key: string; name: string; website: string }[] }).startups;
    out.push(...page.map((s) => ({ key: s.key, name: s.name, domain: normaliseDomain(s.website) })));
    if (page.length < 100) return out;
  }
}

/** The brief's customers, asked directly (within 24 hours of the run's call: a free repeat). */
async function customersDirectly(): Promise<{ key: string; name: string; domain: string | null }[]> {
  const r = await callSandbox(sandbox, 'find_customers', { key: KEY, params: BRIEF });
  expect(r.body.credits?.charged).toBe(0);
  const items = (r.body.data as { customers: { key: string; name: string; website: string }[] }).customers;
  return items.map((s) => ({ key: s.key, name: s.name, domain: normaliseDomain(s.website) }));
}

function job(suppress: string, over: Record<string, unknown> = {}): ProspectListJob {
  return parseProspectListJob({
    id: 'prospects-test',
    kind: 'prospect-list',
    title: 'Prospects test',
    briefs: [BRIEF],
    searches: [{ ...SEARCH, cap: 2000 }],
    enrich: 2,
    suppress,
    delivered: 'exclude',
    // This test is about merging and suppression: closed and acquired companies are kept (the
    // default leaves them out; worth-calling.test.ts proves that against the sandbox).
    keepClosed: true,
    crm: [...CRM_PROFILES],
    budget: { credits: 10 },
    outputs: ['csv', 'xlsx', 'pdf'],
    destination: join(h.dir, 'reports', 'out'),
    ...over,
  });
}

async function run(j: ProspectListJob): Promise<ProspectListResult> {
  const handle = await startJobRun(h.client, h.settings, j);
  return followRun<ProspectListResult>(handle, QUIET);
}

/** The rows of one CSV file, read with csv-parse (a BOM taken off). */
function readCsv(path: string): { header: string[]; rows: Row[]; text: string } {
  const text = readFileSync(path, 'utf8');
  const records: string[][] = parse(text, { bom: true });
  const header = records[0]!;
  const rows = records.slice(1).map((r) => Object.fromEntries(header.map((name, i) => [name, r[i] ?? ''])));
  return { header, rows, text };
}

beforeAll(async () => {
  // The database as of a fixed day: which companies the brief and the search share is a fact of
  // the data, and a database made as of today shared none on some days.
  sandbox = await startFixedDateSandbox();
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEY, name: 'prospects' });
  const round = [{ amount_usd: 2_500_000, stage: 'seed' }];
  for (const [name, website] of [
    [EVIL, 'https://evil-formula.example'],
    [MINUS, 'https://minus-two.example'],
    [HAN, 'https://beijing-smart.example'],
    [SCRIPTED, 'javascript:alert(document.cookie)'],
  ] as const) {
    sandbox.insertStartup(
      { name, website, hq_country: 'Germany', sector: 'Finance & Blockchain', stage: 'seed' },
      round,
    );
  }
}, 120_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe('a prospect list', () => {
  let first: ProspectListResult;
  let expected: Map<string, { key: string; name: string; domain: string | null }>;
  let suppressedDomain: string;
  let suppressFile: string;

  test('merges the brief and the search into one row per company, less the CRM export, in CSV files every CRM imports', async () => {
    const searched = await searchedDirectly();
    // More than one page of the search, and under its cap.
    expect(searched.length).toBeGreaterThan(100);
    expect(searched.length).toBeLessThan(2000);
    // The CRM export: one company by its website, one by its name only, and a row naming nothing.
    const byDomain = searched.find((s) => s.domain !== null && s.name !== EVIL)!;
    const byName = searched.find(
      (s) => s !== byDomain && s.name !== EVIL && s.name !== MINUS && s.name !== HAN,
    )!;
    suppressedDomain = byDomain.domain!;
    suppressFile = join(h.dir, 'crm-export.csv');
    writeFileSync(
      suppressFile,
      `\uFEFFCompany name;Website\r\nSomething Else Ltd;https://www.${suppressedDomain}/about\r\n"${byName.name.toUpperCase()} GmbH";\r\n;not a domain\r\n`,
    );

    const before = await balance();
    first = await run(job(suppressFile));
    expect(first.partial, first.reasons.join('; ')).toBe(false);
    // find_customers costs 3 credits: the account paid exactly that.
    expect(before - (await balance())).toBe(3);
    const manifest = JSON.parse(readFileSync(first.manifestPath, 'utf8')) as {
      credits: { charged: number };
      files: string[];
      urlsLeftOut: number;
    };
    expect(manifest.credits.charged).toBe(3);
    // The javascript: website is left out of each CSV's website column (five profiles) and of the
    // workbook's Website column: six cells, counted in the manifest.
    expect(manifest.urlsLeftOut).toBe(CRM_PROFILES.length + 1);
    // A spreadsheet opens the generic CSV file (checked below): LibreOffice converts it while
    // the files are read here.
    const converting = sofficeConvertMany(
      [first.files['csv-generic']!],
      'xlsx',
      join(h.dir, 'lo'),
      CSV_UTF8_IMPORT,
    );

    // What the list must hold, from the sandbox directly: the search and the brief, by key then domain.
    const customers = await customersDirectly();
    // The brief and the search share companies: the merge has rows to make one of.
    const searchedKeys = new Set(searched.map((s) => s.key));
    expect(customers.filter((c) => searchedKeys.has(c.key)).length).toBeGreaterThan(0);
    expected = new Map();
    const domains = new Set<string>();
    for (const s of [...customers, ...searched]) {
      if (expected.has(s.key) || (s.domain !== null && domains.has(s.domain))) continue;
      expected.set(s.key, s);
      if (s.domain !== null) domains.add(s.domain);
    }
    const suppressedKeys = [...expected.values()]
      .filter((s) => s.domain === suppressedDomain || normaliseName(s.name) === normaliseName(byName.name))
      .map((s) => s.key);
    expect(suppressedKeys.length).toBeGreaterThanOrEqual(2);
    for (const k of suppressedKeys) expected.delete(k);
    expect(first.listed).toBe(expected.size);

    for (const profile of CRM_PROFILES) {
      const spec = CRM_PROFILE_SPECS[profile];
      const path = first.files[`csv-${profile}`]!;
      expect(path, profile).toMatch(new RegExp(`-${profile}\\.csv$`));
      const { header, rows, text } = readCsv(path);
      expect(header).toEqual(spec.columns.map((c) => c.header));
      expect(text.startsWith('\uFEFF'), `${profile} BOM`).toBe(spec.bom);
      expect(text.includes('\r\n')).toBe(true);
      expect(rows).toHaveLength(expected.size);
      const nameCol = spec.columns[0]!.header;
      const keyCol = spec.columns.at(-1)!.header;
      // One row per company: no key and no domain twice; the suppressed companies absent.
      const keys = rows.map((r) => r[keyCol]!);
      expect(new Set(keys).size).toBe(rows.length);
      expect(new Set(keys)).toEqual(new Set(expected.keys()));
      const domainCol = spec.columns.find((c) =>
        ['Company domain name', 'Domains', 'Domain', 'domain'].includes(c.header),
      )!.header;
      const listedDomains = rows.map((r) => r[domainCol]).filter((d) => d !== '');
      expect(new Set(listedDomains).size).toBe(listedDomains.length);
      expect(listedDomains).not.toContain(suppressedDomain);
      // Formula-like names are inert text; non-Latin names intact.
      const names = rows.map((r) => r[nameCol]!);
      expect(names).toContain(`'${EVIL}`);
      expect(names).toContain(`'${MINUS}`);
      expect(names).toContain(HAN);
      expect(names).not.toContain(EVIL);
      expect(rows.every((r) => !/^[=+\-@\t\r\n]/.test(r[nameCol]!))).toBe(true);
      // URL columns hold http(s) URLs or nothing: the scripted website's row is listed, its
      // website cell empty.
      const urlCols = spec.columns.filter((c) => c.kind === 'url').map((c) => c.header);
      expect(urlCols.length, profile).toBeGreaterThan(0);
      for (const r of rows)
        for (const c of urlCols) if (r[c] !== '') expect(r[c], `${profile} ${c}`).toMatch(/^https?:\/\/\S+$/);
      const scripted = rows.find((r) => r[nameCol] === SCRIPTED);
      expect(scripted, profile).toBeDefined();
      for (const c of urlCols.filter((h) => !/profile/i.test(h)))
        expect(scripted![c], `${profile} ${c}`).toBe('');
      expect(text).not.toMatch(/javascript:/i);
      // Dates are ISO 8601, numbers plain.
      const dateCol = spec.columns.find((c) => c.kind === 'date')!.header;
      expect(
        rows.filter((r) => r[dateCol] !== '').every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[dateCol]!)),
      ).toBe(true);
    }

    // A spreadsheet opens the CSV files: LibreOffice's import of the generic one (UTF-8, BOM)
    // holds every row, the names as written, and no formula.
    const [sheet] = await converting;
    const lo = await openWorkbook(sheet!);
    const loNames = lo.worksheets[0]!.getColumn(1).values.slice(2).map(String);
    expect(loNames).toHaveLength(expected.size);
    expect(loNames).toContain(HAN);
    expect(loNames.some((n) => n.includes('HYPERLINK'))).toBe(true);
    expect(formulaLikeCells(lo).filter((c) => c.cell.formula)).toEqual([]);
    expect(allCells(lo).filter((c) => c.cell.type === ExcelJS.ValueType.Formula)).toEqual([]);

    // The workbook: every listed company on Prospects, the suppressed ones on Suppressed.
    const wb = await openWorkbook(first.files.xlsx!);
    const prospects = wb.getWorksheet('Prospects')!;
    expect(prospects.actualRowCount - 1).toBe(expected.size);
    const suppressed = wb.getWorksheet('Suppressed')!;
    expect(suppressed.actualRowCount - 1).toBe(suppressedKeys.length);
    expect(formulaLikeCells(wb)).toEqual([]);
    expect(allCells(wb).filter(({ cell }) => /javascript:/i.test(String(cell.text)))).toEqual([]);
    // The brief names the top companies and what was suppressed.
    const text = pdfText(first.files.pdf!);
    expect(pdfPages(first.files.pdf!)).toBeLessThanOrEqual(3);
    expect(text).toContain('Prospects test');
    expect(text).toMatch(/left out/i);
    const top = readCsv(first.files['csv-generic']!).rows[0]!;
    expect(text).toContain(top.name);
    expect(top.fit_pct).not.toBe('');
  }, 300_000);

  test('a second run, net new only, delivers only the companies added since, and its brief costs nothing', async () => {
    expect(first).toBeDefined();
    const added = ['Nordlicht Pay', 'Quai Ledger'];
    for (const name of added) {
      sandbox.insertStartup(
        {
          name,
          website: `https://${name.toLowerCase().replace(' ', '')}.example`,
          hq_country: 'Germany',
          sector: 'Finance & Blockchain',
          stage: 'seed',
        },
        [{ amount_usd: 9_000_000, stage: 'seed' }],
      );
    }
    const before = await balance();
    const second = await run(job(suppressFile));
    expect(second.partial, second.reasons.join('; ')).toBe(false);
    // The brief repeated within 24 hours is free: the balance did not move, the manifest says 0.
    expect(await balance()).toBe(before);
    const manifest = JSON.parse(readFileSync(second.manifestPath, 'utf8')) as {
      credits: { charged: number };
    };
    expect(manifest.credits.charged).toBe(0);
    for (const profile of CRM_PROFILES) {
      const spec = CRM_PROFILE_SPECS[profile];
      const { rows } = readCsv(second.files[`csv-${profile}`]!);
      expect(rows.map((r) => r[spec.columns[0]!.header]).sort()).toEqual([...added].sort());
      for (const r of rows) expect(expected.has(r[spec.columns.at(-1)!.header]!)).toBe(false);
    }
    expect(second.listed).toBe(2);
    expect(second.netNew).toBe(2);
  }, 300_000);
});
