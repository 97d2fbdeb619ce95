import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProspectWorkbook } from '../../../../jobs/prospect-list/report/index.js';
import type { ProspectWorkbookResult } from '../../../../jobs/prospect-list/report/index.js';
import type { ProspectRow } from '../../../../jobs/prospect-list/types.js';
import { allCells, formulaLikeCells, openWorkbook } from '../../../helpers/reports.js';
import { sofficeConvertMany } from '../../../helpers/soffice-many.js';
import { COMPUTED_BY_RUNNER, noSourcesNote } from '../../../../reports/sources.js';
import {
  ACCENT_NAME,
  CJK_NAME,
  FIXTURE_RUN,
  FORMULA_NAME,
  legacyRows,
  MINUS_NAME,
  prospectRows,
  prospectSummary,
  suppressedRows,
} from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'prospect-workbook-'));

let result: ProspectWorkbookResult;
let wb: ExcelJS.Workbook;
/** The list's workbook and the long rows' workbook as LibreOffice prints them (one start for both). */
let loPdf: string;
let printPath: string;
let printPdf: string;

/** The text of a cell: a string, or a hyperlink's text. */
function text(v: ExcelJS.CellValue): string {
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (v && typeof v === 'object' && 'text' in v) return String(v.text);
  return '';
}

function column(ws: ExcelJS.Worksheet, header: string): number {
  const row = ws.getRow(1);
  for (let c = 1; c <= row.cellCount; c++) if (row.getCell(c).value === header) return c;
  throw new Error(`no column ${header}`);
}

