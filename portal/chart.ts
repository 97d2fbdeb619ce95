/**
 * A bar chart drawn on the server as inline SVG: one group of bars per row (a job), one bar per
 * series (today, this week, this month), each labelled with its value, and a legend. The figures
 * are also in the table beside it: the chart has a text alternative and no script.
 */
import { html, type SafeHtml } from './html.js';
import { COLORS } from '../reports/pdf/theme.js';

/** The colours of the series, from the reports' palette. */
const SERIES_COLOURS = [COLORS.accent, '#e08a1e', '#2e8b57'];

export interface BarChartInput {
  /** What the chart shows, as its accessible name. */
  title: string;
  /** The series' names, in the order of each row's values. */
  series: string[];
  rows: { label: string; values: number[] }[];
}

/** The chart as inline SVG (a `figure` with its caption); an empty row list draws nothing. */
export function barChart(input: BarChartInput): SafeHtml {
  const { rows, series } = input;
  if (rows.length === 0) return html``;
  // Narrow enough to read at a phone's width (about 1:1 there); the style sheet caps it at 30rem.
  const labelWidth = 130;
  const width = 400;
  const plot = width - labelWidth - 40;
  const bar = 14;
  const gap = 3;
  const groupHeight = series.length * (bar + gap) + 12;
  const top = 28;
  const height = top + rows.length * groupHeight + 8;
  const max = Math.max(1, ...rows.flatMap((r) => r.values));
  const legend = series.map(
    (name, i) =>
      html`<rect
          x="${labelWidth + i * 90}"
          y="6"
          width="12"
          height="12"
          fill="${SERIES_COLOURS[i % SERIES_COLOURS.length]}"
        ></rect
        ><text x="${labelWidth + i * 90 + 16}" y="16" font-size="12">${name}</text>`,
  );
  const groups = rows.map((row, r) => {
    const y0 = top + r * groupHeight;
    const label = row.label.length > 18 ? `${row.label.slice(0, 17)}…` : row.label;
    const bars = row.values.map((value, i) => {
      const y = y0 + i * (bar + gap);
      const w = Math.round((value / max) * plot);
      return html`<rect
          x="${labelWidth}"
          y="${y}"
          width="${Math.max(w, value > 0 ? 1 : 0)}"
          height="${bar}"
          fill="${SERIES_COLOURS[i % SERIES_COLOURS.length]}"
          ><title>${row.label}: ${value} ${series[i] ?? ''}</title></rect
        ><text x="${labelWidth + w + 4}" y="${y + bar - 3}" font-size="11">${value}</text>`;
    });
    return html`<g
      ><text x="${labelWidth - 8}" y="${y0 + bar}" font-size="12" text-anchor="end"
        >${label}<title>${row.label}</title></text
      >${bars}</g
    >`;
  });
  return html`<figure class="chart bars">
    <svg
      viewBox="0 0 ${width} ${height}"
      role="img"
      aria-labelledby="chart-title"
      font-family="DejaVu Sans, Verdana, sans-serif"
      fill="${COLORS.ink}"
    >
      <title id="chart-title">${input.title}</title>
      ${legend}${groups}
    </svg>
    <figcaption class="note">${input.title}. The same figures are in the table below.</figcaption>
  </figure>`;
}
