/**
 * The editorial-rules checker (test/helpers/editorial-rules.ts) on small files built with the
 * project's own writers (ReportPdf, ReportWorkbook, writeCsvFiles): a clean set passes, and each
 * rule, broken once, is reported with its file, its page or cell and its text, and only it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCsvFiles } from '../../reports/csv.js';
import { ReportWorkbook } from '../../reports/excel/index.js';
import type { DataColumn } from '../../reports/excel/index.js';
import { ReportPdf } from '../../reports/pdf/index.js';
import type { ChartImage, TableColumn } from '../../reports/pdf/index.js';
import { editorialViolations, parseCsv, privateUrls, rawStageKey } from '../helpers/editorial-rules.js';
import type { EditorialInput, Violation } from '../helpers/editorial-rules.js';

const dir = mkdtempSync(join(tmpdir(), 'editorial-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AS_OF = '2026-11-26';
const LOOPBACK = 'http://127.0.0.1:8787/view/country/de';
const CREATED = new Date('2026-11-26T06:00:00Z');

/** A chart of `height` points at the content width. */
const chart = (height: number): ChartImage => ({
  svg:
    `<svg xmlns="http://www.w3.org/2000/svg" width="495" height="${height}">` +
    `<rect width="495" height="${height}" fill="#1f4e79"/>` +
    `<text x="20" y="30" font-size="14" fill="#fff">2024 2025 2026 YTD axis labels inside the chart</text></svg>`,
  width: 495,
  height,
  alt: 'Deals by year',
});

const PROSE =
  'The week closed 42 rounds for $1.2B of capital in Germany, against 37 rounds the week before; ' +
  'the table below lists them by stage and the chart plots the same capital by year, as the ' +
  'service reported it on 26 Nov 2026 for rounds dated in the period.';

/** What a PDF may break, one thing each. */
interface PdfBreak {
  link?: string;
  printedUrl?: string;
  stageKey?: boolean;
  cutWhy?: boolean;
  bareYear?: boolean;
  loneChart?: boolean;
}

const COLUMNS: TableColumn[] = [
  { header: 'Year', width: 1 },
  { header: 'Stage', width: 1 },
  { header: 'Deals', width: 1, align: 'right' },
  { header: 'Why', width: 3 },
];

const LONG_WHY =
  'Raised a Series A of $23M led by Northzone in March, hiring a head of sales in Berlin, and ' +
  'opening a second office; fits the thesis on payments infrastructure for mid-sized retailers.';

async function pdfFile(name: string, b: PdfBreak = {}): Promise<string> {
  const pdf = new ReportPdf({ title: 'Rules', creationDate: CREATED, coverPage: false });
  pdf.heading('Deals this week', 1);
  pdf.paragraph(PROSE);
  pdf.paragraph('Company website', { link: b.link ?? 'https://acme.example.com' });
  if (b.printedUrl) pdf.paragraph(`Open the country view at ${b.printedUrl} for the details.`);
  const rows = [
    [
      b.bareYear ? '2026' : '2026 YTD',
      b.stageKey ? 'series-a' : 'Series A',
      '42',
      'Closed its round in March.',
    ],
    ['2025', 'Seed', '37', LONG_WHY],
  ];
  // A why cut to one line ends in "…"; the clean table lets it wrap.
  pdf.table(COLUMNS, rows, { maxLines: b.cutWhy ? 1 : 6 });
  pdf.paragraph(PROSE);
  pdf.chart(chart(260), { caption: 'Deals by year (rounds dated in each year)' });
  pdf.paragraph(PROSE);
  pdf.paragraph(PROSE);
  if (b.loneChart) {
    pdf.newPage();
    pdf.chart(chart(300), { caption: 'Capital by year' });
  }
  const path = join(dir, `${name}.pdf`);
  await pdf.writeTo(path);
  return path;
}

/** What a workbook may break, one thing each. */
interface BookBreak {
  loopbackCell?: boolean;
  loopbackLink?: boolean;
  stageKey?: boolean;
  cutWhy?: boolean;
  bareYear?: boolean;
}

const BOOK_COLUMNS: DataColumn[] = [
  { header: 'Company', key: 'company', linkKey: 'site' },
  { header: 'Year', key: 'year' },
  { header: 'Stage', key: 'stage' },
  { header: 'Service key', key: 'stageKey' },
  { header: 'Why', key: 'why', wrap: true },
  { header: 'Profile', key: 'profile' },
];

