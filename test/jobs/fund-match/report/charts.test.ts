/**
 * The fund-match digest's charts: fit bands, sector and stage mix and the fit trend drawn from a
 * second run; on the baseline the trend is not drawn and says why; an empty batch draws nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderFundCharts, trendSpec, TREND_COLOURED } from '../../../../jobs/fund-match/report/index.js';
import type { FundChart } from '../../../../jobs/fund-match/report/index.js';
import type { FundDigest } from '../../../../jobs/fund-match/digest.js';
import { CJK_KEY, CJK_NAME, FORMULA_NAME, fundDigests } from './fixture.js';

/** The texts of an SVG's <text> elements (labels, legend, title), entities decoded. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
    (m[1] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"'),
  );
}

const byId = (charts: FundChart[]) => new Map(charts.map((c) => [c.id, c]));

describe('renderFundCharts', () => {
  const digests = fundDigests();
  let second: Map<string, FundChart>;
  let baseline: Map<string, FundChart>;
  beforeAll(async () => {
    second = byId(await renderFundCharts(digests.second));
    baseline = byId(await renderFundCharts(digests.baseline));
  });

  it('draws the fit bands (best on top), the sector and the stage mix as horizontal bars, and the trend', () => {
    expect([...second.keys()]).toEqual(['fit', 'sectors', 'stages', 'trend']);
    for (const c of second.values()) {
      expect(c.note).toBeNull();
      expect(c.rendered?.svg).toMatch(/^<svg/);
      expect(c.rendered?.png.subarray(1, 4).toString()).toBe('PNG');
    }
    const fit = texts(second.get('fit')!.rendered!.svg);
    expect(fit.indexOf('95-100')).toBeLessThan(fit.indexOf('65-69'));
    expect(texts(second.get('sectors')!.rendered!.svg)).toContain('Energy, Environment & Mobility');
    expect(second.get('sectors')!.rendered!.meta?.kind).toBe('hbar');
    expect(second.get('stages')!.rendered!.meta?.kind).toBe('hbar');
  });

  it('draws one line a still-matched startup over the run dates, the largest moves named in the legend', () => {
    const trend = second.get('trend')!;
    expect(trend.rendered!.meta?.kind).toBe('line');
    expect(trend.rendered!.meta?.series).toBe(digests.second.counts.still);
    const labels = texts(trend.rendered!.svg);
    expect(labels).toEqual(expect.arrayContaining(['9 Nov 2026', '16 Nov 2026']));
    // The startup whose fit rose 9 points is among the coloured ones; the legend names no more.
    const { coloured } = trendSpec(digests.second);
    expect(coloured).toHaveLength(TREND_COLOURED);
    expect(coloured).toContain('Neuronest');
    for (const name of coloured) expect(labels).toContain(name);
    expect(trend.title).toContain('in grey');
    // The others are grey lines; the coloured ones take the palette, never its grey.
    const svg = trend.rendered!.svg;
    expect(svg).toContain('stroke="#c3cad2"');
    expect(svg).toContain('stroke="#1f4e79"');
    expect(svg).not.toContain('stroke="#7f8c8d"');
  });

  it('names a startup in Chinese (the fallback font draws it), and keeps a formula-like name as text', () => {
    const names = (trendSpec(digests.second).spec.series as { name: string }[]).map((s) => s.name);
    expect(names).toContain(CJK_NAME);
    expect(names).not.toContain(`${CJK_KEY} *`);
    expect(names).toContain(FORMULA_NAME);
  });

  it('does not draw the trend of the baseline, and says why', () => {
    const trend = baseline.get('trend')!;
    expect(trend.rendered).toBeNull();
    expect(trend.note).toMatch(/^Baseline: this is the first run of the job, so there is no trend yet/);
    expect(baseline.get('fit')!.rendered).not.toBeNull();
  });

  it('draws nothing for an empty batch and says why each chart is missing', async () => {
    const empty: FundDigest = {
      ...digests.second,
      batch: [],
      newMatches: [],
      still: [],
      counts: { ...digests.second.counts, batch: 0, new: 0, still: 0 },
      charts: { fit: [], sectors: [], stages: [], trend: [] },
    };
    const charts = byId(await renderFundCharts(empty));
    for (const c of charts.values()) expect(c.rendered).toBeNull();
    expect(charts.get('fit')!.note).toBe('No fit chart: the batch is empty.');
    expect(charts.get('sectors')!.note).toBe('No sector chart: the batch is empty.');
    expect(charts.get('trend')!.note).toBe(
      'No trend: no startup of this batch was matched by an earlier run.',
    );
  });

  it('says when the service gave no sector or stage for any startup', async () => {
    const unknown: FundDigest = {
      ...digests.second,
      charts: {
        ...digests.second.charts,
        sectors: [{ label: 'not given', count: 30 }],
        stages: [{ label: 'not given', count: 30 }],
      },
    };
    const charts = byId(await renderFundCharts(unknown));
    expect(charts.get('sectors')!.note).toBe(
      'No sector chart: the service gave no sector for any startup of the batch.',
    );
    expect(charts.get('stages')!.rendered).toBeNull();
  });
});
