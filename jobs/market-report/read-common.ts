/**
 * What reading a country's stored calls and reading an answer share: the findings collected on
 * the way (what the service did not provide, records or charts left out) and the charts of a
 * result that the report can draw.
 */
import type { ChartSpec, Result } from '../../api/envelope.js';
import { asObject } from '../../api/read.js';

/** Collects "not provided" names and reading notes while a country is read. */
export class Findings {
  readonly notProvided: string[] = [];
  readonly notes: string[] = [];
  missing(what: string): void {
    if (!this.notProvided.includes(what)) this.notProvided.push(what);
  }
  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }
}

const CHART_KEYS = ['type', 'title', 'xKey', 'series', 'data', 'unit'] as const;

/**
 * The charts of an answer the report can draw: chart objects with at least one row of data.
 * The renderer reads each one tolerantly (an unknown type becomes a line, bars or a table of
 * its data); a chart without rows is left out with a note.
 */
export function readCharts(result: Result, found: Findings, where: string): ChartSpec[] {
  const out: ChartSpec[] = [];
  for (const c of result.charts ?? []) {
    const chart = asObject(c);
    if (chart === null) continue;
    const rows = Array.isArray(chart.data) ? chart.data.filter((r) => asObject(r) !== null) : [];
    if (rows.length === 0) {
      const title =
        typeof chart.title === 'string' && chart.title.trim() ? `"${chart.title.trim()}"` : 'untitled';
      found.note(`the ${title} chart of the ${where} had no data the report could draw and was left out`);
      continue;
    }
    // The spec's named keys of a chart; anything else the service adds is not drawn.
    const named: ChartSpec = {};
    for (const k of CHART_KEYS) if (chart[k] !== undefined) named[k] = chart[k];
    out.push(named);
  }
  return out;
}