async function workbookFile(name: string, b: BookBreak = {}): Promise<string> {
  const book = new ReportWorkbook();
  const ws = book.addSheet('Deals');
  book.addDataTable(ws, {
    name: 'Deals',
    columns: BOOK_COLUMNS,
    rows: [
      {
        company: 'Acme',
        site: b.loopbackLink ? LOOPBACK : 'https://acme.example.com',
        year: b.bareYear ? 2026 : '2026 YTD',
        stage: b.stageKey ? 'series-a' : 'Series A',
        stageKey: 'series-a',
        why: b.cutWhy ? 'Raised a Series A of $23M led by…' : LONG_WHY,
        profile: b.loopbackCell ? LOOPBACK : 'https://vis.example.com/startups/acme',
      },
      {
        company: 'Beta',
        site: null,
        year: 2025,
        stage: 'Seed',
        stageKey: 'seed',
        why: 'Hiring.',
        profile: '',
      },
    ],
  });
  const path = join(dir, `${name}.xlsx`);
  await book.writeTo(path);
  return path;
}

interface CsvRow {
  name: string;
  why: string;
  profile: string;
}

async function csvFile(name: string, b: { loopback?: boolean; cutWhy?: boolean } = {}): Promise<string> {
  const rows: CsvRow[] = [
    {
      name: 'Acme',
      why: b.cutWhy ? 'Raised a Series A of $23M...' : LONG_WHY,
      profile: b.loopback ? LOOPBACK : 'https://vis.example.com/startups/acme',
    },
  ];
  const { files } = await writeCsvFiles(
    rows,
    [
      { header: 'Company name', kind: 'text', value: (r) => r.name },
      { header: 'Why', kind: 'text', value: (r) => r.why },
      { header: 'Service profile', kind: 'text', value: (r) => r.profile },
    ],
    { dir, base: name },
  );
  return files[0]!;
}

const OPTIONS: Omit<EditorialInput, 'asOf'> = {
  machineColumns: ['Service key'],
  fullTextColumns: ['Why', /^analyst note$/i, /^founders/i, /investors/i],
};

const check = (files: Pick<EditorialInput, 'pdf' | 'workbook' | 'csv'>, asOf = AS_OF) =>
  editorialViolations({ asOf, ...OPTIONS, ...files });

const rules = (v: Violation[]) => [...new Set(v.map((x) => x.rule))];

