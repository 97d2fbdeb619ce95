/**
 * The chart counts of a prospect list, tallied row by row as the list streams past (stage mix,
 * sector mix, countries, and the momentum and fit of the scored rows in bands).
 */
import type { CountBar, ProspectRow, ProspectSummary } from './types.js';

/** Countries a chart names; the rest are summed as "other". */
export const CHART_COUNTRIES = 12;

const MOMENTUM_BANDS = ['0-19', '20-39', '40-59', '60-79', '80-100'] as const;
const FIT_BANDS = ['below 50', '50-59', '60-69', '70-79', '80-89', '90-100'] as const;

function momentumBand(score: number): string {
  return MOMENTUM_BANDS[Math.min(4, Math.max(0, Math.floor(score / 20)))]!;
}

function fitBand(fit: number): string {
  if (fit < 50) return FIT_BANDS[0];
  return FIT_BANDS[Math.min(5, Math.floor(fit / 10) - 4)]!;
}

/** Counts by label, largest first (ties by label). */
function bars(counts: Map<string, number>): CountBar[] {
  return [...counts.entries()]
    .map(([label, count]) => ({ label, count }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

/** Counts in a fixed order of bands (empty bands kept: a distribution shows its gaps). */
function bands(order: readonly string[], counts: Map<string, number>): CountBar[] {
  return order.map((label) => ({ label, count: counts.get(label) ?? 0 }));
}

/**
 * Tallies rows for the summary's charts and counts.
 *
 * @example
 * const t = new ListTally();
 * for await (const row of rows) t.add(row);
 * t.charts().stages; // [{ label: 'seed', count: 120 }, ...]
 */
export class ListTally {
  private readonly stages = new Map<string, number>();
  private readonly sectors = new Map<string, number>();
  private readonly countries = new Map<string, number>();
  private readonly momentum = new Map<string, number>();
  private readonly fit = new Map<string, number>();
  rows = 0;
  scored = 0;
  enriched = 0;
  netNew = 0;

  add(row: ProspectRow): void {
    const bump = (m: Map<string, number>, label: string) => m.set(label, (m.get(label) ?? 0) + 1);
    this.rows += 1;
    bump(this.stages, row.stage ?? 'not given');
    bump(this.sectors, row.sector ?? 'not given');
    bump(this.countries, row.country ?? 'not given');
    if (row.fitPct !== null) {
      this.scored += 1;
      bump(this.fit, fitBand(row.fitPct));
      if (row.momentum !== null) bump(this.momentum, momentumBand(row.momentum));
    }
    if (row.enriched) this.enriched += 1;
    if (row.deliveredOn === null) this.netNew += 1;
  }

  charts(): ProspectSummary['charts'] {
    const countries = bars(this.countries);
    const shown = countries.slice(0, CHART_COUNTRIES);
    const other = countries.slice(CHART_COUNTRIES).reduce((a, c) => a + c.count, 0);
    return {
      stages: bars(this.stages),
      sectors: bars(this.sectors),
      countries: other > 0 ? [...shown, { label: 'other', count: other }] : shown,
      momentum: this.scored > 0 ? bands(MOMENTUM_BANDS, this.momentum) : [],
      fit: this.scored > 0 ? bands(FIT_BANDS, this.fit) : [],
    };
  }
}
