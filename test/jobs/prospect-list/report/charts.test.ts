import { beforeAll, describe, expect, it } from 'vitest';
import {
  planProspectCharts,
  renderProspectCharts,
  topWithOther,
} from '../../../../jobs/prospect-list/report/index.js';
import type { ProspectChart } from '../../../../jobs/prospect-list/report/index.js';
import { prospectSummary } from './fixture.js';

/** The texts of an SVG's category labels (Vega writes one <text> a label; value-axis numbers left out). */
function labels(svg: string): string[] {
  const out: string[] = [];
  for (const g of svg.split('<g class="mark-text role-axis-label"').slice(1)) {
    const group = g.slice(0, g.indexOf('</g>'));
    for (const m of group.matchAll(/<text[^>]*>([^<]*)<\/text>/g))
      out.push((m[1] ?? '').replace(/&amp;/g, '&'));
  }
  return out.filter((l) => !/^[\d,.]+$/.test(l));
}

describe('topWithOther', () => {
  it('keeps the largest bars and sums the rest into one Other bar', () => {
    const bars = [
      { label: 'FR', count: 3 },
      { label: 'DE', count: 9 },
      { label: 'IT', count: 1 },
      { label: 'ES', count: 0 },
      { label: 'other', count: 2 },
    ];
    expect(topWithOther(bars, 1, 'countries')).toEqual([
      { label: 'DE', count: 9 },
      { label: 'Other (2 countries)', count: 6 },
    ]);
    // One category left over is shown as itself; zero counts are left out.
    expect(topWithOther(bars.slice(0, 4), 2, 'countries')).toEqual([
      { label: 'DE', count: 9 },
      { label: 'FR', count: 3 },
      { label: 'IT', count: 1 },
    ]);
    expect(topWithOther([], 12, 'countries')).toEqual([]);
  });
});

describe('renderProspectCharts', () => {
  let charts: ProspectChart[];
  beforeAll(async () => {
    charts = await renderProspectCharts(prospectSummary());
  });

  it('renders the five charts as SVG and PNG, in order', () => {
    expect(charts.map((c) => c.id)).toEqual(['stages', 'sectors', 'countries', 'momentum', 'fit']);
    for (const c of charts) {
      expect(c.note).toBeNull();
      expect(c.rendered?.svg).toMatch(/^<svg/);
      expect(c.rendered?.png.subarray(1, 4).toString()).toBe('PNG');
    }
  });

  it('draws horizontal bars with every category label whole, countries as the top 12 and Other', () => {
    const byId = new Map(charts.map((c) => [c.id, c]));
    const sectors = labels(byId.get('sectors')?.rendered?.svg ?? '');
    expect(sectors).toContain('Energy, Environment & Mobility');
    expect(sectors).toContain('Consumer, Lifestyle & Services');
    const countries = labels(byId.get('countries')?.rendered?.svg ?? '');
    expect(countries).toHaveLength(13);
    expect(countries[0]).toBe('Germany');
    expect(countries).not.toContain('Bosnia and Herzegovina');
    expect(countries).toContain('Other (8 countries)');
    expect(byId.get('countries')?.title).toBe('Countries: top 12 of 20');
    for (const c of charts) for (const l of labels(c.rendered?.svg ?? '')) expect(l).not.toMatch(/…$/);
  });

  it('says "no scored rows" instead of drawing empty momentum and fit charts', async () => {
    const unscored = await renderProspectCharts(prospectSummary({ unscored: true }));
    for (const c of unscored.filter((x) => x.id === 'momentum' || x.id === 'fit')) {
      expect(c.rendered).toBeNull();
      expect(c.note).toMatch(/^No scored rows: the briefs scored none/);
    }
    const noBriefs = { ...prospectSummary({ unscored: true }), briefs: [] };
    expect(planProspectCharts(noBriefs).find((c) => c.id === 'fit')?.note).toMatch(
      /no find_customers brief, and only briefs score fit/,
    );
  });

  it('draws nothing for an empty list and says why', () => {
    const planned = planProspectCharts(prospectSummary({ listed: 0 }));
    expect(planned.every((c) => c.spec === null)).toBe(true);
    expect(planned.find((c) => c.id === 'countries')?.note).toBe('No country chart: the list is empty.');
  });
});
