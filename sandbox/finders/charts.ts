/**
 * Chart specs of the finders' results ({ type, title, xKey, series, data, unit }); series items
 * are objects { key, name, type? } so a renderer knows what each column is and how to draw it.
 */
import type { ChartSpec } from '../result-shapes.js';

/** A series of a chart spec. */
export interface SeriesItem {
  key: string;
  name: string;
  type?: 'bar' | 'line';
  unit?: string;
}

/** A bar chart of one or more series. */
export function barChart(
  title: string,
  xKey: string,
  series: SeriesItem[],
  data: Record<string, unknown>[],
  unit: string | null = null,
): ChartSpec {
  return { type: 'bar', title, xKey, series: series.map((s) => ({ type: 'bar', ...s })), data, unit };
}

/**
 * A combo chart: bars and a line over the same x axis, e.g. deals (bars) and capital (line)
 * by year. `unit` names the bar unit; each series carries its own.
 */
export function comboChart(
  title: string,
  xKey: string,
  bar: Omit<SeriesItem, 'type'>,
  line: Omit<SeriesItem, 'type'>,
  data: Record<string, unknown>[],
): ChartSpec {
  return {
    type: 'combo',
    title,
    xKey,
    series: [
      { ...bar, type: 'bar' },
      { ...line, type: 'line' },
    ],
    data,
    unit: bar.unit ?? null,
  };
}

/** Counts of labels as chart rows, biggest first, the tail beyond `top` folded into "Other". */
export function countRows(
  counts: Map<string, number>,
  xKey: string,
  valueKey: string,
  top = 10,
): Record<string, unknown>[] {
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const rows = sorted.slice(0, top).map(([k, v]) => ({ [xKey]: k, [valueKey]: v }));
  const rest = sorted.slice(top).reduce((n, [, v]) => n + v, 0);
  if (rest > 0) rows.push({ [xKey]: 'Other', [valueKey]: rest });
  return rows;
}

/** Fit percentages in buckets of 10 points ("50–60"), for a fit distribution chart. */
export function fitBuckets(fits: readonly number[]): Record<string, unknown>[] {
  const lo = Math.min(...fits, 100);
  const start = Math.max(0, Math.floor(lo / 10) * 10);
  const rows: { fit: string; count: number }[] = [];
  for (let b = start; b < 100; b += 10) rows.push({ fit: `${b}–${b + 10}`, count: 0 });
  for (const f of fits) {
    const idx = Math.min(rows.length - 1, Math.max(0, Math.floor((f - start) / 10)));
    const row = rows[idx];
    if (row) row.count += 1;
  }
  return rows;
}
