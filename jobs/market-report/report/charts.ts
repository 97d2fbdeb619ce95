/**
 * Every chart of the market report: the report's own (by year, stage mix, sectors, investors,
 * cross-country) and every chart spec the service returned, rendered once and shared by the
 * PDF (SVG) and the workbook (PNG).
 */
import type { ChartSpec } from '../../../api/envelope.js';
import { isIdentifierKey, normalizeChart, renderChart } from '../../../reports/charts/index.js';
import { LABEL_FONT_SIZE } from '../../../reports/charts/vegalite-theme.js';
import { measureText } from '../../../reports/fonts.js';
import type { ChartLayout, RenderedChart } from '../../../reports/charts/index.js';
import { answerColumnsForPdf, answerTitle } from './answers.js';
import { stageLabel, yearLabel } from '../../../reports/editorial.js';
import { countryFigures, yearRows, asOfYear, sectorsByChart } from './figures.js';
import type { MarketReportModel } from './model.js';
import { sourceCaption } from '../../../reports/sources.js';
import { knownIds } from './provenance.js';

/** The subsection of a country section a chart belongs to. */
export type ChartGroup = 'years' | 'stages' | 'sectors' | 'investors' | 'other';

/** Where a chart is drawn. */
export type ChartPlace =
  | { kind: 'country'; country: number; group: ChartGroup }
  | { kind: 'answer'; answer: number }
  | { kind: 'compare' };

export interface PlannedChart {
  id: string;
  spec: ChartSpec;
  /**
   * Where the chart came from, printed as its caption: the stored answers it was drawn from
   * ("Source: country_overview (S1)"); in a model without sources, the operation only.
   */
  source: string;
  place: ChartPlace;
  /** 'half': beside a table or another chart; 'full': the content width. */
  size: 'half' | 'full';
  /** Render size, in PDF points (charts are drawn at 1:1). */
  layout: ChartLayout;
  /** True for the service's own charts (every one is drawn, once). */
  fromService: boolean;
}

export type RenderedCharts = Map<string, RenderedChart>;

/** A4 content width in points (595.28 minus two 50 pt margins) and the gap between row cells. */
export const CONTENT_WIDTH = 495;
export const ROW_GAP = 16;
/** Width of a half-width chart: two of them and the gap fill the content width. */
export const HALF_WIDTH = Math.floor((CONTENT_WIDTH - ROW_GAP) / 2);

/** Ids of a country's own charts. */
export const countryChartId = (i: number, what: 'years' | 'stages' | 'sectors' | 'investors'): string =>
  `c${i}-${what}`;
export const serviceChartId = (i: number, j: number): string => `c${i}-svc${j}`;
export const answerChartId = (i: number, j: number): string => `a${i}-${j}`;
export const COMPARE_CAPITAL = 'cmp-capital';
export const COMPARE_DEALS = 'cmp-deals';

/** Groups whose table is narrow enough for a chart beside it. */
const NARROW_TABLE: Record<ChartGroup, boolean> = {
  years: false,
  stages: true,
  sectors: true,
  investors: true,
  other: false,
};

/**
 * The subsection a service chart belongs to, from its declared x key and its title: stage,
 * sector and investor charts by name, periods (year, quarter, month, date) as by-year charts,
 * anything else at the end of the section.
 */
export function serviceChartGroup(spec: ChartSpec): ChartGroup {
  const x = typeof spec.xKey === 'string' ? spec.xKey.toLowerCase() : '';
  const title = typeof spec.title === 'string' ? spec.title.toLowerCase() : '';
  if (/stage/.test(x) || /\bstages?\b/.test(title)) return 'stages';
  if (/sector|industr|vertical/.test(x) || /\bsectors?\b|industr/.test(title)) return 'sectors';
  if (/investor|backer/.test(x) || /investors?\b/.test(title)) return 'investors';
  if (
    /^(year|period|quarter|month|date|fy)/.test(x) ||
    /\b(by|per) (year|quarter|month)\b|\bsince (19|20)\d\d\b|over time/.test(title)
  )
    return 'years';
  return 'other';
}

