import { describe, expect, it } from 'vitest';
import {
  cellValue,
  safeText,
  safeUrl,
  safeValue,
  sanitizeHeaders,
  sanitizeSheetName,
  sanitizeTableName,
  ReportWorkbook,
} from '../../reports/excel/index.js';
import { webUrl } from '../../reports/web-url.js';
import { safeFileName } from '../../lib/names.js';
import {
  formatDuration,
  formatPct,
  formatUsd,
  HEADLINE_MAX_CHARS,
  headlineText,
  pctChange,
  truncateToLength,
} from '../../reports/format.js';
import { measureText, truncateToWidth, wrapText } from '../../reports/fonts.js';

describe('safeText (formula injection)', () => {
  it('prefixes a quote to text starting with = + - @ tab CR LF and leaves other text alone', () => {
    for (const t of [
      '=HYPERLINK("http://x","y")',
      '+Plus Capital',
      '-Minus Ventures',
      '@Home Angels',
      '\tTab',
      '\rCR',
      '\nLF',
    ]) {
      expect(safeText(t)).toBe(`'${t}`);
    }
    for (const t of ['Acme', 'Société Générale Ventures', '北京资本', "'quoted", '', ' =space first'])
      expect(safeText(t)).toBe(t);
  });

  it('keeps numbers numbers and makes other values safe strings', () => {
    expect(safeValue(-12.5)).toBe(-12.5);
    expect(safeValue(Number.NaN)).toBeNull();
    expect(safeValue(true)).toBe(true);
    expect(safeValue(['=a', 'b'])).toBe("'=a, b");
    expect(safeValue({ f: 1 })).toBe('{"f":1}');
    expect(cellValue('12.5', 'pct')).toBeCloseTo(0.125);
    expect(cellValue('1200', 'usd')).toBe(1200);
    expect(cellValue('-3', 'text')).toBe("'-3");
  });

  it('accepts only absolute http(s) urls', () => {
    expect(safeUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeUrl('http://example.com')).toBe('http://example.com/');
    for (const u of ['javascript:alert(1)', 'file:///etc/passwd', 'mailto:a@b.c', '/relative', '', null, 42])
      expect(safeUrl(u)).toBeNull();
  });
});

describe('URL cells', () => {
  it('hold an http(s) URL or nothing; a bare host name gets https://', () => {
    expect(webUrl(' https://acme.io/a?b=1 ')).toBe('https://acme.io/a?b=1');
    expect(webUrl('HTTP://ACME.IO')).toBe('HTTP://ACME.IO');
    expect(webUrl('acme.io')).toBe('https://acme.io');
    expect(webUrl('münchen-startup.de')).toBe('https://münchen-startup.de');
    for (const u of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'mailto:a@b.c',
      'https:acme.io',
      'https://u:p@acme.io',
      '//acme.io',
      '/relative',
      'acme',
      'not a url at all',
      '',
      null,
      42,
    ])
      expect(webUrl(u), String(u)).toBeNull();
    expect(cellValue('javascript:alert(1)', 'url')).toBeNull();
    expect(cellValue('https://acme.io', 'url')).toBe('https://acme.io');
  });

  it('a workbook table leaves a non-http(s) URL cell empty, never a link, and counts it', async () => {
    const book = new ReportWorkbook();
    const ws = book.addSheet('Sites');
    book.addDataTable(ws, {
      name: 'Sites',
      columns: [
        { header: 'Name', key: 'name' },
        { header: 'URL', key: 'url', kind: 'url' },
      ],
      rows: [
        { name: 'ok', url: 'https://acme.io' },
        { name: 'evil', url: 'javascript:alert(1)' },
        { name: 'none', url: null },
      ],
    });
    expect(book.urls.leftOut).toBe(1);
    expect(ws.getCell('B2').value).toMatchObject({ hyperlink: 'https://acme.io/' });
    expect(ws.getCell('B3').value).toBeNull();
    expect(ws.getCell('B4').value).toBeNull();
  });
});

