/**
 * Names in every script: the font chain (DejaVu Sans, then Noto from Debian's fonts-noto-core
 * and fonts-noto-cjk) splits text into runs, measures them with the font that draws them, and the
 * PDF (text and vector charts) and the chart PNG draw them. The rendered pages are kept in
 * VIR_SCRIPTS_OUT when it is set, to look at.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderChart } from '../../reports/charts/index.js';
import { svgWithFallbackFonts } from '../../reports/charts/svg-fonts.js';
import { fontChain, textRuns } from '../../reports/font-chain.js';
import { fontCovers, measureText, printableName, truncateToWidth } from '../../reports/fonts.js';
import { ReportPdf } from '../../reports/pdf/index.js';
import { checkScriptsPdf, SCRIPT_NAMES } from '../helpers/scripts.js';

const keep = process.env.VIR_SCRIPTS_OUT;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'scripts-test-'));
mkdirSync(dir, { recursive: true });
afterAll(() => {
  if (!keep) rmSync(dir, { recursive: true, force: true });
});

describe('the font chain', () => {
  it('has a Noto font for every script DejaVu Sans lacks, in both weights', () => {
    for (const bold of [false, true]) {
      const families = fontChain(bold).map((f) => f.family);
      expect(families[0]).toBe('DejaVu Sans');
      for (const n of SCRIPT_NAMES) expect(families).toContain(n.font);
    }
  });

  it('draws each name in one run of the font made for its script', () => {
    for (const n of SCRIPT_NAMES)
      for (const bold of [false, true]) {
        const runs = textRuns(n.startup, bold);
        expect(runs.map((r) => r.font.family)).toEqual([n.font]);
        expect(runs[0]?.rtl).toBe(n.script === 'Arabic' || n.script === 'Hebrew');
      }
    // Inside English text: the spaces around a name stay in the DejaVu runs.
    const runs = textRuns('Led by 北京智能科技 and שלום עולם.');
    expect(runs.map((r) => [r.text, r.font.family])).toEqual([
      ['Led by ', 'DejaVu Sans'],
      ['北京智能科技', 'Noto Sans CJK SC'],
      [' and ', 'DejaVu Sans'],
      ['שלום עולם', 'Noto Sans Hebrew'],
      ['.', 'DejaVu Sans'],
    ]);
  });

  it('measures with the font that draws, and truncates and prints names of every script', () => {
    for (const n of SCRIPT_NAMES) {
      expect(fontCovers(n.startup)).toBe(true);
      expect(printableName(n.startup, 'stand-in')).toBe(n.startup);
    }
    // A CJK character is a full em in Noto Sans CJK (DejaVu's .notdef box is narrower).
    expect(measureText('北京', 10)).toBeCloseTo(20, 5);
    expect(measureText('Led by 北京', 10)).toBeCloseTo(measureText('Led by ', 10) + 20, 5);
    const cut = truncateToWidth('北京智能科技有限公司', 45, 10);
    expect(cut).toBe('北京智…');
    expect(measureText(cut, 10)).toBeLessThanOrEqual(45);
    // Text no font has stays a stand-in.
    expect(printableName('Rocket \u{1F680}', 'rocket.io')).toBe('rocket.io *');
  });

  it('gives chart SVG text the fallback fonts: outlines for resvg, tspans for pdfkit (RTL words in visual order)', () => {
    const svg =
      '<svg><text text-anchor="end" transform="translate(5,9)" font-family="DejaVu Sans" font-size="10px">' +
      'Fund שלום עולם &amp; 北京</text><text>Acme</text><text><tspan dy="0">北京</tspan></text></svg>';
    const png = svgWithFallbackFonts(svg, 'resvg');
    // A one-line text needing a fallback becomes glyph outlines shaped by fontkit, as in the PDF.
    expect(png).toMatch(/^<svg><g transform="translate\(5,9\)" fill="#000"><path d="M[^"]+"\/><\/g>/);
    expect(png).toContain('<text>Acme</text>');
    expect(png).toContain(
      '<text><tspan dy="0"><tspan font-family="Noto Sans CJK SC">北京</tspan></tspan></text>',
    );
    const pdf = svgWithFallbackFonts(svg, 'pdfkit');
    expect(pdf).toContain(
      'Fund <tspan font-family="Noto Sans Hebrew">עולם</tspan> <tspan font-family="Noto Sans Hebrew">שלום</tspan>' +
        ' &amp; <tspan font-family="Noto Sans CJK SC">北京</tspan></text>',
    );
    expect(svgWithFallbackFonts('<svg><text>Acme Ελλάδα</text></svg>', 'pdfkit')).toBe(
      '<svg><text>Acme Ελλάδα</text></svg>',
    );
  });
});

describe('a PDF with names in every script', () => {
  it('embeds the fallback fonts as subsets, and the names come back from its text', async () => {
    const chart = await renderChart({
      type: 'horizontal-bar',
      title: 'Deals by startup',
      xKey: 'name',
      series: ['deals'],
      data: SCRIPT_NAMES.map((n, i) => ({ name: n.startup, deals: 9 - i })),
    });
    writeFileSync(join(dir, 'chart.png'), chart.png);

    const pdf = new ReportPdf({ title: 'Every script', creationDate: new Date('2025-01-01T00:00:00Z') });
    pdf.cover({ title: 'Every script: 北京智能科技', subtitle: 'Names in nine scripts' });
    pdf.heading('Startups and investors', 1, { newPage: true, toc: false });
    pdf.paragraph(`Led by ${SCRIPT_NAMES.map((n) => n.investor).join(', ')}.`);
    pdf.keyFigures([
      { label: 'Largest round', value: '$12.5M', note: SCRIPT_NAMES[0].startup },
      { label: 'Top investor', value: SCRIPT_NAMES[4].investor, note: SCRIPT_NAMES[3].investor },
    ]);
    pdf.table(
      [{ header: 'Script' }, { header: 'Startup', width: 2 }, { header: 'Lead investor', width: 2 }],
      SCRIPT_NAMES.map((n) => [n.script, n.startup, n.investor]),
    );
    pdf.heading('בחירות: a heading in Hebrew and 日本語', 2);
    pdf.chart({ svg: chart.svg, width: chart.width, height: chart.height }, { caption: 'Deals by startup' });
    const path = join(dir, 'scripts.pdf');
    await pdf.writeTo(path);

    checkScriptsPdf(
      path,
      [
        'DejaVuSans',
        'DejaVuSans-Bold',
        'NotoSansCJKsc-Regular',
        'NotoSansCJKjp-Regular',
        'NotoSansCJKkr-Regular',
        'NotoSansCJKsc-Bold',
        'NotoSansArabic-Regular',
        'NotoSansHebrew-Regular',
        'NotoSansHebrew-Bold',
        'NotoSansDevanagari-Regular',
        'NotoSansThai-Regular',
      ],
      SCRIPT_NAMES.flatMap((n) => [n.startup, n.investor]),
      join(dir, 'page'),
    );
  });
});
