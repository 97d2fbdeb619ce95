/**
 * The investor shortlist on the real embedded Temporal server, with real workers, against the
 * sandbox over HTTP: a baseline, then a run whose lists are longer marks the new investors in the
 * PDF and the workbook; each run costs the account 3 credits a company; on a free plan only the
 * first company is asked, for the top 5. The enriched investors name the partner and link to
 * the website that get_investor itself gives (asked directly), and no loopback link is left.
 * Every figure is traceable: the workbook's Sources sheet lists the answers the run stored, and
 * every data row names the one it came from.
 */
import type { Workbook } from 'exceljs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import {
  parseInvestorShortlistJob,
  type InvestorShortlistResult,
} from '../../../jobs/investor-shortlist/index.js';
import { companyParams } from '../../../jobs/investor-shortlist/plan.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { readerUrl } from '../../../reports/links.js';
import { readPdfStructure } from '../../helpers/pdf-structure.js';
import { formulaLikeCells, openWorkbook, pdfText } from '../../helpers/reports.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import { answerHolds, expectSourceCells, expectSourcesFromStore } from '../../helpers/report-sources.js';
import { COMPUTED_BY_RUNNER, SOURCE_COLUMN } from '../../../reports/sources.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;
let free: RunnerHarness;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.startup, name: 'shortlist' });
  free = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.free, name: 'shortlist-free' });
});

afterAll(async () => {
  await h?.close();
  await free?.close();
  await sandbox?.close();
});

async function balance(key: string): Promise<number> {
  return (await callSandbox(sandbox, 'my_account', { key })).body.credits?.remaining as number;
}

const job = (limit: number, dir: string) =>
  parseInvestorShortlistJob({
    id: 'shortlist-e2e',
    kind: 'investor-shortlist',
    title: 'Shortlist end to end',
    companies: [
      {
        name: 'Stackwise',
        description: 'Infrastructure-as-code automation for platform teams.',
        sector: 'Software & Developer Tools',
        raising_stage: 'series-a',
        limit,
      },
      {
        name: 'Ledgerly',
        description: 'Payments reconciliation for marketplaces.',
        sector: 'Finance & Blockchain',
        raising_stage: 'seed',
        limit,
      },
    ],
    enrich: 2,
    budget: { credits: 6 },
    destination: `${dir}/reports`,
  });

/** The investors the service lists for a company now (the test's own paid call, outside the runs' balance windows). */
async function serviceList(
  company: Parameters<typeof companyParams>[0],
): Promise<{ key: string; name: string }[]> {
  const res = await callSandbox(sandbox, 'find_investors', {
    key: KEYS.startup,
    params: companyParams(company),
  });
  expect(res.status).toBe(200);
  return (res.body.data as { investors: { key: string; name: string }[] }).investors;
}

/** A company sheet's rows: the service key and the "New since last run" cell. */
function sheetRows(wb: Workbook, sheet: string): { key: string; name: string; isNew: string }[] {
  const ws = wb.getWorksheet(sheet)!;
  const head: string[] = [];
  ws.getRow(1).eachCell((c, i) => (head[i] = c.text));
  const col = (name: string) => head.indexOf(name);
  const rows: { key: string; name: string; isNew: string }[] = [];
  // The table ends at its first empty row (the service's charts follow it).
  let ended = false;
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    if (n === 1 || ended) return;
    if (!row.getCell(col('Service key')).text) {
      ended = true;
      return;
    }
    rows.push({
      key: row.getCell(col('Service key')).text,
      name: row.getCell(col('Investor')).text,
      isNew: row.getCell(col('New since last run')).text,
    });
  });
  return rows;
}