/**
 * Render size for a chart of `size`, in px: larger than its place on the page, so that the
 * PDF scales it down (labels print at about 7 to 8 pt, as in a printed market report).
 * Horizontal bars get a compact band, and room for their longest category label (up to 55% of
 * the width) so that a sector or an investor's name is printed whole, never cut.
 */
export function layoutFor(spec: ChartSpec, size: 'half' | 'full'): ChartLayout {
  const series = Math.max(1, normalizeChart(spec).series.length);
  const band = series === 1 ? 18 : 8 * series + 4;
  const base = size === 'half' ? { width: 330, height: 220, band } : { width: 620, height: 240, band };
  const x = typeof spec.xKey === 'string' ? spec.xKey : null;
  const labels: string[] = [];
  if (x && Array.isArray(spec.data))
    for (const r of spec.data) {
      const v = r !== null && typeof r === 'object' ? (r as Record<string, unknown>)[x] : null;
      if (typeof v === 'string' || typeof v === 'number') labels.push(String(v));
    }
  const widest = Math.max(0, ...labels.map((l) => measureText(l, LABEL_FONT_SIZE)));
  return widest > 0
    ? { ...base, labelLimit: Math.min(Math.ceil(widest) + 6, Math.floor(base.width * 0.55)) }
    : base;
}

/**
 * Sizes of `n` charts that follow a table: with a narrow table the first sits beside it, the
 * rest go two by two; an odd one out takes the full width.
 */
export function chartSizes(n: number, besideTable: boolean): ('half' | 'full')[] {
  const out: ('half' | 'full')[] = [];
  let rest = n;
  if (besideTable && rest > 0) {
    out.push('half');
    rest--;
  }
  while (rest >= 2) {
    out.push('half', 'half');
    rest -= 2;
  }
  if (rest === 1) out.push('full');
  return out;
}

type Draft = Omit<PlannedChart, 'size' | 'layout'>;

/**
 * A chart's caption: the answers `ids` it was drawn from by operation and id, a service chart
 * said to be the service's; `fallback` when the model names no source (an older model).
 */
function captionOf(
  model: MarketReportModel,
  ids: (string | null | undefined)[],
  fallback: string,
  byService = false,
): string {
  const caption = sourceCaption(model.sources, knownIds(ids));
  if (!caption) return fallback;
  return byService ? `${caption}; the service's chart` : caption;
}

function sized(drafts: Draft[], besideTable: boolean | 'full'): PlannedChart[] {
  const sizes =
    besideTable === 'full' ? drafts.map(() => 'full' as const) : chartSizes(drafts.length, besideTable);
  return drafts.map((d, k) => {
    const size = sizes[k] ?? 'full';
    return { ...d, size, layout: layoutFor(d.spec, size) };
  });
}

/** Whether an answer's rows can be drawn (some numeric column besides the first). */
function rowsChart(columns: string[], rows: Record<string, unknown>[], title: string): ChartSpec | null {
  if (rows.length < 2 || columns.length < 2) return null;
  const numeric = columns
    .slice(1)
    .filter(
      (c) =>
        !isIdentifierKey(c) &&
        rows.every((r) => typeof r[c] === 'number' || r[c] === null || r[c] === undefined) &&
        rows.some((r) => typeof r[c] === 'number'),
    );
  if (numeric.length === 0) return null;
  return { type: 'auto', title, xKey: columns[0], series: numeric.slice(0, 3), data: rows.slice(0, 30) };
}

