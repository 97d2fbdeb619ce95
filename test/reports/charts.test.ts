import { describe, expect, it } from 'vitest';
import type { ChartSpec } from '../../api/envelope.js';
import {
  CATEGORY_LABEL_LIMIT,
  isIdentifierKey,
  isKeyColumn,
  normalizeChart,
  renderChart,
  toVegaLite,
  valueExpr,
} from '../../reports/charts/index.js';
import type { ChartMeta } from '../../reports/charts/index.js';
import { measureText } from '../../reports/fonts.js';

const years = [2020, 2021, 2022, 2023, 2024, 2025];
const SECTORS = [
  'Artificial Intelligence & Data',
  'Commerce & Marketing',
  'Consumer, Lifestyle & Services',
  'Energy, Environment & Mobility',
  'Finance & Blockchain',
  'Healthcare & Life Sciences',
];

const specs: Record<string, ChartSpec> = {
  bar: {
    type: 'bar',
    title: 'Deals by year',
    xKey: 'year',
    series: ['deals'],
    data: years.map((year, i) => ({ year, deals: 100 + i * 17 })),
  },
  line: {
    type: 'line',
    title: 'Capital by year',
    xKey: 'year',
    series: ['capital_usd'],
    unit: 'USD',
    data: years.map((year, i) => ({ year, capital_usd: 2e8 * (i + 1) })),
  },
  area: {
    type: 'area',
    title: 'Capital',
    xKey: 'year',
    series: ['capital_usd'],
    unit: 'USD',
    data: years.map((year, i) => ({ year, capital_usd: 3e8 + i * 1e8 })),
  },
  pie: {
    type: 'pie',
    title: 'Stages',
    xKey: 'stage',
    series: ['deals'],
    data: ['pre-seed', 'seed', 'series-a'].map((stage, i) => ({ stage, deals: 30 - i * 5 })),
  },
  donut: {
    type: 'donut',
    title: 'Locations',
    xKey: 'country',
    series: [{ key: 'deals' }],
    data: [
      'Germany',
      'France',
      'Spain',
      'Italy',
      'Poland',
      'Sweden',
      'Estonia',
      'Finland',
      'Austria',
      'Greece',
    ].map((country, i) => ({ country, deals: 100 - i * 8 })),
  },
  combo: {
    type: 'combo',
    title: 'Deal activity in the sector',
    xKey: 'year',
    series: [
      { key: 'deals', name: 'Deals', type: 'bar' },
      { key: 'capital_usd', name: 'Capital', type: 'line' },
    ],
    unit: 'USD',
    data: years.map((year, i) => ({ year, deals: 100 + i * 9, capital_usd: 1.7e8 * (i + 1) })),
  },
  stacked: {
    type: 'stacked_bar',
    title: 'Deals by stage',
    xKey: 'year',
    series: ['seed', 'series_a'],
    data: years.map((year, i) => ({ year, seed: 40 + i, series_a: 20 + i })),
  },
  horizontal: {
    type: 'horizontal_bar',
    title: 'Top sectors',
    xKey: 'sector',
    series: ['capital_usd'],
    unit: 'USD',
    data: SECTORS.map((sector, i) => ({ sector, capital_usd: 5e8 / (i + 1) })),
  },
  scatter: {
    type: 'scatter',
    title: 'Fit vs investments',
    xKey: 'investments',
    series: ['fit_pct'],
    unit: '%',
    data: Array.from({ length: 12 }, (_, i) => ({ investments: i * 7, fit_pct: 40 + i * 3 })),
  },
};

