/**
 * The parts of a country's PDF section drawn from the service's country overview, each a
 * table with its charts: deals and capital by year, the stage mix, the top sectors and the
 * most active investors (the last three: the last three years).
 */
import { moneyHeader, moneyUnit, stageLabel, yearLabel } from '../../../reports/editorial.js';
import { formatInt } from '../../../reports/format.js';
import { sectorsByChart, yearRows } from './figures.js';
import type { CountryFigures } from './figures.js';
import type { CountrySection } from './model.js';
import { countryCharts, headed, inUnit, link, MAX_TABLE_ROWS, pct, tableAndCharts } from './pdf-layout.js';
import type { Ctx, TableBlock } from './pdf-layout.js';

/** Deals and capital by year: the years' table and charts. */
export function yearsPart(ctx: Ctx, c: CountrySection, f: CountryFigures, index: number): void {
  const asOf = ctx.model.period.asOf;
  const years = yearRows(c, f.ytdYear);
  const yearUnit = moneyUnit(years.map((y) => y.capital_usd));
  const avgUnit = moneyUnit(years.map((y) => (y.deals > 0 ? y.capital_usd / y.deals : null)));
  headed(
    ctx,
    'Deals and capital by year',
    2,
    tableAndCharts(
      ctx,
      {
        columns: [
          { header: 'Year', width: 1.2 },
          { header: 'Deals', align: 'right' },
          { header: 'Deals YoY', align: 'right' },
          { header: moneyHeader('Capital', yearUnit), align: 'right' },
          { header: 'Capital YoY', align: 'right' },
          { header: moneyHeader('Avg. deal', avgUnit), align: 'right' },
        ],
        rows: years.map((y) => [
          y.partial ? `${y.year} YTD` : yearLabel(y.year, asOf),
          formatInt(y.deals),
          pct(y.deals_yoy_pct, true),
          inUnit(y.capital_usd, yearUnit),
          pct(y.capital_yoy_pct, true),
          inUnit(y.deals > 0 ? y.capital_usd / y.deals : null, avgUnit),
        ]),
        options: { emptyText: 'No yearly figures returned.' },
      },
      countryCharts(ctx, index, 'years'),
      false,
    ),
  );
}

/** The stage mix of the last three years: deals, their share and capital per stage. */
export function stagesPart(ctx: Ctx, c: CountrySection, index: number): void {
  const stageCharts = countryCharts(ctx, index, 'stages');
  if (c.stage_mix.length > 0 || stageCharts.length > 0) {
    const total = c.stage_mix.reduce((s, x) => s + x.deals, 0) || 1;
    const unit = moneyUnit(c.stage_mix.map((s) => s.capital_usd));
    const table: TableBlock | null =
      c.stage_mix.length > 0
        ? {
            columns: [
              { header: 'Stage', width: 1.5 },
              { header: 'Deals', align: 'right' },
              { header: 'Share', width: 0.8, align: 'right' },
              { header: moneyHeader('Capital', unit), align: 'right' },
            ],
            rows: c.stage_mix.map((s) => [
              stageLabel(s.stage),
              formatInt(s.deals),
              pct((s.deals / total) * 100),
              inUnit(s.capital_usd, unit),
            ]),
          }
        : null;
    headed(ctx, 'Stage mix, last 3 years', 2, tableAndCharts(ctx, table, stageCharts, true));
  }
}

/** The top sectors of the last three years, in the order their chart plots them. */
export function sectorsPart(ctx: Ctx, c: CountrySection, index: number): void {
  const sectorCharts = countryCharts(ctx, index, 'sectors');
  if (c.top_sectors.length > 0 || sectorCharts.length > 0) {
    const unit = moneyUnit(c.top_sectors.map((s) => s.capital_usd));
    const table: TableBlock | null =
      c.top_sectors.length > 0
        ? {
            columns: [
              { header: 'Sector', width: 2.4 },
              { header: 'Deals', width: 0.8, align: 'right' },
              { header: moneyHeader('Capital', unit), width: 0.9, align: 'right' },
            ],
            // Sorted as the chart beside it plots them (sectorsByChart).
            rows: sectorsByChart(c.top_sectors)
              .slice(0, MAX_TABLE_ROWS)
              .map((s) => [s.sector, formatInt(s.deals), inUnit(s.capital_usd, unit)]),
          }
        : null;
    headed(ctx, 'Top sectors, last 3 years', 2, tableAndCharts(ctx, table, sectorCharts, true));
  }
}

/** The most active investors of the last three years: deals, and deals as lead. */
export function activeInvestorsPart(ctx: Ctx, c: CountrySection, index: number): void {
  const investorCharts = countryCharts(ctx, index, 'investors');
  if (c.most_active_investors.length > 0 || investorCharts.length > 0) {
    const list = c.most_active_investors.slice(0, MAX_TABLE_ROWS);
    const table: TableBlock | null =
      list.length > 0
        ? {
            columns: [
              { header: '#', width: 0.4, align: 'right' },
              { header: 'Investor', width: 2.1 },
              { header: 'Deals, last 3 years', width: 1.25, align: 'right' },
              { header: 'As lead, last 3 years', width: 1.25, align: 'right' },
            ],
            rows: list.map((m, i) => [String(i + 1), m.name, formatInt(m.deals), formatInt(m.lead_deals)]),
            options: { links: list.map((m) => [null, link(ctx, m.url)]) },
          }
        : null;
    headed(
      ctx,
      `Most active investors, last 3 years: ${c.country}`,
      2,
      tableAndCharts(ctx, table, investorCharts, true),
    );
  }
}
