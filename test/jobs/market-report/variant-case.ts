/**
 * The market report's part of the service variants' test (test/jobs/service-variants.test.ts):
 * the demo for one country, and its report model and files (PDF text and workbook cells)
 * compared with the plain run's, what the variant removed named as not provided.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ChartSpec } from '../../../api/envelope.js';
import type { MarketReportModel } from '../../../jobs/market-report/report/model.js';
import { normalizeChart } from '../../../reports/charts/index.js';
import { maskClock, reportDigest } from '../../helpers/report-digest.js';
import type { ServiceVariant } from '../../helpers/service-variants.js';
import type { Outcome, VariantCase } from '../../helpers/variant-cases.js';

type Figures = Record<string, unknown>;

/** What a chart draws: its categories and values per series (not its names, type or title). */
function drawn(spec: ChartSpec) {
  const n = normalizeChart(spec);
  return { x: n.xKey, series: n.series.map((s) => s.key), rows: n.rows };
}

/**
 * The plain run's figures as the variant must give them: what the variant removed emptied and
 * named, the notes a variant adds to the method section accepted.
 */
function expectedMarketFigures(plain: Figures, v: ServiceVariant): Figures {
  const m = structuredClone(plain) as unknown as MarketReportModel;
  for (const c of m.countries) {
    const gone = new Set(v.removes);
    if (gone.has('stage mix')) c.stage_mix = [];
    if (gone.has('top sectors')) c.top_sectors = [];
    for (const s of c.notable_startups) {
      if (gone.has('startup last round date')) s.last_round_date = null;
      if (gone.has('startup last round amount')) s.last_round_amount_usd = null;
    }
    if (v.removes.length > 0) c.not_provided = [...v.removes];
  }
  return m as unknown as Figures;
}

/** Method notes a variant may add (or word otherwise), per what it changed. */
function acceptedNotes(plainSources: string[], v: ServiceVariant, countries: string[]): string[] {
  let sources = [...plainSources];
  if (v.noTotals)
    sources = sources.map((s) => s.replace(/(startup list capped at \d+) of \d+/, '$1 of more'));
  for (const c of countries) {
    for (const what of v.removes) sources.push(`${c}: ${what} not provided by the service`);
    if (v.noTotals)
      sources.push(`${c}: the startup search gave no total, so it was paged until a short page`);
    if (v.chartsChanged)
      sources.push(
        `${c}: the "Deal flow by weekday" chart of the country overview had no data the report could draw and was left out`,
      );
  }
  return sources;
}

function compareMarket(plain: Outcome, got: Outcome, v: ServiceVariant): void {
  // The manifest names what each country lacked; the charts are the same unless the variant changed them.
  const plainCountries = (plain.figures as unknown as MarketReportModel).countries.map((c) => c.country);
  expect(got.manifest.notProvided.sort()).toEqual(
    plainCountries.flatMap((c) => v.removes.map((w) => `${c}: ${w}`)).sort(),
  );
  if (!v.chartsChanged && v.removes.length === 0) expect(got.manifest.charts).toBe(plain.manifest.charts);
  const want = expectedMarketFigures(plain.figures, v) as unknown as MarketReportModel;
  const have = structuredClone(got.figures) as unknown as MarketReportModel;
  const countries = want.countries.map((c) => c.country);
  expect(new Set(have.stats.sources)).toEqual(new Set(acceptedNotes(want.stats.sources, v, countries)));
  have.stats.sources = want.stats.sources;
  if (v.chartsChanged) {
    // The same figures drawn, whatever shape the service gave its charts.
    const charts = (m: MarketReportModel) => [
      ...m.countries.map((c) => c.charts.map(drawn)),
      ...m.answers.map((a) => (a.charts ?? []).map(drawn)),
    ];
    expect(charts(have)).toEqual(charts(want));
    for (const m of [have, want]) {
      m.countries.forEach((c) => (c.charts = []));
      m.answers.forEach((a) => (a.charts = []));
    }
  }
  expect(have).toEqual(want);
  if (v.removes.length === 0 && !v.noTotals && !v.chartsChanged) {
    // Nothing removed: the report a person reads is the same, cell by cell and line by line.
    expect(got.digest!.workbook.map(maskClock)).toEqual(plain.digest!.workbook.map(maskClock));
    expect(got.digest!.pdf.map(maskClock)).toEqual(plain.digest!.pdf.map(maskClock));
  }
  if (v.removes.length > 0) {
    const text = got.digest!.pdf.join(' ');
    expect(text).toContain('Not provided by the service:');
    for (const what of v.removes) expect(text).toContain(what);
  }
}

export const variantCase: VariantCase = {
  smaller(j) {
    j.countries = ['Germany'];
    j.top = { investors: 5, startups: 5 };
    // Two pages a stream: the paging variant's next offset is read.
    j.paging = { maxInvestorsPerCountry: 200, maxStartupsPerCountry: 200 };
    j.enrich = { investors: 1, startups: 1 };
    j.questions = (j.questions as string[]).slice(0, 2);
  },
  // The PDF and the workbook are what the market report proves: their text and cells too.
  async outcome({ result, manifest, runDir, mask, balanceBefore, balance }) {
    const model = JSON.parse(readFileSync(join(runDir, 'report', 'model.json'), 'utf8')) as MarketReportModel;
    // The balance the report gives is the account's, as the service saw it after the run.
    expect(model.stats.creditsRemaining).toBe(balance());
    expect(model.stats.creditsRemaining).toBe(balanceBefore - model.stats.creditsSpent);
    const { generatedAt: _g, ...rest } = model;
    const { durationMs: _d, ...stats } = rest.stats;
    const digest = await reportDigest(result.files, {
      workflowId: result.workflowId,
      runDate: manifest.startedAt.slice(0, 10),
    });
    return { figures: mask({ ...rest, stats }), digest };
  },
  compare: compareMarket,
};
