/**
 * The PDF's cross-country comparison: each country's deals and capital in the year to date and
 * in the last full year (with its change and its share of the capital), a total row, and the
 * comparison charts.
 */
import { moneyHeader, moneyUnit, yearLabel } from '../../../reports/editorial.js';
import { formatDate, formatInt } from '../../../reports/format.js';
import { countryFigures, totals } from './figures.js';
import { inUnit, pct, tableAndCharts } from './pdf-layout.js';
import type { Ctx, TableBlock } from './pdf-layout.js';

export function comparisonSection(ctx: Ctx): void {
  const { model, pdf } = ctx;
  if (model.countries.length === 0) return;
  const figs = model.countries.map((c) => countryFigures(model, c));
  const lfy = figs[0]?.lastFullYear ?? 0;
  const ytdYear = figs[0]?.ytdYear ?? 0;
  const ytd = yearLabel(ytdYear, model.period.asOf);
  const t = totals(model);
  const unit = moneyUnit([
    t.capital,
    t.ytdCapital,
    ...figs.flatMap((f) => [f.lastFull.capital, f.ytd.capital]),
  ]);
  pdf.heading('Cross-country comparison', 1);
  pdf.paragraph(
    `Capital and deals per country in ${ytd} (to ${formatDate(model.period.asOf)}) and in the last full year, ${lfy}. Each country's ${lfy} share is of the ${lfy} capital across the countries in this report.`,
  );
  const table: TableBlock = {
    columns: [
      // Widths that keep every header on two lines at most (a header is never cut).
      { header: 'Country', width: 1.15 },
      { header: `Deals ${ytd}`, align: 'right' },
      { header: moneyHeader(`Capital ${ytd}`, unit), width: 1.05, align: 'right' },
      { header: `Deals ${lfy}`, width: 0.85, align: 'right' },
      { header: `Deals ${lfy} YoY`, width: 0.85, align: 'right' },
      { header: moneyHeader(`Capital ${lfy}`, unit), width: 1.05, align: 'right' },
      { header: `Capital ${lfy} YoY`, width: 0.9, align: 'right' },
      { header: `${lfy} share`, width: 0.9, align: 'right' },
    ],
    rows: [
      ...figs.map((f) => [
        f.country,
        formatInt(f.ytd.deals),
        inUnit(f.ytd.capital, unit),
        formatInt(f.lastFull.deals),
        pct(f.lastFull.dealsYoy, true),
        inUnit(f.lastFull.capital, unit),
        pct(f.lastFull.capitalYoy, true),
        t.capital > 0 ? pct(((f.lastFull.capital ?? 0) / t.capital) * 100) : '—',
      ]),
      [
        'Total',
        formatInt(t.ytdDeals),
        inUnit(t.ytdCapital, unit),
        formatInt(t.deals),
        pct(t.dealsYoy, true),
        inUnit(t.capital, unit),
        pct(t.capitalYoy, true),
        t.capital > 0 ? pct(100) : '—',
      ],
    ],
  };
  const charts = ctx.planned.filter((p) => p.place.kind === 'compare');
  for (const b of tableAndCharts(ctx, table, charts, false)) b.draw();
}