describe('editorialViolations', () => {
  let clean: { pdf: string; workbook: string; csv: string[] };

  it('passes a clean PDF, workbook and CSV', async () => {
    clean = {
      pdf: await pdfFile('clean'),
      workbook: await workbookFile('clean'),
      csv: [await csvFile('clean')],
    };
    expect(await check(clean)).toEqual([]);
  });

  it('reports a loopback link annotation and a printed loopback URL in the PDF, with their page', async () => {
    const link = await check({ pdf: await pdfFile('link', { link: LOOPBACK }) });
    expect(link).toEqual([{ rule: 'private-url', file: 'link.pdf', where: 'page 1, link', text: LOOPBACK }]);
    const printed = await check({
      pdf: await pdfFile('printed', { printedUrl: 'http://192.168.1.20/view/x' }),
    });
    expect(printed).toEqual([
      { rule: 'private-url', file: 'printed.pdf', where: 'page 1', text: 'http://192.168.1.20/view/x' },
    ]);
  });

  it('reports a loopback URL in a workbook cell, in a workbook hyperlink and in a CSV cell', async () => {
    const cell = await check({ workbook: await workbookFile('cell', { loopbackCell: true }) });
    expect(cell).toEqual([{ rule: 'private-url', file: 'cell.xlsx', where: 'Deals!F2', text: LOOPBACK }]);
    const link = await check({ workbook: await workbookFile('hyperlink', { loopbackLink: true }) });
    expect(link).toEqual([
      { rule: 'private-url', file: 'hyperlink.xlsx', where: 'Deals!A2', text: LOOPBACK },
    ]);
    const csv = await check({ csv: [await csvFile('loopback', { loopback: true })] });
    expect(csv).toEqual([
      { rule: 'private-url', file: 'loopback.csv', where: 'row 2, Service profile', text: LOOPBACK },
    ]);
  });

  it('reports a raw stage key in a PDF table and a workbook cell, not in a machine column', async () => {
    const pdf = await check({ pdf: await pdfFile('stage', { stageKey: true }) });
    expect(rules(pdf)).toEqual(['raw-stage-key']);
    expect(pdf).toHaveLength(1);
    expect(pdf[0]!.text).toContain('series-a');
    const book = await check({ workbook: await workbookFile('stage', { stageKey: true }) });
    // The "Service key" column holds series-a in the clean workbook too: a machine column.
    expect(book).toEqual([
      { rule: 'raw-stage-key', file: 'stage.xlsx', where: 'Deals!C2', text: 'series-a' },
    ]);
  });

  it('reports a why cut with "…" in the PDF, the workbook and the CSV', async () => {
    const pdf = await check({ pdf: await pdfFile('cut', { cutWhy: true }) });
    expect(rules(pdf)).toEqual(['cut-text']);
    expect(pdf[0]!.text).toMatch(/…$/);
    const book = await check({ workbook: await workbookFile('cut', { cutWhy: true }) });
    expect(book).toEqual([
      { rule: 'cut-text', file: 'cut.xlsx', where: 'Deals!E2', text: 'Raised a Series A of $23M led by…' },
    ]);
    const csv = await check({ csv: [await csvFile('cut', { cutWhy: true })] });
    expect(csv).toEqual([
      { rule: 'cut-text', file: 'cut.csv', where: 'row 2, Why', text: 'Raised a Series A of $23M...' },
    ]);
  });

  it('lets a PDF line hold "…" when the caller allows it', async () => {
    const path = await pdfFile('cut-allowed', { cutWhy: true });
    const v = await editorialViolations({ asOf: AS_OF, ...OPTIONS, pdf: path, pdfEllipsisAllowed: [/Seed/] });
    expect(v).toEqual([]);
  });

  it('reports a bare 2026 row while the data is as of 26 Nov 2026, not once the year is whole', async () => {
    const pdfPath = await pdfFile('year', { bareYear: true });
    const bookPath = await workbookFile('year', { bareYear: true });
    const v = await check({ pdf: pdfPath, workbook: bookPath });
    expect(v.map((x) => [x.rule, x.file, x.where])).toEqual([
      ['partial-year', 'year.pdf', 'page 1'],
      ['partial-year', 'year.xlsx', 'Deals!B2'],
    ]);
    expect(v[0]!.text).toMatch(/^2026\s{2,}Series A/);
    // On 31 Dec the year is whole: a bare 2026 is right.
    expect(await check({ pdf: pdfPath, workbook: bookPath }, '2026-12-31')).toEqual([]);
  });

  it('reports a page whose only content is one chart, and not a chart with its text', async () => {
    const v = await check({ pdf: await pdfFile('lone', { loneChart: true }) });
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ rule: 'lone-chart', file: 'lone.pdf', where: 'page 2' });
    expect(v[0]!.text).toBe('one chart and 0 other words: Deals by year');
  });
});

describe('the checker’s text rules', () => {
  it('finds private URLs in text, bare local hosts with a port or a path, and not public ones', () => {
    expect(privateUrls('see http://127.0.0.1:8787/view/x, or localhost:3000.')).toEqual([
      'http://127.0.0.1:8787/view/x',
      'localhost:3000',
    ]);
    expect(privateUrls('10.0.0.5/view and https://app.vis.internal/x')).toEqual([
      '10.0.0.5/view',
      'https://app.vis.internal/x',
    ]);
    expect(privateUrls('https://acme.io/a version 1.2.3.4 and 26 Nov 2026')).toEqual([]);
    // A one-label host in printed text is data (a name such as =HYPERLINK("http://x","y")).
    expect(privateUrls('=HYPERLINK("http://x","y") and http://localhost/x')).toEqual(['http://localhost/x']);
  });

  it('finds stage keys as words of their own, not inside URLs or longer keys', () => {
    expect(rawStageKey('Round: series-d-plus')).toBe('series-d-plus');
    expect(rawStageKey('Series A, Series D+')).toBeNull();
    // The word for pre-seed is spelt like its key but for its capital: the word is right.
    expect(rawStageKey('Pre-seed')).toBeNull();
    expect(rawStageKey('a pre-seed round')).toBe('pre-seed');
    expect(rawStageKey('https://vis.example.com/search?stage=series-a')).toBeNull();
  });

  it('parses quoted CSV fields with commas, quotes and line breaks', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi""\nthere"\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"\nthere'],
    ]);
  });
});
