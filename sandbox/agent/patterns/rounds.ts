/**
 * Patterns over funding rounds taken together: counts, totals, medians and averages, and lists
 * of the largest and latest rounds. Breakdowns are in round-breakdowns.ts, rankings of places
 * and sectors in round-rankings.ts, changes between years in round-changes.ts.
 */
import { chart } from '../charts.js';
import { int, scopeText, usd } from '../format.js';
import { has, W, type Pattern } from '../pattern.js';
import { Filters, medianSql, ROUNDS_FROM, roundFilters } from '../sql.js';

const rounds = (n: number) => (n === 1 ? 'round' : 'rounds');
const verb = (n: number) => (n === 1 ? 'was' : 'were');

export const roundCount: Pattern = {
  id: 'round_count',
  description: 'How many rounds (deals) match a place, sector, stage, size and period',
  examples: [
    'How many seed rounds were there in Germany in 2023?',
    'number of series A deals in fintech in the UK last year',
    'count of rounds above $50M in 2024',
  ],
  matches: (s) => has(s, W.count) && has(s, W.rounds) && (!has(s, W.startups) || has(s, W.countsRounds)),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: `SELECT COUNT(*) AS rounds, COALESCE(SUM(r.amount_usd), 0) AS capital_usd\n${ROUNDS_FROM}\n${f}`,
      params: f.params,
      columns: ['rounds', 'capital_usd'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.rounds ?? 0);
    const cap = Number(rows[0]?.capital_usd ?? 0);
    return {
      answer: `There ${verb(n)} ${int(n)} ${scopeText(s, rounds(n))}${n ? `, raising ${usd(cap)} in total` : ''}.`,
    };
  },
};

export const capitalTotal: Pattern = {
  id: 'capital_total',
  description: 'Total capital raised in a place, sector, stage and period',
  examples: [
    'How much capital was raised in fintech in 2024?',
    'total funding in Germany last year',
    'how much did AI startups in France raise since 2022',
  ],
  matches: (s) => has(s, W.capital) && (has(s, W.total) || has(s, /\b(raised|raise|invested)\b/)),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: `SELECT COALESCE(SUM(r.amount_usd), 0) AS capital_usd, COUNT(*) AS rounds\n${ROUNDS_FROM}\n${f}`,
      params: f.params,
      columns: ['capital_usd', 'rounds'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.rounds ?? 0);
    return { answer: `${usd(rows[0]?.capital_usd)} was raised across ${int(n)} ${scopeText(s, rounds(n))}.` };
  },
};

export const medianRound: Pattern = {
  id: 'median_round',
  description: 'Median round size',
  examples: ['median series A size in the US', 'What is the median seed round in Germany in 2024?'],
  matches: (s) => has(s, W.median),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: medianSql('r.amount_usd', `${ROUNDS_FROM}\n  ${f}`),
      params: f.params,
      columns: ['median_usd', 'rounds'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.rounds ?? 0);
    if (!n) return { answer: `There were no ${scopeText(s, 'rounds')}, so there is no median.` };
    return {
      answer: `The median size of ${int(n)} ${scopeText(s, rounds(n))} is ${usd(rows[0]?.median_usd)}.`,
    };
  },
};

export const averageRound: Pattern = {
  id: 'average_round',
  description: 'Average round size (with the smallest and largest)',
  examples: [
    'average seed round in India',
    'what is the typical series B size in fintech in Europe',
    'mean round size in Israel in 2023',
  ],
  matches: (s) =>
    has(s, W.average) && (has(s, W.rounds) || has(s, /\b(size|check|ticket)\b/) || s.stages !== null),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: `SELECT AVG(r.amount_usd) AS average_usd, COUNT(*) AS rounds, MIN(r.amount_usd) AS min_usd, MAX(r.amount_usd) AS max_usd\n${ROUNDS_FROM}\n${f}`,
      params: f.params,
      columns: ['average_usd', 'rounds', 'min_usd', 'max_usd'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.rounds ?? 0);
    if (!n) return { answer: `There were no ${scopeText(s, 'rounds')}, so there is no average.` };
    const r = rows[0]!;
    return {
      answer: `The average size of ${int(n)} ${scopeText(s, rounds(n))} is ${usd(r.average_usd)} (smallest ${usd(r.min_usd)}, largest ${usd(r.max_usd)}).`,
    };
  },
};

function roundList(id: string, order: 'largest' | 'latest'): Pattern {
  return {
    id,
    description: order === 'largest' ? 'The largest rounds (list)' : 'The latest rounds (list)',
    examples:
      order === 'largest'
        ? [
            'largest rounds of the last 7 days in the United Kingdom',
            'top 5 biggest series B rounds in fintech in 2024',
          ]
        : ['latest seed rounds in Germany', 'most recent deals in climate tech in France'],
    matches: (s) =>
      has(s, W.rounds) &&
      has(s, order === 'largest' ? /\b(largest|biggest|top|highest|mega|big)\b/ : W.recent),
    query: (s) => {
      const f = roundFilters(new Filters(), s);
      return {
        sql: `SELECT r.date AS date, st.name AS startup, st.key AS startup_key, st.hq_country AS country, st.sector AS sector, r.stage AS stage, r.amount_usd AS amount_usd, i.name AS lead_investor
${ROUNDS_FROM}
LEFT JOIN investors i ON i.key = r.lead_investor_key
${f}
ORDER BY ${order === 'largest' ? 'r.amount_usd DESC, r.date DESC' : 'r.date DESC, r.amount_usd DESC'}, r.id
LIMIT ?`,
        params: [...f.params, s.topN],
        columns: [
          'date',
          'startup',
          'startup_key',
          'country',
          'sector',
          'stage',
          'amount_usd',
          'lead_investor',
        ],
      };
    },
    answer: (rows, s) => {
      const what = scopeText(s, 'rounds');
      if (!rows.length) return { answer: `There were no ${what}.` };
      const list = rows
        .slice(0, 10)
        .map((r) => `${r.startup} ${usd(r.amount_usd)} ${r.stage} (${r.country}, ${r.date})`)
        .join('; ');
      return {
        answer: `The ${rows.length} ${order} ${what}: ${list}.`,
        charts:
          order === 'largest'
            ? [
                chart(
                  'bar',
                  `Largest rounds`,
                  'startup',
                  [{ key: 'amount_usd', name: 'Round size (USD)' }],
                  rows,
                  'USD',
                ),
              ]
            : [],
      };
    },
  };
}

export const largestRounds = roundList('largest_rounds', 'largest');
export const latestRounds = roundList('latest_rounds', 'latest');
