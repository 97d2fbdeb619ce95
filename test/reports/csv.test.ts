/**
 * The CSV writer read back by a real CSV parser (csv-parse, not our code): RFC 4180 quoting,
 * formulas made inert, numbers kept as numbers, non-Latin text intact, the BOM only when asked,
 * and the split at the row limit with the header in every file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, expect, test } from 'vitest';
import { csvCell, neutraliseText, writeCsvFiles, type CsvColumn } from '../../reports/csv.js';

const dir = mkdtempSync(join(tmpdir(), 'vir-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  name: string;
  employees: number | null;
  founded: string;
  tags: string[];
}
const COLUMNS: CsvColumn<Row>[] = [
  { header: 'Company name', kind: 'text', value: (r) => r.name },
  { header: 'Employees', kind: 'number', value: (r) => r.employees },
  { header: 'Founded', kind: 'date', value: (r) => r.founded },
  { header: 'Tags', kind: 'list', value: (r) => r.tags },
];

const read = (path: string) =>
  parse<Record<string, string>>(readFileSync(path), { bom: true, columns: true });

test('cells that a spreadsheet would run are made inert; numbers stay numbers', () => {
  expect(neutraliseText('=HYPERLINK("http://x","y")')).toBe(`'=HYPERLINK("http://x","y")`);
  expect(neutraliseText('-2+3')).toBe(`'-2+3`);
  for (const c of ['+1', '@SUM(A1)', '\tx', '\rx', '\nx'])
    expect(neutraliseText(c).startsWith("'")).toBe(true);
  expect(neutraliseText('Acme')).toBe('Acme');
  expect(csvCell('number', -5)).toBe(-5);
  expect(csvCell('number', 'n/a')).toBe('');
  expect(csvCell('date', '2024-05-01')).toBe('2024-05-01');
  expect(csvCell('list', ['a', 'b;c', ''])).toBe('a;b,c');
});

test('rows read back by csv-parse as they were, quoting and non-Latin text intact', async () => {
  const rows: Row[] = [
    { name: '=HYPERLINK("http://x","y")', employees: 12, founded: '2021-03-04', tags: ['AI', 'B2B'] },
    { name: '-2+3', employees: null, founded: '2019-01-01', tags: [] },
    { name: 'Çà, "quoted"\nnewline', employees: 3, founded: '2020-02-02', tags: ['x'] },
    { name: '北京科技 / Тест / مرحبا', employees: 7, founded: '2018-06-30', tags: ['fintech'] },
  ];
  const out = await writeCsvFiles(rows, COLUMNS, { dir, base: 'plain' });
  expect(out.files).toEqual([join(dir, 'plain.csv')]);
  const bytes = readFileSync(out.files[0]!);
  expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
  expect(bytes.toString('utf8')).toContain('\r\n');
  const back = read(out.files[0]!);
  expect(back.map((r) => r['Company name'])).toEqual([
    `'=HYPERLINK("http://x","y")`,
    `'-2+3`,
    'Çà, "quoted"\nnewline',
    '北京科技 / Тест / مرحبا',
  ]);
  expect(back.map((r) => r.Employees)).toEqual(['12', '', '3', '7']);
  expect(back[0]!.Tags).toBe('AI;B2B');
  expect(back[0]!.Founded).toBe('2021-03-04');
});

test('a BOM when asked, and the split at the row limit with the header in every file', async () => {
  async function* many() {
    for (let i = 0; i < 2501; i++)
      yield { name: `Company ${i}`, employees: i, founded: '2020-01-01', tags: [] };
  }
  const out = await writeCsvFiles(many(), COLUMNS, { dir, base: 'split', rowLimit: 1000, bom: true });
  expect(out.rows).toBe(2501);
  expect(out.files.map((f) => f.slice(dir.length + 1))).toEqual([
    'split-001.csv',
    'split-002.csv',
    'split-003.csv',
  ]);
  const counts = out.files.map((f) => read(f).length);
  expect(counts).toEqual([1000, 1000, 501]);
  for (const f of out.files)
    expect(
      readFileSync(f)
        .subarray(0, 3)
        .equals(Buffer.from([0xef, 0xbb, 0xbf])),
    ).toBe(true);
  expect(read(out.files[2]!).at(-1)!['Company name']).toBe('Company 2500');
});

test('an empty list is one file with its header only', async () => {
  const out = await writeCsvFiles([], COLUMNS, { dir, base: 'empty' });
  expect(out.rows).toBe(0);
  expect(readFileSync(out.files[0]!, 'utf8').trim()).toBe('Company name,Employees,Founded,Tags');
});

test('URL cells hold http(s) URLs only: anything else is left empty and counted', async () => {
  interface Site {
    name: string;
    site: unknown;
  }
  const columns: CsvColumn<Site>[] = [
    { header: 'Company name', kind: 'text', value: (r) => r.name },
    { header: 'Website URL', kind: 'url', value: (r) => r.site },
  ];
  const rows: Site[] = [
    { name: 'plain', site: 'https://acme.io/about?x=1' },
    { name: 'http', site: ' http://beta.io ' },
    { name: 'domain', site: 'gamma.de' },
    { name: 'script', site: 'javascript:alert(1)' },
    { name: 'script upper', site: ' JavaScript:alert(document.cookie)' },
    { name: 'data', site: 'data:text/html,<script>alert(1)</script>' },
    { name: 'file', site: 'file:///etc/passwd' },
    { name: 'formula', site: '=HYPERLINK("http://x","y")' },
    { name: 'words', site: 'not a url at all' },
    { name: 'no scheme slashes', site: 'https:acme.io' },
    { name: 'credentials', site: 'https://user:pw@acme.io' },
    { name: 'none', site: null },
    { name: 'blank', site: '  ' },
  ];
  const out = await writeCsvFiles(rows, columns, { dir, base: 'urls' });
  const back = read(out.files[0]!);
  expect(Object.fromEntries(back.map((r) => [r['Company name'], r['Website URL']]))).toEqual({
    plain: 'https://acme.io/about?x=1',
    http: 'http://beta.io',
    domain: 'https://gamma.de',
    script: '',
    'script upper': '',
    data: '',
    file: '',
    formula: '',
    words: '',
    'no scheme slashes': '',
    credentials: '',
    none: '',
    blank: '',
  });
  // Eight values were not URLs; empty ones are not counted.
  expect(out.urlsLeftOut).toBe(8);
  // Every non-empty URL cell a CRM could link is an http(s) URL.
  for (const r of back) if (r['Website URL']) expect(r['Website URL']).toMatch(/^https?:\/\/[^\s]+$/);
});