/** The report's own charts of a country, by subsection. */
function ownCharts(model: MarketReportModel, i: number): Partial<Record<ChartGroup, Draft>> {
  const c = model.countries[i];
  if (!c) return {};
  const out: Partial<Record<ChartGroup, Draft>> = {};
  const years = yearRows(c, asOfYear(model));
  const place = (group: ChartGroup): ChartPlace => ({ kind: 'country', country: i, group });
  if (years.length > 0) {
    out.years = {
      id: countryChartId(i, 'years'),
      source: captionOf(model, [c.source], 'Report chart from country_overview by_year'),
      place: place('years'),
      fromService: false,
      spec: {
        type: 'combo',
        title: `${c.country}: deals and capital by year`,
        xKey: 'period',
        series: [
          { key: 'deals', name: 'Deals', type: 'bar' },
          { key: 'capital_usd', name: 'Capital (USD)', type: 'line', unit: 'USD' },
        ],
        data: years.map((y) => ({
          period: y.partial ? `${y.year} YTD` : yearLabel(y.year, model.period.asOf),
          deals: y.deals,
          capital_usd: y.capital_usd,
        })),
      },
    };
  }
  if (c.stage_mix.length > 0) {
    out.stages = {
      id: countryChartId(i, 'stages'),
      source: captionOf(model, [c.source], 'Report chart from country_overview stage_mix'),
      place: place('stages'),
      fromService: false,
      spec: {
        type: 'donut',
        title: `${c.country}: share of deals by stage`,
        xKey: 'stage',
        series: ['deals'],
        data: c.stage_mix.map((s) => ({ stage: stageLabel(s.stage), deals: s.deals })),
      },
    };
  }
  if (c.top_sectors.length > 0) {
    const byCapital = c.top_sectors.some((s) => typeof s.capital_usd === 'number');
    out.sectors = {
      id: countryChartId(i, 'sectors'),
      source: captionOf(model, [c.source], 'Report chart from country_overview top_sectors'),
      place: place('sectors'),
      fromService: false,
      spec: {
        type: 'horizontal_bar',
        title: `${c.country}: top sectors by ${byCapital ? 'capital' : 'deals'}`,
        xKey: 'sector',
        series: [
          byCapital ? { key: 'capital_usd', name: 'Capital', unit: 'USD' } : { key: 'deals', name: 'Deals' },
        ],
        unit: byCapital ? 'USD' : 'deals',
        data: sectorsByChart(c.top_sectors).map((s) => ({
          sector: s.sector,
          deals: s.deals,
          capital_usd: s.capital_usd ?? null,
        })),
      },
    };
  }
  if (c.most_active_investors.length > 0) {
    const withLead = c.most_active_investors.some((m) => typeof m.lead_deals === 'number');
    out.investors = {
      id: countryChartId(i, 'investors'),
      source: captionOf(model, [c.source], 'Report chart from country_overview most_active_investors'),
      place: place('investors'),
      fromService: false,
      spec: {
        type: 'horizontal_bar',
        title: `${c.country}: most active investors`,
        xKey: 'name',
        series: withLead
          ? [
              { key: 'deals', name: 'Deals' },
              { key: 'lead_deals', name: 'As lead' },
            ]
          : [{ key: 'deals', name: 'Deals' }],
        unit: 'deals',
        data: c.most_active_investors
          .slice(0, 10)
          .map((m) => ({ name: m.name, deals: m.deals, lead_deals: m.lead_deals ?? null })),
      },
    };
  }
  return out;
}

const GROUPS: ChartGroup[] = ['years', 'stages', 'sectors', 'investors', 'other'];

/**
 * A chart spec as a reader reads it: stage keys in its rows in words (`series-a` -> `Series A`)
 * and a year in progress marked YTD (`2026` -> `2026 YTD`) in the column it is drawn along.
 */
export function readerChart(spec: ChartSpec, asOf: string): ChartSpec {
  if (!Array.isArray(spec.data)) return spec;
  const x = typeof spec.xKey === 'string' ? spec.xKey : null;
  const data = spec.data.map((row) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) return row;
    const out: Record<string, unknown> = { ...(row as Record<string, unknown>) };
    for (const [k, v] of Object.entries(out)) {
      if (typeof v === 'string' && /(^|_)stage$/i.test(k)) out[k] = stageLabel(v);
      if (k === x && /^(year|period|fy)$/i.test(k) && (typeof v === 'number' || /^\d{4}$/.test(String(v))))
        out[k] = yearLabel(Number(v), asOf);
    }
    return out;
  });
  return { ...spec, data };
}

/**
 * The charts of a model, in the order they appear in the PDF, each with its place and size.
 * Every chart the service returned is there once, in the subsection it belongs to; the
 * report's own chart of a subsection is left out when a service chart there shows the same
 * view (same series, both pies or neither).
 */
