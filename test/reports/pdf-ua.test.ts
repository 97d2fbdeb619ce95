/**
 * Every kind's PDF is a tagged PDF/UA-1 document: veraPDF's PDF/UA-1 check finds nothing (one
 * JVM for all the files), and, read back without veraPDF (test/helpers/pdf-structure.ts): the
 * language, a Document root, headings without skipped levels, a Figure for each chart drawn
 * whose Alt names its largest value, a header row of TH (Scope Column) in every table, lists
 * of LI with Lbl and LBody, every link annotation in a Link element with a description.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFundCharts, writeFundDigest } from '../../jobs/fund-match/report/index.js';
import { renderShortlistCharts, writeShortlistReport } from '../../jobs/investor-shortlist/report/index.js';
import { marketModelFixture } from '../../jobs/market-report/fixtures/market-model.js';
import { planCharts, renderCharts } from '../../jobs/market-report/report/index.js';
import { buildMarketPdf } from '../../jobs/market-report/report/pdf.js';
import { renderProspectCharts, writeProspectBrief } from '../../jobs/prospect-list/report/index.js';
import { renderChart } from '../../reports/charts/index.js';
import type { ReportChart } from '../../reports/charts/index.js';
import { callout, ReportPdf } from '../../reports/pdf/index.js';
import { fundDigests } from '../jobs/fund-match/report/fixture.js';
import { shortlistReport } from '../jobs/investor-shortlist/report/fixture.js';
import { prospectSummary } from '../jobs/prospect-list/report/fixture.js';
import { readPdfStructure, structNodes } from '../helpers/pdf-structure.js';
import type { PdfStructure, StructNode } from '../helpers/pdf-structure.js';
import { describeFailures, validatePdfUa } from '../helpers/verapdf.js';
import type { VeraReport } from '../helpers/verapdf.js';

const dir = mkdtempSync(join(tmpdir(), 'pdf-ua-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const created = { creationDate: new Date('2026-11-23T06:00:00Z') };

/** A PDF written for the checks, and the alternative texts of the charts it draws. */
interface Written {
  path: string;
  alts: string[];
}

/** The alt texts of the charts drawn (a chart with nothing to draw has none). */
const altsOf = (charts: readonly ReportChart[]): string[] =>
  charts.flatMap((c) => (c.rendered?.alt ? [c.rendered.alt] : []));

/** The blocks of ReportPdf on their own: every kind of content, links, a table across pages. */
async function blocks(path: string): Promise<Written> {
  const chart = await renderChart(
    {
      type: 'bar',
      title: 'Deals by sector',
      xKey: 'sector',
      series: ['deals'],
      data: [
        { sector: 'Fintech', deals: 120 },
        { sector: 'Health & bio', deals: 45 },
        { sector: 'Climate', deals: 7 },
      ],
    },
    { width: 330, height: 220 },
  );
  const pdf = new ReportPdf({ title: 'Blocks <&> "test"', ...created });
  pdf.cover({
    kicker: 'Kicker',
    title: 'Blocks',
    subtitle: 'Subtitle',
    lines: ['One', 'Two'],
    note: 'A note.',
  });
  pdf.reserveContentsPages(1);
  pdf.heading('Section', 1);
  pdf.keyFigures([
    { label: 'Deals', value: '1,234', note: '+5% YoY', trend: 'up' },
    { label: 'Capital', value: '$1.2B' },
  ]);
  pdf.paragraph('A paragraph long enough to wrap onto a second line. '.repeat(4));
  pdf.paragraph('Interactive view', { link: 'https://example.com/view' });
  pdf.heading('A subsection skipped to level 3', 3);
  pdf.bullets(['First item', 'Second item that is long enough to wrap. '.repeat(4)]);
  callout(pdf, 'Watch out', ['One thing', 'Another']);
  pdf.table([{ header: 'Name' }, { header: 'Value', align: 'right' }], [], { emptyText: 'Nothing here.' });
  const rows = Array.from({ length: 90 }, (_, i) => [`Company ${i + 1}`, String(i * 7)]);
  pdf.table(
    [
      { header: 'Company', width: 3 },
      { header: 'Deals', align: 'right' },
    ],
    rows,
    {
      links: rows.map((_, i) => [`https://example.com/c/${i + 1}`, null]),
    },
  );
  pdf.heading('Charts', 2);
  pdf.chart(chart, { caption: 'Source: test data' });
  pdf.row([
    { measure: () => pdf.chartHeight(chart), draw: () => pdf.chart(chart) },
    {
      measure: () => pdf.measureTable([{ header: 'A' }], [['x']]),
      draw: () => pdf.table([{ header: 'A' }], [['x']]),
    },
  ]);
  await pdf.writeTo(path);
  return { path, alts: [chart.alt ?? '', chart.alt ?? ''] };
}

async function market(path: string): Promise<Written> {
  const model = marketModelFixture();
  const planned = planCharts(model);
  const charts = await renderCharts(planned);
  const { pdf, drawn } = buildMarketPdf(model, charts, planned, created);
  await pdf.writeTo(path);
  return { path, alts: [...drawn].map((id) => charts.get(id)?.alt ?? '') };
}

