/**
 * Bar charts sort by the value they plot (the market report's "top sectors by capital" put
 * $24.3B above $25.9B, in the order of deal counts); bars over an ordered scale keep it.
 */
import { describe, expect, it } from 'vitest';
import { countBarSpec, normalizeChart } from '../../reports/charts/index.js';
import { marketModelFixture } from '../../jobs/market-report/fixtures/market-model.js';
import { planCharts } from '../../jobs/market-report/report/index.js';

const labels = (spec: Parameters<typeof normalizeChart>[0]): string[] => {
  const c = normalizeChart(spec);
  return c.rows.map((r) => String(r[c.xKey]));
};

describe('bar order', () => {
  it('sorts category bars by the plotted series, largest first, whatever the data order', () => {
    const spec = {
      type: 'horizontal_bar',
      xKey: 'sector',
      series: [{ key: 'capital_usd', unit: 'USD' }],
      data: [
        { sector: 'Fintech', deals: 90, capital_usd: 24.3e9 },
        { sector: 'AI & Data', deals: 80, capital_usd: 25.9e9 },
        { sector: 'Health', deals: 70, capital_usd: null },
        { sector: 'Climate', deals: 60, capital_usd: 3e9 },
      ],
    };
    expect(labels(spec)).toEqual(['AI & Data', 'Fintech', 'Climate', 'Health']);
  });

  it('sorts stacked bars by their total and keeps "Other" last', () => {
    const spec = {
      type: 'stacked_bar',
      xKey: 'country',
      series: ['a', 'b'],
      data: [
        { country: 'Other', a: 100, b: 100 },
        { country: 'DE', a: 1, b: 9 },
        { country: 'FR', a: 8, b: 8 },
      ],
    };
    expect(labels(spec)).toEqual(['FR', 'DE', 'Other']);
  });

  it('keeps periods, stages, score bands and specs that ask for their order', () => {
    const years = {
      type: 'bar',
      xKey: 'year',
      series: ['deals'],
      data: [
        { year: 2024, deals: 1 },
        { year: 2025, deals: 5 },
      ],
    };
    expect(labels(years)).toEqual(['2024', '2025']);
    const stages = {
      type: 'bar',
      xKey: 'stage',
      series: ['deals'],
      data: [
        { stage: 'seed', deals: 1 },
        { stage: 'series_a', deals: 5 },
      ],
    };
    expect(labels(stages)).toEqual(['seed', 'series_a']);
    const bands = countBarSpec('Fit', [
      { label: '90-100', count: 1 },
      { label: '80-90', count: 7 },
    ]);
    expect(labels(bands)).toEqual(['90-100', '80-90']);
    const given = countBarSpec(
      'Stage mix',
      [
        { label: 'pre-seed', count: 1 },
        { label: 'seed', count: 9 },
      ],
      { order: 'given' },
    );
    expect(labels(given)).toEqual(['pre-seed', 'seed']);
    const value = countBarSpec('Sectors', [
      { label: 'A', count: 1 },
      { label: 'B', count: 9 },
    ]);
    expect(labels(value)).toEqual(['B', 'A']);
  });

  it("the market report's bar charts plot their values in order", () => {
    const planned = planCharts(marketModelFixture());
    const bars = planned.filter((p) =>
      ['bar', 'hbar', 'stacked', 'hstacked'].includes(normalizeChart(p.spec).kind),
    );
    expect(bars.some((p) => /top sectors by capital/.test(String(p.spec.title)))).toBe(true);
    for (const p of bars) {
      const c = normalizeChart(p.spec);
      if (/year|period|stage/i.test(c.xKey)) continue;
      const key = c.series[0]!.key;
      const values = c.rows
        .filter((r) => !/^other\b/i.test(String(r[c.xKey])))
        .map((r) => r[key])
        .filter((v): v is number => typeof v === 'number');
      expect(values, String(p.spec.title)).toEqual([...values].sort((a, b) => b - a));
    }
  });
});