test('a baseline, then the investors new since marked; 3 credits a company by the balance', async () => {
  const b0 = await balance(KEYS.startup);
  const first = await followRun<InvestorShortlistResult>(
    await startJobRun(h.client, h.settings, job(8, h.dir)),
    QUIET,
  );
  expect(first.partial, first.reasons.join('; ')).toBe(false);
  expect(b0 - (await balance(KEYS.startup))).toBe(6);
  expect(first.baseline).toBe(true);
  expect(pdfText(first.files.pdf!)).toMatch(/Baseline/);
  const wb1 = await openWorkbook(first.files.xlsx!);
  for (const r of sheetRows(wb1, 'Stackwise')) expect(r.isNew).toBe('baseline');

  const b1 = await balance(KEYS.startup);
  const second = await followRun<InvestorShortlistResult>(
    await startJobRun(h.client, h.settings, job(12, h.dir)),
    QUIET,
  );
  expect(second.partial, second.reasons.join('; ')).toBe(false);
  expect(b1 - (await balance(KEYS.startup))).toBe(6);
  expect(second.baseline).toBe(false);
  const wb = await openWorkbook(second.files.xlsx!);
  expect(wb.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Stackwise', 'Ledgerly']));
  expect(formulaLikeCells(wb)).toEqual([]);

  // The service is the witness: the investors on its list of 12 and not on its list of 8 are the
  // new ones, and exactly they are marked, in the workbook and in the PDF's section.
  const text = pdfText(second.files.pdf!).replace(/\s+/g, ' ');
  let marked = 0;
  for (const company of job(12, h.dir).companies) {
    const before = new Set((await serviceList({ ...company, limit: 8 })).map((i) => i.key));
    const now = await serviceList(company);
    const fresh = now.filter((i) => !before.has(i.key));
    expect(fresh.length, company.name).toBeGreaterThan(0);
    const rows = sheetRows(wb, company.name);
    expect(rows.map((r) => r.key)).toEqual(now.map((i) => i.key));
    expect(rows.filter((r) => r.isNew === 'NEW').map((r) => r.key)).toEqual(fresh.map((i) => i.key));
    expect(rows.filter((r) => r.isNew === 'No')).toHaveLength(now.length - fresh.length);
    // A row of the PDF's table: rank, the name's first word, then NEW right before the fit.
    for (const i of fresh) {
      const rank = now.findIndex((x) => x.key === i.key) + 1;
      const first = escape(i.name.split(' ')[0]!);
      expect(text, i.name).toMatch(new RegExp(`\\b${rank} ${first}[^%]{0,40} NEW \\d+\\.\\d%`));
    }
    marked += fresh.length;
  }
  // No other investor is marked.
  expect(text.match(/ NEW \d+\.\d%/g) ?? []).toHaveLength(marked);

  // The enriched investors name a partner and link to the website get_investor itself gives.
  const uris = new Set(readPdfStructure(second.files.pdf!).pageLinks.map((l) => l.uri));
  let partners = 0;
  for (const company of job(12, h.dir).companies) {
    const ws = wb.getWorksheet(company.name)!;
    const head: string[] = [];
    ws.getRow(1).eachCell((c, i) => (head[i] = c.text));
    for (let r = 2; r <= 3; r++) {
      const row = ws.getRow(r);
      const key = row.getCell(head.indexOf('Service key')).text;
      const res = await callSandbox(sandbox, 'get_investor', { key: KEYS.startup, params: { key } });
      expect(res.status).toBe(200);
      const profile = (
        res.body.data as { investor: { website: string | null; team: { name: string; role?: string }[] } }
      ).investor;
      const partner = profile.team.find((m) => /partner/i.test(m.role ?? '')) ?? profile.team[0];
      expect(partner, key).toBeDefined();
      expect(row.getCell(head.indexOf('Partner')).text).toBe(
        partner!.role ? `${partner!.name} (${partner!.role})` : partner!.name,
      );
      expect(text).toContain(`Partner: ${partner!.name.split(' ')[0]}`);
      partners += 1;
      const site = readerUrl(profile.website);
      if (site !== null) {
        const link = row.getCell(head.indexOf('Investor')).value as { hyperlink?: string };
        expect(link.hyperlink?.replace(/\/$/, '')).toBe(site.replace(/\/$/, ''));
        expect(
          [...uris].some((u) => u?.replace(/\/$/, '') === site.replace(/\/$/, '')),
          site,
        ).toBe(true);
      }
    }
  }
  expect(partners).toBe(4);
  // The sandbox's loopback views are links nobody else can open: none is in the PDF.
  expect([...uris].filter((u) => u !== null && /127\.0\.0\.1|localhost/.test(u))).toEqual([]);

  // Where each figure came from: the Sources sheet is what the run stored (its lists and
  // profiles, not the plan check), each row names its answer, and that answer holds the row.
  const answers = expectSourcesFromStore(wb, {
    storeDir: join(h.dir, 'store'),
    runKey: second.workflowId,
    operations: ['find_investors', 'get_investor'],
  });
  const names = job(12, h.dir).companies.map((c) => c.name);
  const cells = expectSourceCells(wb, [...names, 'Shared investors'], new Set(answers.keys()));
  for (const [i, company] of names.entries()) {
    const list = `S${i + 1}`;
    expect(answers.get(list)!.operation).toBe('find_investors');
    const rows = cells.get(company)!.filter((c) => c.row['Service key'] !== '');
    expect(rows.length).toBeGreaterThan(0);
    for (const { row, ids } of rows) {
      expect(ids[0], row['Service key']).toBe(list);
      expect(answerHolds(answers.get(list)!, row['Service key']!)).toBe(true);
      expect(row['Basis']!.startsWith(COMPUTED_BY_RUNNER)).toBe(true);
      // An enriched row: the profile of that very investor.
      for (const id of ids.slice(1)) {
        expect(answers.get(id)!.operation).toBe('get_investor');
        expect(answers.get(id)!.params).toEqual({ key: row['Service key'] });
      }
    }
    expect(rows.filter((r) => r.ids.length === 2)).toHaveLength(2);
  }
  for (const { row } of cells.get('Shared investors')!.filter((c) => c.row['Service key'] !== ''))
    for (const id of idsOfCompanies(row['Which companies']!, names)) {
      expect(row[SOURCE_COLUMN]).toContain(id);
      expect(answerHolds(answers.get(id)!, row['Service key']!)).toBe(true);
    }
  // The PDF: each service chart's caption, the appendix with the sources by operation.
  expect(text).toContain('Source: find_investors (S1)');
  expect(text).toContain('Source: find_investors (S2)');
  expect(text).toContain(`${answers.size} stored answers of the service, by operation.`);
}, 240_000);

/** The source ids of the lists of the companies a shared investor is on (`Stackwise; Ledgerly`). */
const idsOfCompanies = (which: string, names: string[]) =>
  which.split('; ').map((n) => `S${names.indexOf(n) + 1}`);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('on a free plan only the first company is asked, for the top 5, and the report says why', async () => {
  const b0 = await balance(KEYS.free);
  const result = await followRun<InvestorShortlistResult>(
    await startJobRun(free.client, free.settings, { ...job(20, free.dir), id: 'shortlist-free' }),
    QUIET,
  );
  expect(b0 - (await balance(KEYS.free))).toBe(3);
  expect(result.partial).toBe(true);
  expect(result.reasons.join('; ')).toMatch(/the free plan/);
  const text = pdfText(result.files.pdf!).replace(/\s+/g, ' ');
  expect(text).toMatch(/free plan/i);
}, 240_000);