beforeAll(async () => {
  result = await writeProspectWorkbook(
    prospectSummary({ listed: 60 }),
    prospectRows(60),
    suppressedRows(30),
    join(dir, 'list.xlsx'),
  );
  wb = await openWorkbook(result.path);
  // Long names and reasons (the fixture's long rows): they wrap and their rows grow.
  printPath = join(dir, 'print.xlsx');
  await writeProspectWorkbook(
    prospectSummary({ listed: 60 }),
    prospectRows(60, true),
    suppressedRows(5),
    printPath,
  );
  [loPdf, printPdf] = (await sofficeConvertMany([result.path, printPath], 'pdf', join(dir, 'lo'))) as [
    string,
    string,
  ];
  // The workbooks' writes and one LibreOffice start converting both, on a busy machine.
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeProspectWorkbook', () => {
  it("writes Summary first (its charts' data on Chart data), then Prospects, Suppressed and Sources, with every row", () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'Summary',
      'Chart data',
      'Prospects',
      'Suppressed',
      'Sources',
    ]);
    // Native charts alone by default: no chart pictures (a printout shows each chart once).
    // The fixture's stored answers: 2 briefs, 15 pages, 60 profiles (the rows enriched).
    expect(result).toMatchObject({ rows: 60, suppressed: 30, images: 0, sources: 77 });
    expect(wb.getWorksheet('Prospects')?.rowCount).toBe(61);
    expect(wb.getWorksheet('Suppressed')?.rowCount).toBe(31);
  });

  it('freezes the header and puts a filter over the rows of both lists', () => {
    for (const [name, last] of [
      ['Prospects', 'AC61'],
      ['Suppressed', 'F31'],
    ] as const) {
      const ws = wb.getWorksheet(name)!;
      expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1, topLeftCell: 'A2' });
      expect(ws.autoFilter).toBe(`A1:${last}`);
      expect(ws.getCell('A1').font?.bold).toBe(true);
    }
  });

  it('writes amounts, scores and dates as numbers and dates with formats, lists joined by "; "', () => {
    const ws = wb.getWorksheet('Prospects')!;
    const row = ws.getRow(7); // rank 6: every field given
    const cell = (h: string) => row.getCell(column(ws, h));
    expect(cell('Rank').value).toBe(6);
    expect(cell('Total raised (USD)').value).toBe(2_500_000);
    expect(cell('Total raised (USD)').numFmt).toBe('$#,##0');
    expect(cell('Fit').value).toBeCloseTo(0.938);
    expect(cell('Fit').numFmt).toBe('0.0%');
    expect(cell('Momentum').value).toBe((6 * 37) % 101);
    expect(cell('Last round').value).toEqual(new Date('2025-07-15T00:00:00Z'));
    expect(cell('Last round').numFmt).toBe('yyyy-mm-dd');
    expect(cell('Founded').value).toBe(2021);
    expect(cell('Founded').numFmt).toBe('0');
    expect(cell('Why').value).toBe('Processes card payments (6); Hiring a payments team');
    // Which briefs and searches found it (Found by), apart from the stored answers it was read
    // from (Source: ids of the Sources sheet, runs of ids joined).
    expect(cell('Found by').value).toBe('brief 1; search 1');
    expect(cell('Source').value).toBe('S1, S3, S23');
    expect(() => column(ws, 'Sources')).toThrow();
  });

  it("names each row's stored answers in its Source column, each a row of the Sources sheet", () => {
    const sources = wb.getWorksheet('Sources')!;
    expect(sources.getRow(1).values).toEqual([
      undefined,
      'Source',
      'Operation',
      'Parameters',
      'Fetched at (UTC)',
      'Credits',
      'HTTP status',
      'Records',
      'Store reference',
    ]);
    const listed = new Map<string, string>();
    for (let r = 2; r <= sources.rowCount; r++)
      listed.set(sources.getCell(r, 1).text, sources.getCell(r, 2).text);
    expect(listed.size).toBe(77);
    expect(sources.getRow(2).values).toEqual([
      undefined,
      'S1',
      'find_customers',
      'brief=Automated reconciliation for payment companies in DACH; limit=30',
      '2026-11-23T06:00:00.000Z',
      3,
      200,
      30,
      `runs/${FIXTURE_RUN}/customers/brief-1.json`,
    ]);
    const expand = (span: string) =>
      span.split(', ').flatMap((part) => {
        const [a, b] = part.split('–').map((x) => Number(x.slice(1)));
        return Array.from({ length: (b ?? a!) - a! + 1 }, (_, k) => `S${a! + k}`);
      });
    for (const name of ['Prospects', 'Suppressed']) {
      const ws = wb.getWorksheet(name)!;
      const col = column(ws, 'Source');
      for (let r = 2; r <= ws.rowCount; r++) {
        const span = ws.getCell(r, col).text;
        // The two rows the service gave a name for and nothing else came from no answer here.
        if (span === '') continue;
        for (const id of expand(span)) expect(listed.has(id), `${name} row ${r}: ${id}`).toBe(true);
      }
    }
    // A row found by a brief and a search and enriched: the brief's answer, the search's page
    // and its profile.
    const ws = wb.getWorksheet('Prospects')!;
    const ids = expand(ws.getRow(7).getCell(column(ws, 'Source')).text);
    expect(ids.map((id) => listed.get(id))).toEqual(['find_customers', 'search_startups', 'get_startup']);
  });

  it("says which figures the runner computed, and from which answers; the briefs' and searches' answers", () => {
    const texts = allCells(wb)
      .filter((c) => c.sheet === 'Summary')
      .map((c) => text(c.cell.value));
    const note = texts.find((t) => t.startsWith('Counts above'))!;
    expect(note).toContain(`${COMPUTED_BY_RUNNER} from the stored answers S1–S77 on the Sources sheet`);
    expect(note).toContain('Rank, Found by, Delivered on and Closed or acquired');
    expect(note).toContain("fit and momentum are the service's scores (find_customers)");
    expect(texts).toContain('Briefs and searches');
    expect(texts).not.toContain('Sources');
    expect(texts.some((t) => t.endsWith('Sources sheet: S3–S12'))).toBe(true);
    expect(texts.some((t) => t.endsWith('Sources sheet: S1'))).toBe(true);
  });

  it('links websites to http(s) urls only; the profile url is text (a link a row costs memory to the end)', () => {
    const ws = wb.getWorksheet('Prospects')!;
    const site = column(ws, 'Website');
    const profile = column(ws, 'Service profile');
    // The company's name links to its website too.
    expect(ws.getRow(7).getCell(column(ws, 'Company')).value).toMatchObject({
      text: 'Company 6 GmbH',
      hyperlink: 'https://company6.de/',
    });
    expect(ws.getRow(7).getCell(site).value).toMatchObject({
      text: 'https://company6.de',
      hyperlink: 'https://company6.de/',
    });
    expect(ws.getRow(7).getCell(profile).value).toBe('https://vis.example.com/startups/st_6');
    // A javascript: website is left out (the cell empty, never a link a reader could click),
    // and counted for the manifest.
    expect(ws.getRow(8).getCell(site).value).toBeNull();
    expect(result.urlsLeftOut).toBe(1);
  });

  it('stores formula-like names as inert text and keeps non-Latin names intact', () => {
    const ws = wb.getWorksheet('Prospects')!;
    const names = [2, 3, 4, 5].map((r) => ws.getRow(r).getCell(2));
    // The names link to the companies' websites: a link's text is as inert as a string.
    expect(names.map((c) => text(c.value))).toEqual([
      `'${FORMULA_NAME}`,
      `'${MINUS_NAME}`,
      CJK_NAME,
      ACCENT_NAME,
    ]);
    expect(names.every((c) => [ExcelJS.ValueType.String, ExcelJS.ValueType.Hyperlink].includes(c.type))).toBe(
      true,
    );
    expect(allCells(wb).filter(({ cell }) => cell.type === ExcelJS.ValueType.Formula)).toEqual([]);
    // No text anywhere starts like a formula: the list's founders and investors are quoted too.
    expect(formulaLikeCells(wb).map((u) => `${u.sheet}!${u.address}`)).toEqual([]);
    expect(text(ws.getRow(5).getCell(column(ws, 'Founders')).value)).toBe("'=cmd|x (CEO); Anna Müller (CTO)");
    expect(wb.getWorksheet('Suppressed')!.getCell('A2').value).toBe("'@SUM(A1:A9)");
  });

  it('writes a row whose optional fields are all null as empty cells', () => {
    const ws = wb.getWorksheet('Prospects')!;
    const row = ws.getRow(6); // rank 5
    expect(row.getCell(2).value).toBe('Nameonly Startup');
    for (const h of ['Domain', 'Website', 'Fit', 'Why', 'Last round', 'Founders', 'Service key'])
      expect(row.getCell(column(ws, h)).value, h).toBeNull();
    expect(row.getCell(column(ws, 'Enriched')).value).toBe('No');
  });

  it('puts the counts, sources, suppression stats, malformed rows, limits and five native charts on Summary', async () => {
    const ws = wb.getWorksheet('Summary')!;
    const texts = allCells(wb)
      .filter((c) => c.sheet === 'Summary')
      .map((c) => text(c.cell.value));
    expect(texts).toContain('DACH payments prospects');
    expect(texts).toContain('Companies listed');
    expect(texts.some((t) => t.startsWith('brief 1: Automated reconciliation'))).toBe(true);
    // The search's stages in words; its cap said once.
    expect(texts).toContain(
      'search 1: Germany, Austria, Switzerland · Finance & Blockchain · Seed, Series A',
    );
    expect(texts).toContain('12,345 matching · stopped at its cap of 1,000 · Sources sheet: S3–S12');
    expect(texts).toContain('hubspot-companies-export-2026-11-20.csv');
    expect(texts).toContain('line 12: no domain nor name ("=cmd|\' /C calc\'!A0")');
    expect(texts).toContain('search 1 stopped at its cap of 1,000 rows (12,345 matching).');
    // The run's figures under their own heading, last (an appendix, not among the key figures).
    const appendix = texts.indexOf('Appendix: the run');
    expect(appendix).toBeGreaterThan(texts.indexOf('Limits'));
    expect(texts.indexOf('Credits spent')).toBeGreaterThan(appendix);
    // No raisedWithin rule in this job: no row for its reasons.
    expect(texts.some((t) => /raisedWithin|raised within/.test(t))).toBe(false);
    // Native charts, no pictures: five chart parts, no image on the sheet.
    expect(ws.getImages()).toHaveLength(0);
    const zip = await JSZip.loadAsync(readFileSync(result.path));
    expect(Object.keys(zip.files).filter((p) => /^xl\/charts\/chart\d+\.xml$/.test(p))).toHaveLength(5);
    expect(Object.keys(zip.files).filter((p) => p.startsWith('xl/media/'))).toEqual([]);
  });

  it('draws the chart pictures too when the job asks (chartImages)', async () => {
    const summary = prospectSummary({ listed: 10 });
    const path = join(dir, 'pictures.xlsx');
    const out = await writeProspectWorkbook(
      { ...summary, job: { ...summary.job, chartImages: true } },
      prospectRows(10),
      suppressedRows(0),
      path,
    );
    expect(out.images).toBe(5);
    const images = (await openWorkbook(path)).getWorksheet('Summary')!.getImages();
    expect(images).toHaveLength(5);
    expect(images.every((i) => i.range.tl.nativeCol === 4)).toBe(true);
  });

  it('opens in LibreOffice (converted to PDF: the summary and the names are there)', () => {
    const out = execFileSync('pdftotext', ['-layout', loPdf, '-'], { encoding: 'utf8' });
    expect(out).toContain('DACH payments prospects');
    expect(out).toContain(ACCENT_NAME);
    expect(out).toContain(CJK_NAME);
    expect(out).toContain(`'${FORMULA_NAME}`);
    expect(out).toContain('Company 60 GmbH');
  });

  it('prints the Prospects sheet legibly: landscape, its header on every page, the columns a person reads, 7 pt at least, reasons whole', async () => {
    // The long rows' workbook (beforeAll), as LibreOffice printed it.
    const pdf = printPdf;
    const doc = await getDocumentProxy(new Uint8Array(readFileSync(pdf)));
    let prospectsPages = 0;
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const items = (await page.getTextContent()).items
        .flatMap((i) => ('str' in i ? [{ str: i.str, transform: i.transform as number[] }] : []))
        .filter((i) => i.str.trim() !== '');
      const words = items.map((i) => i.str).join(' ');
      // LibreOffice prints the sheet's name in each page's header, a text of its own.
      if (!items.some((i) => i.str.trim() === 'Prospects')) continue;
      prospectsPages++;
      const { width, height } = page.getViewport({ scale: 1 });
      expect(width, `page ${p}`).toBeGreaterThan(height);
      for (const h of ['Rank', 'Company', 'Country', 'Stage', 'Fit', 'Momentum', 'Why', 'Website'])
        expect(words, `page ${p}: ${h}`).toContain(h);
      // The print area ends with the columns a person reads: no keys, links or import columns.
      for (const h of ['Service key', 'Service profile', 'Founders', 'Description', 'Closed or acquired'])
        expect(words, `page ${p}: ${h}`).not.toContain(h);
      // Text at least 7 pt on paper: the size of each piece of text (its matrix's vertical scale).
      const smallest = Math.min(...items.map((i) => Math.hypot(i.transform[2]!, i.transform[3]!)));
      expect(smallest, `page ${p}`).toBeGreaterThanOrEqual(7);
    }
    expect(prospectsPages).toBeGreaterThanOrEqual(1);
    // Every reason is printed whole (the rows grew), and no row of the list is blank.
    const printed = execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    for await (const r of prospectRows(60, true))
      for (const w of r.why) expect(printed, `rank ${r.rank}`).toContain(w.replace(/\s+/g, ''));
    const ws = (await openWorkbook(printPath)).getWorksheet('Prospects')!;
    for (let r = 2; r <= 61; r++) expect(ws.getRow(r).getCell(1).value, `row ${r}`).toBe(r - 1);
  }, 120_000);

  it('removes the partial file when reading the rows fails', async () => {
    async function* failing(): AsyncGenerator<ProspectRow> {
      yield* prospectRows(3);
      throw new Error('store read failed');
    }
    const path = join(dir, 'failed.xlsx');
    await expect(
      writeProspectWorkbook(prospectSummary({ listed: 3 }), failing(), suppressedRows(0), path),
    ).rejects.toThrow('store read failed');
    expect(existsSync(path)).toBe(false);
  });
});