const KINDS: Record<string, (path: string) => Promise<Written>> = {
  blocks,
  'market report': market,
  'prospect list brief': async (path) => {
    const summary = prospectSummary();
    const charts = await renderProspectCharts(summary);
    await writeProspectBrief(summary, path, charts, created);
    return { path, alts: altsOf(charts) };
  },
  'fund match digest': async (path) => {
    const digest = fundDigests().second;
    const charts = await renderFundCharts(digest);
    await writeFundDigest(digest, path, charts, created);
    return { path, alts: altsOf(charts) };
  },
  'fund match digest (baseline)': async (path) => {
    const digest = fundDigests().baseline;
    const charts = await renderFundCharts(digest);
    await writeFundDigest(digest, path, charts, created);
    return { path, alts: altsOf(charts) };
  },
  'investor shortlist': async (path) => {
    const report = shortlistReport();
    const charts = await renderShortlistCharts(report);
    await writeShortlistReport(report, path, charts, created);
    return { path, alts: altsOf(charts) };
  },
  'investor shortlist (baseline)': async (path) => {
    const report = shortlistReport({ baseline: true });
    const charts = await renderShortlistCharts(report);
    await writeShortlistReport(report, path, charts, created);
    return { path, alts: altsOf(charts) };
  },
};
const names = Object.keys(KINDS);

const written = new Map<string, Written>();
const vera = new Map<string, VeraReport>();

beforeAll(async () => {
  for (const [i, name] of names.entries()) {
    const make = KINDS[name] as (path: string) => Promise<Written>;
    written.set(name, await make(join(dir, `${i}.pdf`)));
  }
  const reports = await validatePdfUa(names.map((n) => (written.get(n) as Written).path));
  reports.forEach((r, i) => vera.set(names[i] as string, r));
}, 300_000);

describe('tagged PDFs: veraPDF PDF/UA-1', () => {
  it.each(names)('%s is compliant, no failed rule', (name) => {
    const r = vera.get(name) as VeraReport;
    expect(r.error).toBeUndefined();
    expect(r.failures, describeFailures(r)).toEqual([]);
    expect(r.compliant).toBe(true);
  });
});

/** The TH/TD cells of a row, ColSpan counted. */
const width = (tr: StructNode): number =>
  tr.children.reduce(
    (s, c) => s + (typeof c.attributes['ColSpan'] === 'number' ? c.attributes['ColSpan'] : 1),
    0,
  );

function checkStructure(s: PdfStructure, w: Written): void {
  expect(s.lang).toBe('en-GB');
  expect(s.marked).toBe(true);
  expect(s.displayDocTitle).toBe(true);
  expect(s.roots.map((r) => r.type)).toEqual(['Document']);
  const nodes = structNodes(s.roots);

  // Headings: H1 first, never a level skipped.
  const levels = nodes.filter((n) => /^H[1-6]$/.test(n.type)).map((n) => Number(n.type.slice(1)));
  expect(levels[0]).toBe(1);
  levels.forEach((l, i) => expect(l, `heading ${i}`).toBeLessThanOrEqual((levels[i - 1] ?? 0) + 1));

  // A Figure for each chart drawn, its Alt the chart's: title, kind, largest value.
  const figures = nodes.filter((n) => n.type === 'Figure');
  expect(figures.map((f) => f.alt).sort()).toEqual([...w.alts].sort());
  figures.forEach((f, i) => {
    expect(f.content, `figure ${i}`).toBeGreaterThan(0);
    expect(f.alt ?? '').toMatch(/(largest .+ \(.+\)|: .+ \(.+\)|: all .+)\./);
  });

  // Tables: a header row of TH (Scope Column), rows as wide as the header.
  const tables = nodes.filter((n) => n.type === 'Table');
  expect(tables.length).toBeGreaterThan(0);
  for (const t of tables) {
    expect(t.children.every((c) => c.type === 'TR')).toBe(true);
    const [head, ...body] = t.children;
    expect(head?.children.length).toBeGreaterThan(0);
    for (const th of head?.children ?? []) {
      expect(th.type).toBe('TH');
      expect(th.attributes).toMatchObject({ O: 'Table', Scope: 'Column' });
    }
    for (const tr of body) {
      expect(tr.children.every((c) => c.type === 'TD')).toBe(true);
      expect(width(tr)).toBe(head?.children.length);
    }
  }

  // Lists: LI items of a label and a body.
  for (const l of nodes.filter((n) => n.type === 'L')) {
    expect(l.children.length).toBeGreaterThan(0);
    for (const li of l.children) expect(li.children.map((c) => c.type)).toEqual(['Lbl', 'LBody']);
  }

  // Links: each annotation in a Link element, with a description.
  const tagged = nodes.filter((n) => n.type === 'Link').flatMap((n) => n.annotations);
  expect(tagged.length).toBe(s.links.length);
  for (const a of s.links) {
    expect(typeof a['StructParent']).toBe('number');
    const contents = a['Contents'];
    expect(typeof contents === 'string' ? contents.trim() : null).toBeTruthy();
  }
}

describe('tagged PDFs: the structure read back', () => {
  it.each(names)('%s', (name) => {
    const w = written.get(name) as Written;
    checkStructure(readPdfStructure(w.path), w);
  });

  it('states the largest and smallest value of a chart in its Figure', () => {
    const s = readPdfStructure((written.get('blocks') as Written).path);
    const figures = structNodes(s.roots).filter((n) => n.type === 'Figure');
    expect(figures).toHaveLength(2);
    expect(figures[0]?.alt).toBe(
      'Deals by sector. Bar chart of Deals by Sector, 3 categories. Deals: largest Fintech (120), smallest Climate (7).',
    );
    // The blocks' contents (after the cover), links and tables.
    const types = s.roots[0]?.children.map((c) => c.type) ?? [];
    expect(types.slice(0, 9)).toEqual(['P', 'H1', 'P', 'P', 'P', 'P', 'Sect', 'H1', 'Div']);
    expect(structNodes(s.roots).filter((n) => n.type === 'TOCI')).toHaveLength(2);
    expect(s.links.length).toBeGreaterThan(90);
    expect(s.hasOutline).toBe(true);
  });
});
