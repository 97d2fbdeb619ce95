/**
 * Patterns over changes between two years: how funding (capital and deals) changed, and the
 * sectors whose capital grew fastest.
 */
import { chart } from '../charts.js';
import { int, pct, scopeText, usd } from '../format.js';
import { has, W, type Pattern } from '../pattern.js';
import { Filters, ROUNDS_FROM, roundFilters } from '../sql.js';

export const fundingChange: Pattern = {
  id: 'funding_change',
  description: 'How funding (capital and deals) changed between two years',
  examples: [
    'How did AI funding change from 2021 to 2023?',
    'fintech deals in Germany 2023 vs 2024',
    'compare capital raised in France in 2022 and 2024',
  ],
  matches: (s) =>
    s.compare !== null &&
    (has(s, W.change) || has(s, /\bfrom (20\d\d) to (20\d\d)\b/)) &&
    !has(s, W.bySector) &&
    !has(s, W.byCountry),
  query: (s) => {
    const [a, b] = s.compare!;
    const f = roundFilters(new Filters(), s, {
      geo: true,
      sector: true,
      stage: true,
      period: false,
      amount: true,
    }).in('r.year', [a, b]);
    return {
      sql: `SELECT r.year AS year, COUNT(*) AS deals, COALESCE(SUM(r.amount_usd), 0) AS capital_usd\n${ROUNDS_FROM}\n${f}\nGROUP BY r.year\nORDER BY r.year`,
      params: f.params,
      columns: ['year', 'deals', 'capital_usd'],
    };
  },
  answer: (rows, s) => {
    const [a, b] = s.compare!;
    const get = (y: number) =>
      rows.find((r) => Number(r.year) === y) ?? { year: y, deals: 0, capital_usd: 0 };
    const ra = get(a);
    const rb = get(b);
    const change = (x: number, y: number) =>
      x === 0 ? 'n/a' : `${y >= x ? '+' : ''}${pct((100 * (y - x)) / x)}`;
    const what = scopeText(s, 'funding', { period: false });
    const capA = Number(ra.capital_usd);
    const capB = Number(rb.capital_usd);
    const direction = capB > capA ? 'rose' : capB < capA ? 'fell' : 'stayed';
    return {
      answer: `${what[0]!.toUpperCase()}${what.slice(1)} ${direction} from ${usd(capA)} (${int(ra.deals)} deals) in ${a} to ${usd(capB)} (${int(rb.deals)} deals) in ${b}: ${change(capA, capB)} in capital and ${change(Number(ra.deals), Number(rb.deals))} in deals.`,
      charts: [
        chart(
          'bar',
          `Funding ${a} vs ${b}`,
          'year',
          [
            { key: 'capital_usd', name: 'Capital raised (USD)' },
            { key: 'deals', name: 'Deals', type: 'line' },
          ],
          [ra, rb],
          'USD',
        ),
      ],
    };
  },
};

export const fastestGrowingSectors: Pattern = {
  id: 'fastest_growing_sectors',
  description: 'Sectors ranked by growth of capital raised between two years',
  examples: [
    'fastest growing sectors from 2023 to 2024',
    'which sectors grew the most in Europe 2022 vs 2024',
  ],
  matches: (s) =>
    has(
      s,
      /\b(fastest[- ]growing|grew the most|growing fastest|biggest growth|most growth|growth by sector)\b/,
    ) ||
    (has(s, W.change) && has(s, W.bySector) && s.compare !== null),
  query: (s, ctx) => {
    const refYear = Number(ctx.asOf.slice(0, 4));
    const [a, b] = s.compare ?? [refYear - 2, refYear - 1];
    const f = roundFilters(new Filters(), s, {
      geo: true,
      sector: false,
      stage: true,
      period: false,
      amount: true,
    }).in('r.year', [a, b]);
    return {
      sql: `SELECT st.sector AS sector,
  SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END) AS capital_from_usd,
  SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END) AS capital_to_usd,
  ROUND(100.0 * (SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END) - SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END)) / NULLIF(SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END), 0), 1) AS growth_pct
${ROUNDS_FROM}
${f}
GROUP BY st.sector
ORDER BY growth_pct DESC, sector`,
      params: [a, b, b, a, a, ...f.params],
      columns: ['sector', 'capital_from_usd', 'capital_to_usd', 'growth_pct'],
    };
  },
  answer: (rows, s, ctx) => {
    const refYear = Number(ctx.asOf.slice(0, 4));
    const [a, b] = s.compare ?? [refYear - 2, refYear - 1];
    if (!rows.length) return { answer: `There were no rounds in ${a} or ${b} for that scope.` };
    const top = rows[0]!;
    const list = rows
      .map(
        (r) =>
          `${r.sector} ${r.growth_pct === null ? 'n/a' : `${Number(r.growth_pct) >= 0 ? '+' : ''}${Number(r.growth_pct)}%`}`,
      )
      .join('; ');
    return {
      answer: `From ${a} to ${b}, ${top.sector} grew fastest${s.geo ? ` in ${s.geo.label}` : ''}: ${usd(top.capital_from_usd)} to ${usd(top.capital_to_usd)} (${top.growth_pct}%). All sectors: ${list}.`,
      charts: [
        chart(
          'bar',
          `Capital growth by sector, ${a} to ${b}`,
          'sector',
          [{ key: 'growth_pct', name: 'Growth (%)' }],
          rows,
          '%',
        ),
      ],
    };
  },
};
