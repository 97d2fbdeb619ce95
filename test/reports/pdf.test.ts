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
    const rows = Array.from({ length: 120 }, (_, i) => [`Row ${i + 1}`, `A cell with a rather long text that has to wrap onto a second line and then be cut, because it goes on and on and on well beyond two lines of this column ${i}`, String(i * 10)]);
    pdf.table([{ header: 'Name' }, { header: 'Description', width: 3 }, { header: 'Value', align: 'right' }], rows);
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

  it('embeds DejaVu Sans, sets the title and draws vector charts', async () => {
    const pdf = new ReportPdf({ title: 'Chart test', creationDate: new Date('2025-01-01T00:00:00Z') });
    pdf.heading('Chart', 1);
    pdf.paragraph('A paragraph with Société Générale and =HYPERLINK("http://x","y").');
    pdf.keyFigures([{ label: 'Deals', value: '1,234', note: '+5% YoY', trend: 'up' }]);
    const chart = await renderChart({ type: 'bar', title: 'Deals', xKey: 'year', series: ['deals'], data: [{ year: 2024, deals: 3 }, { year: 2025, deals: 5 }] });
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