export function planCharts(model: MarketReportModel): PlannedChart[] {
  const out: PlannedChart[] = [];
  const ytd = asOfYear(model);
  model.countries.forEach((c, i) => {
    const own = ownCharts(model, i);
    const service: Draft[] = c.charts.map((spec, j) => ({
      id: serviceChartId(i, j),
      spec,
      source: captionOf(model, [c.source], 'Service chart (country_overview)', true),
      place: { kind: 'country', country: i, group: serviceChartGroup(spec) },
      fromService: true,
    }));
    for (const group of GROUPS) {
      const theirs = service.filter((d) => d.place.kind === 'country' && d.place.group === group);
      const mine = own[group];
      // One chart of a subsection's data: the report's own (its rows labelled as the table's);
      // a service chart of the same data (stage mix as a bar beside the donut, capital by year
      // twice) is not drawn again. Charts of other data ('other') are all drawn.
      const drafts = group === 'other' ? theirs : mine ? [mine] : theirs.slice(0, 1);
      const hasTable = {
        years: c.by_year.length > 0,
        stages: c.stage_mix.length > 0,
        sectors: c.top_sectors.length > 0,
        investors: c.most_active_investors.length > 0,
        other: false,
      }[group];
      out.push(...sized(drafts, NARROW_TABLE[group] && hasTable));
    }
  });
  model.answers.forEach((a, i) => {
    if (a.skipped) return;
    const charts = a.charts ?? [];
    const rows = a.rows ?? [];
    const place: ChartPlace = { kind: 'answer', answer: i };
    const drafts: Draft[] = charts.map((spec, j) => ({
      id: answerChartId(i, j),
      spec,
      source: captionOf(model, [a.source], 'Service chart (ask)', true),
      place,
      fromService: true,
    }));
    const table = rows.length > 0 ? answerColumnsForPdf(a).shown : [];
    if (charts.length === 0) {
      // Titled as the answer's heading (the question's intent in words), not its prompt.
      const spec = rowsChart(table, rows, answerTitle(a.question, a.country));
      if (spec)
        drafts.push({
          id: answerChartId(i, 0),
          spec,
          source: captionOf(model, [a.source], 'Report chart from the answer rows'),
          place,
          fromService: false,
        });
    }
    out.push(...sized(drafts, table.length > 0 && table.length <= 3));
  });
  if (model.countries.length > 0) {
    const figs = model.countries.map((c) => countryFigures(model, c));
    const lfy = figs[0]?.lastFullYear ?? ytdMinusOne(model);
    const place: ChartPlace = { kind: 'compare' };
    const compared = captionOf(
      model,
      model.countries.map((c) => c.source),
      'Report chart from country_overview by_year',
    );
    out.push(
      ...sized(
        [
          {
            id: COMPARE_CAPITAL,
            source: compared,
            place,
            fromService: false,
            spec: {
              type: 'bar',
              title: `Capital by country: ${lfy} and ${yearLabel(ytd, model.period.asOf)}`,
              xKey: 'country',
              unit: 'USD',
              series: [
                { key: 'full', name: String(lfy) },
                { key: 'ytd', name: yearLabel(ytd, model.period.asOf) },
              ],
              data: figs.map((f) => ({ country: f.country, full: f.lastFull.capital, ytd: f.ytd.capital })),
            },
          },
          {
            id: COMPARE_DEALS,
            source: compared,
            place,
            fromService: false,
            spec: {
              type: 'bar',
              title: `Deals by country: ${lfy} and ${yearLabel(ytd, model.period.asOf)}`,
              xKey: 'country',
              unit: 'deals',
              series: [
                { key: 'full', name: String(lfy) },
                { key: 'ytd', name: yearLabel(ytd, model.period.asOf) },
              ],
              data: figs.map((f) => ({ country: f.country, full: f.lastFull.deals, ytd: f.ytd.deals })),
            },
          },
        ],
        // The comparison page has room: both charts at the full width.
        'full',
      ),
    );
  }
  return out.map((p) => ({ ...p, spec: readerChart(p.spec, model.period.asOf) }));
}

function ytdMinusOne(model: MarketReportModel): number {
  return asOfYear(model) - 1;
}

/** Renders the planned charts one after the other (Vega runs on one thread anyway). */
export async function renderCharts(planned: PlannedChart[]): Promise<RenderedCharts> {
  const out: RenderedCharts = new Map();
  for (const p of planned) out.set(p.id, await renderChart(p.spec, p.layout));
  return out;
}
