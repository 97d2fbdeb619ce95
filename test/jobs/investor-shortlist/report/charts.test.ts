/**
 * The shortlist's charts: each company's service charts drawn once (the combo as bars and a line
 * on two axes, the bars), a chart without rows left out with a note, nothing for a company
 * without a list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { companyCharts, renderShortlistCharts } from '../../../../jobs/investor-shortlist/report/index.js';
import type { ShortlistChart } from '../../../../jobs/investor-shortlist/report/index.js';
import { shortlistReport } from './fixture.js';

describe('renderShortlistCharts', () => {
  let charts: ShortlistChart[];
  beforeAll(async () => {
    charts = await renderShortlistCharts(shortlistReport());
  });

  it("draws every company's service charts, SVG and PNG, the combo as a combo", () => {
    const first = companyCharts(charts, 0);
    expect(first.drawn.map((c) => c.title)).toEqual([
      'Deal activity in Finance & Blockchain by year',
      "Stages of the matched investors' deals in Finance & Blockchain",
      'Where the matched investors are (HQ country)',
    ]);
    for (const c of first.drawn) {
      expect(c.rendered?.svg).toMatch(/^<svg/);
      expect(c.rendered?.png.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(first.drawn[0]?.rendered?.meta?.kind).toBe('combo');
    expect(companyCharts(charts, 1).drawn).toHaveLength(2);
  });

  it('leaves out a chart without rows and says so; a company without a list has no chart', () => {
    const first = companyCharts(charts, 0);
    expect(first.notes).toEqual([
      'The service\'s chart "Lead investors by round size" for Ledgerline had no data the report could draw and was left out.',
    ]);
    expect(companyCharts(charts, 2)).toEqual({ drawn: [], notes: [] });
  });
});
