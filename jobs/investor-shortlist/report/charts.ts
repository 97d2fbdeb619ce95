/**
 * The investor shortlist's charts: each company's match-overview charts as the service gave them
 * (`section.charts`: the deal activity by year as a combo of bars and a line, the stages of the
 * matched investors' deals, where they are), rendered once: SVG for the PDF, PNG for the
 * workbook. Before they are drawn, their labels are put in the report's words: stages as
 * `Series A` (stageLabel), the year the data is as of as `2026 YTD` (yearLabel), so no axis
 * draws a year in progress as a whole one. A chart the renderer cannot draw (no rows, no number to plot, a spec it fails on) is
 * not drawn: its note says so and the report prints it where the chart would be.
 */
import type { ChartSpec } from '../../../api/envelope.js';
import { HALF_CHART_WIDTH, normalizeChart, renderChart } from '../../../reports/charts/index.js';
import type { ChartLayout, ReportChart } from '../../../reports/charts/index.js';
import { stageLabel, yearLabel } from '../../../reports/editorial.js';
import { printableText } from '../../../reports/fonts.js';
import type { ShortlistReport } from '../types.js';
import { chartSource } from './sources.js';

/**
 * One service chart of a company: drawn, or why not. `company` is its index in
 * `report.companies`; `source` its caption (the answer it came with; null: not known).
 */
export interface ShortlistChart extends ReportChart {
  company: number;
  source?: string | null;
}

/** Every chart is drawn at half the page's width, two to a row. */
const LAYOUT: ChartLayout = { width: HALF_CHART_WIDTH, height: 220 };

/** The chart's title as given, or a stand-in. */
function titleOf(spec: ChartSpec, j: number): string {
  const t = typeof spec.title === 'string' ? printableText(spec.title) : '';
  return t || `Chart ${j + 1}`;
}

/**
 * An x label in the report's words: a stage key in words on a stage axis, a year on a year axis
 * with `YTD` when it is the year the data is as of (`asOf`, the run's date) and not over.
 */
export function xLabel(xKey: string, x: unknown, asOf: string): unknown {
  if (/year/i.test(xKey) && (typeof x === 'number' || (typeof x === 'string' && /^\d{4}$/.test(x.trim()))))
    return yearLabel(typeof x === 'number' ? x : Number(x.trim()), asOf);
  if (/stage/i.test(xKey) && typeof x === 'string') return stageLabel(x);
  return x;
}

/** The spec with its title and x labels in words (xLabel), as the fonts can draw them (reports/font-chain.ts). */
function printable(spec: ChartSpec, title: string, asOf: string): ChartSpec {
  const xKey = typeof spec.xKey === 'string' ? spec.xKey : null;
  const data = Array.isArray(spec.data)
    ? spec.data.map((r: unknown) => {
        if (!xKey || !r || typeof r !== 'object') return r;
        const row = r as Record<string, unknown>;
        const x = xLabel(xKey, row[xKey], asOf);
        return typeof x === 'string' ? { ...row, [xKey]: printableText(x) } : { ...row, [xKey]: x };
      })
    : spec.data;
  return { ...spec, title, data };
}

/** Why a chart cannot be drawn, or null when it can. */
function undrawable(spec: ChartSpec): string | null {
  const n = normalizeChart(spec);
  if (n.rows.length === 0) return 'had no data the report could draw';
  if (n.kind === 'table' || n.series.length === 0) return 'had no numbers the report could draw';
  return null;
}

async function one(
  spec: ChartSpec,
  company: string,
  i: number,
  j: number,
  asOf: string,
): Promise<ShortlistChart> {
  const title = titleOf(spec, j);
  const leftOut = (why: string): ShortlistChart => ({
    id: `c${i}-${j}`,
    company: i,
    title,
    rendered: null,
    note: `The service's chart "${title}" for ${printableText(company)} ${why} and was left out.`,
  });
  const why = undrawable(spec);
  if (why !== null) return leftOut(why);
  try {
    const drawn = printable(spec, title, asOf);
    return {
      id: `c${i}-${j}`,
      company: i,
      title,
      rendered: await renderChart(drawn, LAYOUT),
      note: null,
      spec: drawn,
    };
  } catch {
    return leftOut('could not be drawn');
  }
}

/**
 * Every company's service charts, in the companies' order then the service's, rendered one
 * after the other (Vega runs on one thread anyway).
 *
 * @example const charts = await renderShortlistCharts(report); // charts.filter((c) => c.company === 0)
 */
export async function renderShortlistCharts(report: ShortlistReport): Promise<ShortlistChart[]> {
  const out: ShortlistChart[] = [];
  for (const [i, section] of report.companies.entries())
    for (const [j, spec] of section.charts.entries())
      out.push({ ...(await one(spec, section.name, i, j, report.date)), source: chartSource(report, i) });
  return out;
}

/** The charts of company `i`: the drawn ones, and the notes of those left out. */
export function companyCharts(
  charts: readonly ShortlistChart[],
  i: number,
): { drawn: ShortlistChart[]; notes: string[] } {
  const own = charts.filter((c) => c.company === i);
  return {
    drawn: own.filter((c) => c.rendered !== null),
    notes: own.filter((c) => c.rendered === null).map((c) => c.note ?? `"${c.title}" was left out.`),
  };
}
