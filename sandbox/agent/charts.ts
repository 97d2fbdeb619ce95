/**
 * Chart specs of the agent's answers (the service's chart shape: type, title, xKey, series, data, unit).
 */
import type { ChartSpec } from '../result-shapes.js';

export interface SeriesDef {
  key: string;
  name: string;
  type?: 'bar' | 'line';
}

/** A chart from rows: x axis column, one or more series columns. */
export function chart(
  type: 'bar' | 'line' | 'combo',
  title: string,
  xKey: string,
  series: SeriesDef[],
  rows: Record<string, unknown>[],
  unit: string | null = null,
): ChartSpec {
  const data = rows.map((row) => {
    const point: Record<string, unknown> = { [xKey]: row[xKey] };
    for (const s of series)
      point[s.key] = row[s.key] === null || row[s.key] === undefined ? 0 : Number(row[s.key]);
    return point;
  });
  return { type, title, xKey, series, data, unit };
}
