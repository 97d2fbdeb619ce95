/**
 * Every chart of the market report: the report's own (by year, stage mix, sectors, investors,
 * cross-country) and every chart spec the service returned, rendered once and shared by the
 * PDF (SVG) and the workbook (PNG).
 */
import type { ChartSpec } from '../../api/envelope.js';
import { renderChart } from '../charts/index.js';
import type { RenderedChart } from '../charts/index.js';
import { countryFigures, yearRows, asOfYear } from './figures.js';
import type { MarketReportModel } from './model.js';

export interface PlannedChart {
  id: string;
  spec: ChartSpec;
  /** Where the chart came from, printed as its caption. */
  source: string;
}

export type RenderedCharts = Map<string, RenderedChart>;

/** Ids of a country's own charts. */
export const countryChartId = (i: number, what: 'years' | 'stages' | 'sectors' | 'investors'): string => `c${i}-${what}`;
export const serviceChartId = (i: number, j: number): string => `c${i}-svc${j}`;
export const answerChartId = (i: number, j: number): string => `a${i}-${j}`;
export const COMPARE_CAPITAL = 'cmp-capital';
export const COMPARE_DEALS = 'cmp-deals';

/** Whether an answer's rows can be drawn (some numeric column besides the first). */
function rowsChart(columns: string[], rows: Record<string, unknown>[], title: string): ChartSpec | null {
  if (rows.length < 2 || columns.length < 2) return null;
  const numeric = columns.slice(1).filter((c) => rows.every((r) => typeof r[c] === 'number' || r[c] === null || r[c] === undefined) && rows.some((r) => typeof r[c] === 'number'));
  if (numeric.length === 0) return null;
  return { type: 'auto', title, xKey: columns[0], series: numeric.slice(0, 3), data: rows.slice(0, 30) };
}

/** The charts of a model, in the order they appear in the PDF. */
export function planCharts(model: MarketReportModel): PlannedChart[] {
  const out: PlannedChart[] = [];
  const ytd = asOfYear(model);
  model.countries.forEach((c, i) => {
    const years = yearRows(c, ytd);
    if (years.length > 0) {
      out.push({
        id: countryChartId(i, 'years'),
        source: 'Report chart from country_overview by_year',
        spec: {
          type: 'combo',
          title: `${c.country}: deals and capital by year`,
          xKey: 'period',
          series: [
            { key: 'deals', name: 'Deals', type: 'bar' },
            { key: 'capital_usd', name: 'Capital (USD)', type: 'line', unit: 'USD' },
          ],
          data: years.map((y) => ({ period: y.partial ? `${y.year} YTD` : String(y.year), deals: y.deals, capital_usd: y.capital_usd })),
        },
      });
    }
    if (c.stage_mix.length > 0) {
      out.push({
        id: countryChartId(i, 'stages'),
        source: 'Report chart from country_overview stage_mix',
        spec: { type: 'donut', title: `${c.country}: deals by stage`, xKey: 'stage', series: ['deals'], data: c.stage_mix.map((s) => ({ stage: s.stage, deals: s.deals })) },
      });
    }
    if (c.top_sectors.length > 0) {
      const byCapital = c.top_sectors.some((s) => typeof s.capital_usd === 'number');
      out.push({
        id: countryChartId(i, 'sectors'),
        source: 'Report chart from country_overview top_sectors',
        spec: {
          type: 'horizontal_bar',
          title: `${c.country}: top sectors by ${byCapital ? 'capital' : 'deals'}`,
          xKey: 'sector',
          series: [byCapital ? { key: 'capital_usd', name: 'Capital', unit: 'USD' } : { key: 'deals', name: 'Deals' }],
          unit: byCapital ? 'USD' : 'deals',
          data: c.top_sectors.map((s) => ({ sector: s.sector, deals: s.deals, capital_usd: s.capital_usd ?? null })),
        },
      });
    }
    if (c.most_active_investors.length > 0) {
      const withLead = c.most_active_investors.some((m) => typeof m.lead_deals === 'number');
      out.push({
        id: countryChartId(i, 'investors'),
        source: 'Report chart from country_overview most_active_investors',
        spec: {
          type: 'horizontal_bar',
          title: `${c.country}: most active investors`,
          xKey: 'name',
          series: withLead ? [{ key: 'deals', name: 'Deals' }, { key: 'lead_deals', name: 'As lead' }] : [{ key: 'deals', name: 'Deals' }],
          unit: 'deals',
          data: c.most_active_investors.slice(0, 15).map((m) => ({ name: m.name, deals: m.deals, lead_deals: m.lead_deals ?? null })),
        },
      });
    }
    c.charts.forEach((spec, j) => out.push({ id: serviceChartId(i, j), spec, source: `Chart from the service (country_overview, ${c.country})` }));
  });
  model.answers.forEach((a, i) => {
    const charts = a.charts ?? [];
    charts.forEach((spec, j) => out.push({ id: answerChartId(i, j), spec, source: 'Chart from the service (ask)' }));
    if (charts.length === 0 && !a.skipped) {
      const rows = a.rows ?? [];
      const columns = a.columns && a.columns.length > 0 ? a.columns : Object.keys(rows[0] ?? {});
      const spec = rowsChart(columns, rows, a.question);
      if (spec) out.push({ id: answerChartId(i, 0), spec, source: 'Report chart from the answer rows' });
    }
  });
  if (model.countries.length > 0) {
    const figs = model.countries.map((c) => countryFigures(model, c));
    const lfy = figs[0]?.lastFullYear ?? ytdMinusOne(model);
    out.push({
      id: COMPARE_CAPITAL,
      source: 'Report chart from country_overview by_year',
      spec: {
        type: 'bar',
        title: `Capital by country: ${lfy} and ${ytd} to date`,
        xKey: 'country',
        unit: 'USD',
        series: [
          { key: 'full', name: String(lfy) },
          { key: 'ytd', name: `${ytd} YTD` },
        ],
        data: figs.map((f) => ({ country: f.country, full: f.lastFull.capital, ytd: f.ytd.capital })),
      },
    });
    out.push({
      id: COMPARE_DEALS,
      source: 'Report chart from country_overview by_year',
      spec: {
        type: 'bar',
        title: `Deals by country: ${lfy} and ${ytd} to date`,
        xKey: 'country',
        unit: 'deals',
        series: [
          { key: 'full', name: String(lfy) },
          { key: 'ytd', name: `${ytd} YTD` },
        ],
        data: figs.map((f) => ({ country: f.country, full: f.lastFull.deals, ytd: f.ytd.deals })),
      },
    });
  }
  return out;
}

function ytdMinusOne(model: MarketReportModel): number {
  return asOfYear(model) - 1;
}

/** Renders the planned charts one after the other (Vega runs on one thread anyway). */
export async function renderCharts(planned: PlannedChart[]): Promise<RenderedCharts> {
  const out: RenderedCharts = new Map();
  for (const p of planned) out.set(p.id, await renderChart(p.spec));
  return out;
}
