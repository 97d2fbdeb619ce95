/**
 * `chartAltText`: a chart's alternative text (the tagged PDF's Figure /Alt) says what the chart
 * shows: title, kind, series and categories, each series' largest and smallest values with their
 * categories, in their units.
 */
import { describe, expect, it } from 'vitest';
import { chartAltText } from '../../reports/charts/index.js';

describe('chartAltText', () => {
  it('names the kind, the categories over a period and the largest and smallest value', () => {
    const alt = chartAltText({
      type: 'bar',
      title: 'Deals by year',
      xKey: 'year',
      series: ['deals'],
      data: [
        { year: 2022, deals: 40 },
        { year: 2023, deals: 31 },
        { year: 2024, deals: 52 },
      ],
    });
    expect(alt).toBe(
      'Deals by year. Bar chart of Deals by Year, 3 categories from 2022 to 2024. Deals: largest 2024 (52), smallest 2023 (31).',
    );
  });

  it('describes each series of a combo in its own unit', () => {
    const alt = chartAltText({
      type: 'combo',
      title: 'Capital and deals',
      xKey: 'year',
      unit: 'USD',
      series: [
        { key: 'capital_usd', type: 'bar' },
        { key: 'deals', type: 'line' },
      ],
      data: [
        { year: 2023, capital_usd: 1_250_000_000, deals: 80 },
        { year: 2024, capital_usd: 940_000_000, deals: 95 },
      ],
    });
    expect(alt).toBe(
      'Capital and deals. Bar and line chart of Capital USD, Deals by Year, 2 categories from 2023 to 2024. ' +
        'Capital USD: largest 2023 ($1.25B), smallest 2024 ($940M). Deals: largest 2024 (95), smallest 2023 (80).',
    );
  });

  it("gives a pie's or donut's shares of the total", () => {
    const alt = chartAltText({
      type: 'donut',
      title: 'Stage mix',
      xKey: 'stage',
      series: ['deals'],
      data: [
        { stage: 'Seed', deals: 60 },
        { stage: 'Series A', deals: 30 },
        { stage: 'Series B', deals: 10 },
      ],
    });
    expect(alt).toBe(
      'Stage mix. Donut chart of Deals by Stage, 3 categories. Deals: largest Seed (60, 60% of the total), smallest Series B (10, 10% of the total).',
    );
  });

  it('formats percentages, and counts with the chart unit', () => {
    expect(
      chartAltText({
        type: 'bar',
        title: 'Share by sector',
        xKey: 'sector',
        series: ['share_pct'],
        unit: '%',
        data: [
          { sector: 'AI', share_pct: 42.5 },
          { sector: 'Fintech', share_pct: 12 },
        ],
      }),
    ).toContain('largest AI (42.5%), smallest Fintech (12%)');
    expect(
      chartAltText({
        type: 'bar',
        title: 'One',
        xKey: 'country',
        series: ['deals'],
        unit: 'deals',
        data: [{ country: 'Germany', deals: 12 }],
      }),
    ).toBe('One. Bar chart of Deals by Country, 1 category. Deals: Germany (12 deals).');
  });

  it('says so when every value is the same, skips missing values, and reads bars in the order drawn', () => {
    expect(
      chartAltText({
        type: 'line',
        title: 'Flat',
        xKey: 'year',
        series: ['deals'],
        data: [
          { year: 2023, deals: 5 },
          { year: 2024, deals: 5 },
        ],
      }),
    ).toBe('Flat. Line chart of Deals by Year, 2 categories from 2023 to 2024. Deals: all 5.');
    expect(
      chartAltText({
        type: 'bar',
        title: 'Gaps',
        xKey: 'sector',
        series: ['deals'],
        data: [
          { sector: 'A', deals: null },
          { sector: 'B', deals: 3 },
          { sector: 'C', deals: 9 },
        ],
      }),
    ).toBe('Gaps. Bar chart of Deals by Sector, 3 categories. Deals: largest C (9), smallest B (3).');
  });

  it('handles no data, nothing numeric, no title and many series', () => {
    expect(chartAltText({ type: 'bar', title: 'Empty', xKey: 'year', series: ['deals'], data: [] })).toBe(
      'Empty. A chart with no data.',
    );
    expect(chartAltText({ type: 'bar', data: [{ name: 'A', note: 'x' }] })).toBe(
      'Chart. Table of 1 row with Name, Note.',
    );
    expect(chartAltText({ type: 'bar', data: [{ name: 'A', v: 1 }] }, 'Top investors')).toBe(
      'Top investors. Bar chart of V, 1 category. V: A (1).',
    );
    const many = chartAltText({
      type: 'bar',
      xKey: 'year',
      data: [{ year: 2024, a: 1, b: 2, c: 3, d: 4, e: 5 }],
    });
    expect(many).toBe(
      'Chart. Bar chart of A, B, C, D by Year, 1 category. A: 2024 (1). B: 2024 (2). C: 2024 (3). D: 2024 (4). And 1 more series.',
    );
  });
});
