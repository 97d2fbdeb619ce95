/**
 * The building blocks of the portal's interactive report pages: escaped text, tables, key
 * figures, and charts embedded with vega-embed from the Vega-Lite spec the PDF renders, each
 * with its data as a table for a reader without JavaScript.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ChartSpec } from '../api/envelope.js';
import { formatValue, humanizeKey, normalizeChart } from '../reports/charts/index.js';
import type { KeyFigure } from '../reports/pdf/index.js';

/** Text of a value as a cell shows it: strings and numbers as they are, anything else as JSON. */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(value: unknown): string {
  return textOf(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * JSON for a `<script type="application/json">` element: `<`, `>`, `&` and the line separators
 * as \u escapes, so no text of the service can close the element or open a comment in it. The
 * result is still JSON that parses to the same value.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A cell of a table: text, or text with a link the reader can open. */
export type Cell = string | { text: string; href: string | null };

/** One column of a table: its header, and whether its values are numbers (right aligned). */
export interface Column {
  header: string;
  numeric?: boolean;
}

/** A table with a caption; `empty` when it has no rows (null: nothing at all). */
export function table(
  caption: string | null,
  columns: Column[],
  rows: Cell[][],
  empty: string | null = null,
): string {
  if (rows.length === 0) return empty === null ? '' : `<p class="empty">${esc(empty)}</p>`;
  const cls = (c: Column | undefined) => (c?.numeric ? ' class="num"' : '');
  const cell = (c: Cell): string =>
    typeof c === 'string'
      ? esc(c)
      : c.href
        ? `<a href="${esc(c.href)}" rel="noopener noreferrer">${esc(c.text)}</a>`
        : esc(c.text);
  return [
    '<div class="table-wrap"><table>',
    caption ? `<caption>${esc(caption)}</caption>` : '',
    `<thead><tr>${columns.map((c) => `<th scope="col"${cls(c)}>${esc(c.header)}</th>`).join('')}</tr></thead>`,
    '<tbody>',
    ...rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(columns[i])}>${cell(c)}</td>`).join('')}</tr>`),
    '</tbody></table></div>',
  ].join('');
}

/** The key figures the report opens with, as tiles. */
export function keyFigures(figures: readonly KeyFigure[]): string {
  if (figures.length === 0) return '';
  const tiles = figures.map(
    (f) =>
      `<div class="figure"><dt>${esc(f.label)}</dt><dd class="value">${esc(f.value)}</dd>` +
      (f.note ? `<dd class="note${f.trend ? ` ${f.trend}` : ''}">${esc(f.note)}</dd>` : '') +
      '</div>',
  );
  return `<dl class="figures">${tiles.join('')}</dl>`;
}

/** A chart of a page: the Vega-Lite spec the PDF renders, its data, its caption. */
export interface PageChart {
  /** Unique in the page (letters, digits, dashes). */
  id: string;
  title: string;
  /** The Vega-Lite spec handed to vega-embed: the one the PDF's renderer is given. */
  vegaLite: TopLevelSpec;
  /** The chart's data as the service or the report gave it (the text fallback's table). */
  data?: ChartSpec | null;
  /** Where it came from (the PDF's caption). */
  caption?: string | null;
  /** 'half': may sit beside another on a wide screen. */
  size?: 'half' | 'full';
}

/** The element id of a chart's spec script. */
export const specElementId = (chartId: string): string => `spec-${chartId}`;

/** The chart's data as a table, or null when the spec holds none the reader could read. */
export function chartDataTable(data: ChartSpec | null | undefined): string | null {
  if (!data) return null;
  const chart = normalizeChart(data);
  if (chart.rows.length === 0 || chart.series.length === 0) return null;
  const columns: Column[] = [
    { header: humanizeKey(chart.xKey) },
    ...chart.series.map((s) => ({ header: s.name, numeric: true })),
  ];
  const rows = chart.rows.map((r) => {
    const x = r[chart.xKey];
    return [
      x === null || x === undefined ? '—' : textOf(x),
      ...chart.series.map((s) => {
        const v = r[s.key];
        return typeof v === 'number' ? formatValue(v, s.unit) : '—';
      }),
    ];
  });
  return table(null, columns, rows);
}