describe('writeProspectWorkbook of a list stored before sources were kept', () => {
  it('renders: the Sources sheet says why it lists none, the Source cells are empty', async () => {
    const path = join(dir, 'legacy.xlsx');
    const out = await writeProspectWorkbook(
      prospectSummary({ listed: 10, legacy: true }),
      legacyRows(prospectRows(10)),
      legacyRows(suppressedRows(4)),
      path,
      undefined,
      { runKey: FIXTURE_RUN },
    );
    expect(out).toMatchObject({ rows: 10, suppressed: 4, sources: 0 });
    const book = await openWorkbook(path);
    expect(book.worksheets.map((w) => w.name)).toEqual([
      'Summary',
      'Chart data',
      'Prospects',
      'Suppressed',
      'Sources',
    ]);
    const sources = book.getWorksheet('Sources')!;
    expect(sources.getCell(2, 1).value).toBe(noSourcesNote(FIXTURE_RUN));
    expect(sources.rowCount).toBe(2);
    for (const name of ['Prospects', 'Suppressed']) {
      const ws = book.getWorksheet(name)!;
      const col = column(ws, 'Source');
      for (let r = 2; r <= ws.rowCount; r++) expect(ws.getCell(r, col).value, `${name} ${r}`).toBeNull();
    }
    const note = allCells(book)
      .filter((c) => c.sheet === 'Summary')
      .map((c) => text(c.cell.value))
      .find((t) => t.startsWith('Counts above'));
    expect(note).toContain("from the run's stored answers (this run was made before its report listed them");
  });
});

describe('writeProspectWorkbook with 20,000 rows', () => {
  it('streams every row to the Prospects sheet', async () => {
    const path = join(dir, 'big.xlsx');
    const started = Date.now();
    const out = await writeProspectWorkbook(
      prospectSummary({ listed: 20_000 }),
      prospectRows(20_000),
      suppressedRows(500),
      path,
    );
    const ms = Date.now() - started;
    expect(out.rows).toBe(20_000);
    // Read back with the streaming reader: the row count without loading the sheet whole.
    let rows = 0;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {});
    for await (const sheet of reader) {
      const name = (sheet as unknown as { name: string }).name;
      for await (const _row of sheet) if (name === 'Prospects') rows++;
    }
    expect(rows).toBe(20_001);
    console.log(`[prospect workbook] 20,000 rows written in ${ms} ms`);
  }, 120_000);
});
