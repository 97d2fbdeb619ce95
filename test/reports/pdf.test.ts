import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderChart } from '../../reports/charts/index.js';
import { ReportPdf } from '../../reports/pdf/index.js';

const dir = mkdtempSync(join(tmpdir(), 'pdf-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pdftotext(path: string, page?: number): string {
  const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  return execFileSync('pdftotext', ['-layout', ...range, path, '-'], { encoding: 'utf8' });
}

function pageCount(path: string): number {
  const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
  return Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
}

describe('ReportPdf', () => {
  it('breaks a long table across pages with the header repeated, numbers pages and adds no blank page', async () => {
    const pdf = new ReportPdf({ title: 'Table test', creationDate: new Date('2025-01-01T00:00:00Z') });
    pdf.cover({ title: 'Table test', subtitle: 'Subtitle' });
    pdf.reserveContents(2);
    pdf.heading('Long table', 1);
    const rows = Array.from({ length: 120 }, (_, i) => [
      `Row ${i + 1}`,
      `A cell with a rather long text that has to wrap onto a second line and then be cut, because it goes on and on and on well beyond two lines of this column ${i}`,
      String(i * 10),
    ]);
    pdf.table(
      [{ header: 'Name' }, { header: 'Description', width: 3 }, { header: 'Value', align: 'right' }],
      rows,
    );
    const path = join(dir, 'table.pdf');
    const pages = await pdf.writeTo(path);
    expect(pageCount(path)).toBe(pages);
    expect(pages).toBeGreaterThan(4);
    const all = pdftotext(path);
    for (const i of [1, 60, 120]) expect(all).toContain(`Row ${i} `);
    // Every table page repeats the header and carries "Page i of n".
    for (let p = 3; p <= pages; p++) {
      const text = pdftotext(path, p);
      expect(text).toContain('Description');
      expect(text).toContain(`Page ${p} of ${pages}`);
      expect(text.trim().length).toBeGreaterThan(50);
    }
    // Cells were cut with an ellipsis rather than overflowing.
    expect(all).toContain('…');
    // Contents with the heading and its page number.
    expect(pdftotext(path, 2)).toMatch(/Long table[ .]*3/);
  });

  it('sizes the contents to its headings, so that no reserved page stays blank', () => {
    const build = (headings: number): ReportPdf => {
      const pdf = new ReportPdf({ title: 'Contents test' });
      pdf.reserveContentsPages(1);
      pdf.heading('Section', 1);
      for (let i = 0; i < headings; i++) pdf.heading(`Subsection ${i + 1}`, 2, { keepWith: 10 });
      return pdf;
    };
    expect(build(10).contentsPagesNeeded()).toBe(1);
    expect(build(40).contentsPagesNeeded()).toBe(1);
    expect(build(60).contentsPagesNeeded()).toBe(2);
    expect(build(60).contentsPageCount).toBe(1);
  });

  it('puts a table and a chart side by side in one row, and moves the row whole to the next page', async () => {
    const pdf = new ReportPdf({ title: 'Row test', creationDate: new Date('2025-01-01T00:00:00Z') });
    pdf.heading('Row', 1);
    const chart = await renderChart(
      {
        type: 'bar',
        title: 'Deals',
        xKey: 'year',
        series: ['deals'],
        data: [
          { year: 2024, deals: 3 },
          { year: 2025, deals: 5 },
        ],
      },
      { width: 330, height: 220 },
    );
    const columns = [{ header: 'Year' }, { header: 'Deals', align: 'right' as const }];
    const rows = [
      ['2024', '3'],
      ['2025', '5'],
    ];
    const cells = [
      { measure: () => pdf.measureTable(columns, rows), draw: () => pdf.table(columns, rows) },
      {
        measure: () => pdf.chartHeight(chart, { caption: 'Source: row test' }),
        draw: () => pdf.chart(chart, { caption: 'Source: row test' }),
      },
    ];
    const height = pdf.measureRow(cells);
    expect(height).toBeGreaterThan(100);
    expect(height).toBeLessThan(pdf.pageBody / 2);
    pdf.space(pdf.remaining - height + 5); // leave a little less room than the row needs
    const before = pdf.pageCount;
    pdf.row(cells);
    expect(pdf.pageCount).toBe(before + 1);
    const path = join(dir, 'row.pdf');
    await pdf.writeTo(path);
    const page = pdftotext(path, 2);
    // The table's first row and the chart's title share a line: side by side.
    expect(page.split('\n').some((l) => /Year\s+Deals\s+Deals/.test(l))).toBe(true);
    expect(page).toContain('Source: row test');
  });

  it('embeds DejaVu Sans, sets the title and draws vector charts', async () => {
    const pdf = new ReportPdf({ title: 'Chart test', creationDate: new Date('2025-01-01T00:00:00Z') });
    pdf.heading('Chart', 1);
    pdf.paragraph('A paragraph with Société Générale and =HYPERLINK("http://x","y").');
    pdf.keyFigures([{ label: 'Deals', value: '1,234', note: '+5% YoY', trend: 'up' }]);
    const chart = await renderChart({
      type: 'bar',
      title: 'Deals',
      xKey: 'year',
      series: ['deals'],
      data: [
        { year: 2024, deals: 3 },
        { year: 2025, deals: 5 },
      ],
    });
    pdf.chart(chart, { caption: 'Source: test' });
    const bytes = await pdf.finish();
    const path = join(dir, 'chart.pdf');
    writeFileSync(path, bytes);
    const fonts = execFileSync('pdffonts', [path], { encoding: 'utf8' });
    const fontLines = fonts.split('\n').slice(2).filter(Boolean);
    expect(fontLines.length).toBeGreaterThan(0);
    for (const l of fontLines) {
      expect(l).toMatch(/DejaVuSans/);
      expect(l).toMatch(/\byes\b/); // embedded (subset)
    }
    const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
    expect(info).toMatch(/Title:\s+Chart test/);
    const text = pdftotext(path);
    expect(text).toContain('=HYPERLINK("http://x","y")');
    expect(text).toContain('Société Générale');
    expect(text).toContain('Source: test');
    // Chart text is drawn as text in the embedded font (glyph by glyph, so only loosely).
    expect(text.replace(/\s+/g, '')).toContain('2025');
  });
});