/**
 * A chart as a figure: a `<div>` vega-embed draws into (by /assets/report-charts.js), the spec
 * in a `<script type="application/json">` beside it, and its data in a `<details>` that also
 * reads without JavaScript (open in a `<noscript>` page).
 */
export function chartFigure(c: PageChart): string {
  const data = chartDataTable(c.data);
  return [
    `<figure class="chart ${c.size === 'half' ? 'half' : 'full'}" id="chart-${esc(c.id)}" data-chart="${esc(specElementId(c.id))}">`,
    `<figcaption class="chart-title">${esc(c.title)}</figcaption>`,
    `<div class="chart-view" role="img" aria-label="${esc(c.title)}"><p class="chart-wait">Chart: needs JavaScript; its data is in the table below.</p></div>`,
    `<script type="application/json" id="${esc(specElementId(c.id))}">${scriptJson(c.vegaLite)}</script>`,
    data ? `<details class="chart-data"><summary>Data of the chart</summary>${data}</details>` : '',
    c.caption ? `<p class="source">${esc(c.caption)}</p>` : '',
    '</figure>',
  ].join('');
}

/** A section with a heading and its blocks (left out when it has none). */
export function section(title: string, blocks: string[], level: 2 | 3 = 2, id?: string): string {
  const body = blocks.filter((b) => b.length > 0);
  if (body.length === 0) return '';
  const idAttr = id ? ` id="${esc(id)}"` : '';
  return `<section${idAttr}><h${level}>${esc(title)}</h${level}>${body.join('')}</section>`;
}

/** Paragraphs of text. */
export const paragraphs = (texts: readonly (string | null | undefined)[]): string =>
  texts
    .filter((t): t is string => typeof t === 'string' && t.trim().length > 0)
    .map((t) => `<p>${esc(t)}</p>`)
    .join('');

/** Charts side by side where there is room: a row of them. */
export const chartRow = (charts: PageChart[]): string =>
  charts.length === 0 ? '' : `<div class="charts">${charts.map(chartFigure).join('')}</div>`;

/** A narrow table and its charts: side by side on a wide screen, one under the other on a phone. */
export const pair = (tableHtml: string, charts: string): string =>
  tableHtml && charts ? `<div class="pair"><div>${tableHtml}</div>${charts}</div>` : tableHtml + charts;

/** What a whole page needs: its title, the line under it, and its body. */
export interface PageParts {
  title: string;
  subtitle?: string | null;
  headline?: string | null;
  figures?: readonly KeyFigure[];
  /** Links shown under the title (the run's page, its files). */
  links?: { text: string; href: string }[];
  body: string[];
}

/**
 * A whole interactive report page. Scripts and styles are the portal's own files under /assets/
 * (no inline script, no CDN): the page reads the same under a Content-Security-Policy of 'self'.
 */
export function page(p: PageParts): string {
  const links =
    p.links && p.links.length > 0
      ? `<nav class="report-links">${p.links.map((l) => `<a href="${esc(l.href)}">${esc(l.text)}</a>`).join('')}</nav>`
      : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(p.title)}</title>`,
    '<link rel="stylesheet" href="/assets/report.css">',
    // No icon of its own: without this line the browser asks /favicon.ico, which the portal has not.
    '<link rel="icon" href="data:,">',
    '</head><body class="interactive-report">',
    '<header class="report-head">',
    `<h1>${esc(p.title)}</h1>`,
    p.subtitle ? `<p class="subtitle">${esc(p.subtitle)}</p>` : '',
    links,
    p.headline ? `<p class="headline">${esc(p.headline)}</p>` : '',
    keyFigures(p.figures ?? []),
    '</header>',
    '<main>',
    ...p.body,
    '</main>',
    '<script src="/assets/vega.min.js"></script>',
    '<script src="/assets/vega-lite.min.js"></script>',
    '<script src="/assets/vega-embed.min.js"></script>',
    '<script src="/assets/vega-interpreter.js"></script>',
    '<script src="/assets/report-charts.js"></script>',
    '</body></html>',
  ].join('\n');
}
