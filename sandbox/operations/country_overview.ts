import type { ChartSpec } from '../result-shapes.js';
import { resolveCountry } from '../data/countries.js';
import { dataAsOf } from '../queries/as-of.js';
import { countryOverview, type CountryOverview } from '../queries/country-overview.js';
import { suggestCountries } from '../queries/filters.js';
import { count, signedPct, usd } from '../queries/format.js';
import { countryUrl } from '../queries/urls.js';
import { SandboxError, type Handler } from '../types.js';

/** The country-report charts: capital by year, deals and capital by year, stage mix, top sectors. */
export function countryCharts(o: CountryOverview): ChartSpec[] {
  const years = o.by_year.map((y) => ({ year: y.year, deals: y.deals, capital_usd: y.capital_usd }));
  const recent = `${o.recent_period.from} to ${o.recent_period.to}`;
  return [
    {
      type: 'bar',
      title: `${o.country}: capital invested by year`,
      xKey: 'year',
      series: [{ key: 'capital_usd', name: 'Capital (USD)' }],
      data: years,
      unit: 'USD',
    },
    {
      type: 'combo',
      title: `${o.country}: deals and capital by year`,
      xKey: 'year',
      series: [
        { key: 'deals', name: 'Deals', type: 'bar' },
        { key: 'capital_usd', name: 'Capital (USD)', type: 'line' },
      ],
      data: years,
      unit: 'USD',
    },
    {
      type: 'bar',
      title: `${o.country}: stage mix (${recent})`,
      xKey: 'stage',
      series: [{ key: 'deals', name: 'Deals' }],
      data: o.stage_mix,
      unit: 'deals',
    },
    {
      type: 'bar',
      title: `${o.country}: top sectors (${recent})`,
      xKey: 'sector',
      series: [{ key: 'capital_usd', name: 'Capital (USD)' }],
      data: o.top_sectors,
      unit: 'USD',
    },
  ];
}

/** "Germany: 1,234 deals and $12.3B since 2020; 2025 capital +18% YoY". */
export function countrySummary(o: CountryOverview): string {
  const head = `${o.country}: ${count(o.totals.deals)} deals and ${usd(o.totals.capital_usd)} since ${o.period.from.slice(0, 4)}`;
  const last = o.by_year[o.by_year.length - 1];
  if (!last || last.yoy_capital_pct === null) return head;
  const basis = last.partial ? ' (year to date vs the same period)' : '';
  return `${head}; ${last.year} capital ${signedPct(last.yoy_capital_pct)} YoY${basis}`;
}

/** The canonical name of a country name or alias; 404 not_found naming it and close names otherwise. */
export function knownCountry(value: string): string {
  const country = resolveCountry(value);
  if (country) return country;
  const close = suggestCountries(value);
  const hint = close.length
    ? `; did you mean ${close.join(', ')}?`
    : "; use a country name such as 'Germany' or an alias such as 'USA'";
  throw new SandboxError(404, 'not_found', `Unknown country '${value}'${hint}`);
}

/**
 * country_overview: the country's venture market since 2020 with country-report charts.
 * 404 not_found for an unknown country, suggesting close names.
 */
export const country_overview: Handler<'country_overview'> = ({ db, params, baseUrl, now }) => {
  const country = knownCountry(params.country);
  const overview = countryOverview(db, country, dataAsOf(db, now), baseUrl);
  return {
    data: { ...overview },
    summary: countrySummary(overview),
    charts: countryCharts(overview),
    url: countryUrl(baseUrl, country),
  };
};