describe('Excel names', () => {
  it('sanitises sheet names to 31 characters without []:*?/\\ and makes them unique', () => {
    const used = new Set<string>();
    expect(sanitizeSheetName('Q1/Q2 [draft]: *what?*', used)).toBe('Q1 Q2 draft what');
    const long = 'A'.repeat(40);
    const a = sanitizeSheetName(long, used);
    const b = sanitizeSheetName(long, used);
    expect(a).toHaveLength(31);
    expect(b).toHaveLength(31);
    expect(b.endsWith('(2)')).toBe(true);
    expect(sanitizeSheetName("'''", used)).toBe('Sheet');
    expect(sanitizeSheetName('history')).toBe('Sheet');
    expect(sanitizeSheetName('germany', new Set(['germany']))).toBe('germany (2)');
  });

  it('sanitises table names: no spaces, starts with a letter, not a cell reference, unique', () => {
    const used = new Set<string>();
    expect(sanitizeTableName('United Kingdom By Year', used)).toBe('United_Kingdom_By_Year');
    expect(sanitizeTableName('United Kingdom By Year', used)).toBe('United_Kingdom_By_Year_2');
    expect(sanitizeTableName('2024 rounds')).toBe('T_2024_rounds');
    expect(sanitizeTableName('A1')).toBe('T_A1');
    expect(sanitizeTableName('R1C1')).toBe('T_R1C1');
    expect(sanitizeTableName('Société')).toBe('Societe');
    expect(sanitizeTableName('北京')).toMatch(/^[A-Za-z_][A-Za-z0-9_.]*$/);
  });

  it('makes table headers single-line, non-empty, unique and safe', () => {
    expect(sanitizeHeaders(['Deals\tby\nyear', '', 'Name', 'name', '=SUM(A1)'])).toEqual([
      'Deals by year',
      'Column 2',
      'Name',
      'name 2',
      "'=SUM(A1)",
    ]);
  });
});

describe('safeFileName', () => {
  it('is ASCII, has no separators or leading dots, is capped and never empty', () => {
    expect(safeFileName('Weekly: DACH / Nordics')).toBe('Weekly-DACH-Nordics');
    expect(safeFileName('../../etc/passwd')).toBe('etc-passwd');
    expect(safeFileName('.hidden')).toBe('hidden');
    expect(safeFileName('Société Générale')).toBe('Societe-Generale');
    expect(safeFileName('北京资本')).toBe('report');
    expect(safeFileName('')).toBe('report');
    expect(safeFileName('CON')).toBe('report-CON');
    expect(safeFileName('x'.repeat(300))).toHaveLength(80);
    expect(safeFileName('a\\b\u0000c')).toBe('a-b-c');
  });
});

describe('formats and text fitting', () => {
  it('formats money, percentages, changes and durations', () => {
    expect(formatUsd(980)).toBe('$980');
    expect(formatUsd(12_300)).toBe('$12.3K');
    expect(formatUsd(1_250_000)).toBe('$1.25M');
    expect(formatUsd(31_700_000_000)).toBe('$31.7B');
    expect(formatUsd(-2_000_000)).toBe('-$2M');
    expect(formatUsd(null)).toBe('—');
    expect(formatPct(12.46, true)).toBe('+12.5%');
    expect(formatPct(-3, true)).toBe('-3%');
    expect(pctChange(110, 100)).toBeCloseTo(10);
    expect(pctChange(1, 0)).toBeNull();
    expect(formatDuration(83_400)).toBe('1m 23s');
  });

  it('truncates and wraps to a width measured with the real font', () => {
    const long = 'Passion Capital with an Unusually Long Fund Name Limited Partnership';
    const cut = truncateToWidth(long, 100, 10);
    expect(cut.endsWith('…')).toBe(true);
    expect(measureText(cut, 10)).toBeLessThanOrEqual(100);
    // Cut between words, never inside one, and no dangling punctuation before the ellipsis.
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(long[cut.length - 1]).toBe(' ');
    expect(truncateToWidth('next round Series A: in the thesis stages (seed, Series A)', 150, 8)).toMatch(
      /[a-z)]…$/,
    );
    expect(truncateToWidth('next round Series A: in the thesis stages', 150, 8)).not.toMatch(/ st…$/);
    // A single long word is still cut where it must be.
    expect(truncateToWidth('Supercalifragilisticexpialidocious', 60, 10)).toMatch(/^Super\S*…$/);
    // The same cut by length, for text that is not drawn (a message's headline).
    expect(truncateToLength(long, 30)).toBe('Passion Capital with an…');
    expect(truncateToLength('Supercalifragilisticexpialidocious', 10)).toBe('Supercali…');
    expect(truncateToLength('short', 5)).toBe('short');
    expect(truncateToLength('a: b', 3)).toBe('a…');
    const headline = headlineText(`${'word '.repeat(100)}\nend`);
    expect(headline).not.toMatch(/\n/);
    expect(Array.from(headline).length).toBeLessThanOrEqual(HEADLINE_MAX_CHARS);
    expect(headline).toMatch(/word…$/);
    expect(headlineText(' one\n line ')).toBe('one line');
    const lines = wrapText(long, 120, 9, { maxLines: 2 });
    expect(lines).toHaveLength(2);
    expect(lines[1]?.endsWith('…')).toBe(true);
    for (const l of lines) expect(measureText(l, 9)).toBeLessThanOrEqual(120);
    expect(wrapText('short', 120, 9)).toEqual(['short']);
    const word = wrapText('Supercalifragilisticexpialidocious', 40, 9);
    expect(word.length).toBeGreaterThan(1);
    for (const l of word) expect(measureText(l, 9)).toBeLessThanOrEqual(40);
    expect(wrapText('a\nb', 100, 9)).toEqual(['a', 'b']);
  });
});