function texts(svg: string): { text: string; size: number; family: string; cls: string }[] {
  // Vega writes each text mark as <text ... font-family="..." font-size="10px" ...>label</text>.
  const out: { text: string; size: number; family: string; cls: string }[] = [];
  const groups = svg.split('<g class="mark-text role-');
  for (const g of groups.slice(1)) {
    const cls = g.slice(0, g.indexOf('"'));
    for (const m of g.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)) {
      const attrs = m[1] ?? '';
      out.push({
        text: (m[2] ?? '')
          .replace(/&amp;/g, '&')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'"),
        size: Number(/font-size="([\d.]+)px"/.exec(attrs)?.[1] ?? 11),
        family: /font-family="([^"]*)"/.exec(attrs)?.[1] ?? '',
        cls,
      });
    }
  }
  return out;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('toVegaLite and renderChart', () => {
  for (const [name, spec] of Object.entries(specs)) {
    it(`renders a ${name} chart to SVG with DejaVu Sans labels and to PNG`, async () => {
      const vl = toVegaLite(spec);
      expect((vl as { config?: { font?: string } }).config?.font).toBe('DejaVu Sans');
      const r = await renderChart(spec);
      expect(r.svg.startsWith('<svg')).toBe(true);
      const labels = texts(r.svg);
      expect(labels.length).toBeGreaterThan(2);
      expect(labels.every((t) => t.family === 'DejaVu Sans')).toBe(true);
      expect(labels.some((t) => t.text === spec.title)).toBe(true);
      expect(r.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      // PNG at twice the SVG size.
      expect(r.png.readUInt32BE(16)).toBe(Math.round(r.width * 2));
      expect(r.png.readUInt32BE(20)).toBe(Math.round(r.height * 2));
      expect(r.width).toBeGreaterThan(100);
      expect(r.height).toBeGreaterThan(50);
    });
  }

  it('reads each type as the right kind of chart', () => {
    const kinds = Object.fromEntries(
      Object.entries(specs).map(([name, spec]) => [name, normalizeChart(spec).kind]),
    );
    expect(kinds).toEqual({
      bar: 'bar',
      line: 'line',
      area: 'area',
      pie: 'arc',
      donut: 'arc',
      combo: 'combo',
      stacked: 'stacked',
      horizontal: 'hbar',
      scatter: 'scatter',
    });
  });

  it('draws combo charts with bars and a line on a second axis, with dollar labels on the capital axis', async () => {
    const vl = toVegaLite(specs['combo']!) as { layer: { mark: { type: string } }[]; resolve: unknown };
    expect(vl.layer.map((l) => l.mark.type)).toEqual(['bar', 'line']);
    expect(vl.resolve).toEqual({ scale: { y: 'independent' } });
    const labels = texts((await renderChart(specs['combo']!)).svg).filter((t) =>
      t.cls.startsWith('axis-label'),
    );
    expect(labels.some((t) => /^\$\d+(\.\d)?[MB]$/.test(t.text))).toBe(true);
    // Deals stay counts even though the chart's unit is USD.
    expect(labels.some((t) => t.text === '100' || t.text === '150')).toBe(true);
  });

  it('gives a count next to an amount its own axis: a bar chart of capital and deals becomes a combo', async () => {
    // The data agent's "Funding 2021 vs 2023": $54B next to 1,083 deals on one axis hides the deals.
    const spec: ChartSpec = {
      type: 'bar',
      title: 'Funding 2021 vs 2023',
      xKey: 'year',
      series: [
        { key: 'capital_usd', name: 'Capital raised (USD)' },
        { key: 'deals', name: 'Deals', type: 'line' },
      ],
      unit: 'USD',
      data: [
        { year: 2021, capital_usd: 54_130_200_000, deals: 1083 },
        { year: 2023, capital_usd: 31_541_560_000, deals: 1018 },
      ],
    };
    expect(normalizeChart(spec).kind).toBe('combo');
    const vl = toVegaLite(spec) as {
      layer: { mark: { type: string }; transform: { filter: { oneOf: string[] } }[] }[];
      resolve: unknown;
    };
    expect(vl.layer.map((l) => [l.mark.type, l.transform[0]?.filter.oneOf])).toEqual([
      ['bar', ['Capital raised (USD)']],
      ['line', ['Deals']],
    ]);
    expect(vl.resolve).toEqual({ scale: { y: 'independent' } });
    const labels = texts((await renderChart(spec)).svg)
      .filter((t) => t.cls.startsWith('axis-label'))
      .map((t) => t.text);
    // Dollar ticks on one axis, deal counts (hundreds) on the other.
    expect(labels.some((t) => /^\$\d+B$/.test(t))).toBe(true);
    expect(labels.some((t) => /^(1,000|800|600|400|200)$/.test(t))).toBe(true);
    // Two amounts, or two counts, still share one axis as grouped bars.
    expect(
      normalizeChart({
        type: 'bar',
        xKey: 'year',
        series: ['deals', 'rounds'],
        data: [{ year: 2024, deals: 3, rounds: 4 }],
      }).kind,
    ).toBe('bar');
    // Bars of two units marked as bars: the second unit still moves to the line axis.
    const marked = toVegaLite({
      ...spec,
      type: 'combo',
      series: [
        { key: 'capital_usd', type: 'bar' },
        { key: 'deals', type: 'bar' },
      ],
    }) as { layer: { mark: { type: string } }[] };
    expect(marked.layer.map((l) => l.mark.type)).toEqual(['bar', 'line']);
  });

  it('tells period and id keys (printed without thousands separators) and key columns apart', () => {
    for (const k of [
      'year',
      'Year',
      'founded_year',
      'fiscalYear',
      'quarter',
      'month',
      'id',
      'investor_id',
      'startup_key',
      'zip_code',
    ])
      expect(isIdentifierKey(k), k).toBe(true);
    for (const k of ['deals', 'capital_usd', 'years_active', 'amount', 'rank_score', 'investments'])
      expect(isIdentifierKey(k), k).toBe(false);
    for (const k of ['startup_key', 'investorKey', 'org_id', 'slug']) expect(isKeyColumn(k), k).toBe(true);
    for (const k of ['startup', 'keynote', 'name', 'year']) expect(isKeyColumn(k), k).toBe(false);
  });

  it('wraps a long title onto a second line rather than cutting it short', () => {
    const vl = toVegaLite(
      {
        ...specs['bar']!,
        title: 'United States: top sectors by capital invested (2023-11-22 to 2026-11-21)',
      },
      { width: 330 },
    ) as { title: { text: string | string[] } };
    expect(Array.isArray(vl.title.text)).toBe(true);
    expect((vl.title.text as string[]).join(' ')).toContain('United States: top sectors');
  });

  it('formats USD with K/M/B and percentages with %', async () => {
    expect(valueExpr('usd')).toContain("'B'");
    const line = texts((await renderChart(specs['line']!)).svg)
      .filter((t) => t.cls.startsWith('axis-label'))
      .map((t) => t.text);
    expect(line.some((t) => /^\$\d+(\.\d)?[MB]$/.test(t))).toBe(true);
    const scatter = texts((await renderChart(specs['scatter']!)).svg)
      .filter((t) => t.cls.startsWith('axis-label'))
      .map((t) => t.text);
    expect(scatter.some((t) => /^\d+%$/.test(t))).toBe(true);
  });

  it('falls back for an unknown type: a line over periods, bars over categories, a table without numbers', async () => {
    const periods = normalizeChart({ type: 'sankey', data: years.map((year, i) => ({ year, deals: i })) });
    expect(periods).toMatchObject({ kind: 'line', fallback: true });
    const categories = {
      type: 'wordcloud',
      title: 'Unknown',
      data: [
        { name: 'a', v: 1 },
        { name: 'b', v: 3 },
      ],
    } as ChartSpec;
    expect(normalizeChart(categories)).toMatchObject({ kind: 'bar', fallback: true, xKey: 'name' });
    const r = await renderChart(categories);
    expect((r.meta as ChartMeta).fallback).toBe(true);
    const table = await renderChart({
      type: 'mystery',
      title: 'Text only',
      data: [{ name: 'Acme', city: 'Berlin' }],
    });
    expect(table.meta?.kind).toBe('table');
    expect(texts(table.svg).map((t) => t.text)).toEqual(expect.arrayContaining(['Acme', 'Berlin']));
  });

  it('never crashes on missing or malformed fields', async () => {
    const odd: ChartSpec[] = [
      { type: '' },
      { type: 'bar', data: [] },
      {
        type: 'line',
        xKey: 'nope',
        series: [42, null, { foo: 1 }],
        data: [
          { a: 'x', b: '1,200' },
          { a: 'y', b: '3' },
        ],
      },
      { type: 'pie', data: [{ label: 'only', value: 0 }] },
      { type: 'combo', series: ['v'], data: [{ k: 'a', v: 1 }] },
    ];
    for (const spec of odd) {
      const r = await renderChart(spec);
      expect(r.svg.startsWith('<svg')).toBe(true);
    }
    expect(normalizeChart(odd[2]!).rows[0]).toMatchObject({ b: 1200 });
  });

  it('turns bars with long category names into horizontal bars and truncates labels with an ellipsis within their limit', async () => {
    const long = {
      type: 'bar',
      title: 'Investors',
      xKey: 'name',
      series: ['deals'],
      data: [
        'Passion Capital with an Unusually Long Fund Name Limited Partnership Number Two',
        'Société Générale Ventures',
        'Another Extraordinarily Verbose Investment Vehicle Name GmbH & Co. KG',
        'Acme',
      ].map((name, i) => ({ name, deals: 40 - i * 5 })),
    } as ChartSpec;
    const r = await renderChart(long);
    expect(r.meta?.kind).toBe('hbar');
    const labels = texts(r.svg).filter((t) => t.cls.startsWith('axis-label'));
    const truncated = labels.filter((t) => t.text.endsWith('…'));
    expect(truncated.length).toBeGreaterThanOrEqual(2);
    for (const t of labels)
      expect(measureText(t.text, t.size)).toBeLessThanOrEqual(CATEGORY_LABEL_LIMIT + 0.5);
    expect(labels.map((t) => t.text)).toContain('Société Générale Ventures');
  });

  it('keeps short vertical labels horizontal and thins out many periods instead of overlapping them', async () => {
    const r = await renderChart(specs['bar']!);
    expect(r.meta?.labelAngle).toBe(0);
    const months = Array.from({ length: 48 }, (_, i) => ({
      month: `${2021 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
      deals: 20 + (i % 7),
    }));
    const many = await renderChart({ type: 'line', xKey: 'month', series: ['deals'], data: months });
    // Labels Vega hides for overlap stay in the SVG with opacity 0.
    const xs = [
      ...many.svg.matchAll(
        /<text[^>]*transform="translate\(([\d.]+),[\d.]+\)"[^>]*opacity="1"[^>]*>(\d{4}-\d{2})<\/text>/g,
      ),
    ].map((m) => ({ x: Number(m[1]), text: m[2] ?? '' }));
    expect(xs.length).toBeGreaterThan(3);
    expect(xs.length).toBeLessThan(48);
    const sorted = [...xs].sort((a, b) => a.x - b.x);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      const cur = sorted[i]!;
      // Centred labels: half widths of both must fit between their centres.
      expect(cur.x - prev.x).toBeGreaterThanOrEqual(
        (measureText(prev.text, 10) + measureText(cur.text, 10)) / 2,
      );
    }
  });

  it('is deterministic', async () => {
    const a = await renderChart(specs['donut']!);
    const b = await renderChart(specs['donut']!);
    expect(a.svg).toBe(b.svg);
    expect(a.png.equals(b.png)).toBe(true);
  });
});
