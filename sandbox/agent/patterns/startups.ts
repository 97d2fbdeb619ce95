/**
 * Patterns over startups: counts (optionally of those that raised in a stage or period), counts
 * per sector, country, city, stage, status and founding year, the best-funded startups, and
 * lists of startups that raised a given round.
 */
import { chart } from '../charts.js';
import { int, pct, scopeText, usd } from '../format.js';
import { has, W, type Pattern } from '../pattern.js';
import { Filters, ROUNDS_FROM, roundFilters, STAGE_ORDER, startupFilters } from '../sql.js';
import type { Slots } from '../slots.js';

const isStartups = (s: Slots) => has(s, W.startups) && !has(s, /\b(investors?|vcs?|angels?)\b/);

/** Startup filters plus, when the question names a stage or period, "has a round in it". */
function startupScope(s: Slots, opts: { rounds?: boolean } = { rounds: true }): Filters {
  const f = startupFilters(new Filters(), s);
  if (opts.rounds && (s.stages || s.period || s.minAmount !== null || s.maxAmount !== null)) {
    const sub = roundFilters(new Filters(), s, { stage: true, period: true, amount: true });
    const inner = sub.toString().replace(/^WHERE /, '');
    f.add(`EXISTS (SELECT 1 FROM rounds r WHERE r.startup_key = st.key AND ${inner})`, ...sub.params);
  }
  return f;
}

const raisedText = (s: Slots) => {
  if (!(s.stages || s.period)) return '';
  return ` that raised ${s.stageLabel ? `a ${s.stageLabel} round` : 'a round'}${s.period ? ` ${s.period.label}` : ''}`;
};

const startupWords = (s: Slots) => scopeText(s, 'startups', { stage: false, period: false, amount: false });

export const startupCount: Pattern = {
  id: 'startup_count',
  description: 'How many startups match a place and sector (optionally: that raised a stage in a period)',
  examples: [
    'How many fintech startups are in France?',
    'number of startups in Canada',
    'how many startups raised a series A in Germany in 2023',
  ],
  matches: (s) => isStartups(s) && has(s, W.count) && !has(s, W.founded) && !has(s, W.countsRounds),
  query: (s) => {
    const f = startupScope(s);
    return {
      sql: `SELECT COUNT(*) AS startups, COALESCE(SUM(st.total_raised_usd), 0) AS total_raised_usd\nFROM startups st\n${f}`,
      params: f.params,
      columns: ['startups', 'total_raised_usd'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.startups ?? 0);
    return {
      answer: `There ${n === 1 ? 'is' : 'are'} ${int(n)} ${startupWords(s)}${raisedText(s)}; together they have raised ${usd(rows[0]?.total_raised_usd)} in total.`,
    };
  },
};

function startupsPer(
  id: string,
  dim: 'sector' | 'country' | 'city' | 'stage' | 'status',
  re: RegExp,
  examples: string[],
): Pattern {
  const col =
    dim === 'sector'
      ? 'st.sector'
      : dim === 'country'
        ? 'st.hq_country'
        : dim === 'city'
          ? 'st.hq_city'
          : dim === 'stage'
            ? 'st.stage'
            : 'st.status';
  return {
    id,
    description: `Number of startups per ${dim}`,
    examples,
    matches: (s) =>
      isStartups(s) &&
      has(s, re) &&
      !(dim !== 'status' && has(s, /\b(raised the most|most funded|best funded|top funded)\b/)),
    query: (s) => {
      // Grouping by a dimension: a sector (or a single country) named in the question is not a filter.
      const scoped =
        dim === 'sector' ? { ...s, sector: null, subsector: null } : dim === 'country' ? withoutGeo(s) : s;
      const f = startupScope(scoped);
      const extra = dim === 'city' ? ', st.hq_country AS country' : '';
      const order = dim === 'stage' ? STAGE_ORDER('st.stage') : `startups DESC, ${dim}`;
      return {
        sql: `SELECT ${col} AS ${dim}${extra}, COUNT(*) AS startups, COALESCE(SUM(st.total_raised_usd), 0) AS total_raised_usd\nFROM startups st\n${f}\nGROUP BY ${col}${dim === 'city' ? ', st.hq_country' : ''}\nORDER BY ${order}\nLIMIT ?`,
        params: [...f.params, s.topNGiven && dim !== 'stage' && dim !== 'status' ? s.topN : 100],
        columns:
          dim === 'city'
            ? ['city', 'country', 'startups', 'total_raised_usd']
            : [dim, 'startups', 'total_raised_usd'],
      };
    },
    answer: (rows, s) => {
      const scoped =
        dim === 'sector' ? { ...s, sector: null, subsector: null } : dim === 'country' ? withoutGeo(s) : s;
      const total = rows.reduce((a, r) => a + Number(r.startups), 0);
      const what = `${startupWords(scoped)}${raisedText(s)}`;
      if (!total) return { answer: `There are no ${what}.` };
      if (dim === 'status') {
        const asked = /\b(acquired|acquisitions?|exits?|exited)\b/.test(s.text)
          ? 'acquired'
          : /\b(ipos?|went public|public)\b/.test(s.text)
            ? 'ipo'
            : /\b(closed|shut down|failed)\b/.test(s.text)
              ? 'closed'
              : null;
        const row = asked ? rows.find((r) => r.status === asked) : null;
        const lead = asked
          ? `${int(row?.startups ?? 0)} of ${int(total)} ${what} have status ${asked} (${pct((100 * Number(row?.startups ?? 0)) / total)}). `
          : '';
        return {
          answer: `${lead}Status of ${int(total)} ${what}: ${rows.map((r) => `${r.status} ${int(r.startups)}`).join(', ')}.`,
          charts: [
            chart(
              'bar',
              'Startups by status',
              'status',
              [{ key: 'startups', name: 'Startups' }],
              rows,
              'startups',
            ),
          ],
        };
      }
      const list = rows
        .slice(0, 12)
        .map((r) => `${r[dim]} ${int(r.startups)}`)
        .join(', ');
      return {
        answer: `${int(total)} ${what} by ${dim === 'stage' ? 'current stage' : dim}: ${list}${rows.length > 12 ? ', ...' : ''}.`,
        charts: [
          chart('bar', `Startups by ${dim}`, dim, [{ key: 'startups', name: 'Startups' }], rows, 'startups'),
        ],
      };
    },
  };
}

function withoutGeo(s: Slots): Slots {
  return s.geo && s.geo.countries.length <= 1 ? { ...s, geo: null } : s;
}

export const startupsPerSector = startupsPer('startups_per_sector', 'sector', W.bySector, [
  'number of startups per sector in Canada',
  'how many startups in each sector in Germany',
]);
export const startupsPerCountry = startupsPer('startups_per_country', 'country', W.byCountry, [
  'number of startups per country in Europe',
  'which countries have the most startups',
]);
export const startupsPerCity = startupsPer('startups_per_city', 'city', W.byCity, [
  'which cities have the most startups in the US',
  'startups per city in Germany',
]);
export const startupsByStage = startupsPer(
  'startups_by_stage',
  'stage',
  /\b((by|per|each|across) (current )?stages?|stage (mix|breakdown|split|distribution))\b/,
  ['startups by stage in Canada', 'stage breakdown of fintech startups in the UK'],
);
export const startupsByStatus = startupsPer('startups_by_status', 'status', W.byStatus, [
  'how many startups were acquired in the UK',
  'status breakdown of AI startups',
  'how many fintech startups went public',
]);

export const startupsFounded: Pattern = {
  id: 'startups_founded',
  description: 'Startups founded per year',
  examples: [
    'how many startups were founded each year in Germany',
    'startups founded in 2021 in fintech',
    'number of AI startups founded since 2020',
  ],
  matches: (s) => isStartups(s) && has(s, W.founded),
  query: (s) => {
    const f = startupFilters(new Filters(), s);
    if (s.period)
      f.add(
        'st.founded_year BETWEEN ? AND ?',
        Number(s.period.from.slice(0, 4)),
        Number(s.period.to.slice(0, 4)),
      );
    return {
      sql: `SELECT st.founded_year AS founded_year, COUNT(*) AS startups\nFROM startups st\n${f}\nGROUP BY st.founded_year\nORDER BY st.founded_year`,
      params: f.params,
      columns: ['founded_year', 'startups'],
    };
  },
  answer: (rows, s) => {
    const total = rows.reduce((a, r) => a + Number(r.startups), 0);
    const what = startupWords(s);
    const when = s.period ? ` ${s.period.label.replace(/ so far$/, '')}` : '';
    if (!total) return { answer: `No ${what} were founded${when}.` };
    const list = rows.map((r) => `${r.founded_year} ${int(r.startups)}`).join(', ');
    return {
      answer: `${int(total)} ${what} were founded${when}: ${list}.`,
      charts:
        rows.length > 1
          ? [
              chart(
                'bar',
                'Startups founded per year',
                'founded_year',
                [{ key: 'startups', name: 'Startups founded' }],
                rows,
                'startups',
              ),
            ]
          : [],
    };
  },
};

export const topFundedStartups: Pattern = {
  id: 'top_funded_startups',
  description: 'Startups that raised the most (in a place, sector, stage or period)',
  examples: [
    'Which startups raised the most in AI?',
    'top 5 funded startups in Israel',
    'best funded fintech startups in the UK since 2023',
  ],
  matches: (s) =>
    isStartups(s) &&
    (has(
      s,
      /\b(raised the most|most funded|best funded|top funded|best-funded|most-funded|top-funded|most capital|most money|largest|biggest)\b/,
    ) ||
      (has(s, W.most) && has(s, /\b(raised|funding|funded|capital)\b/))),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: `SELECT st.name AS startup, st.key AS startup_key, st.hq_country AS country, st.sector AS sector, COUNT(*) AS rounds, SUM(r.amount_usd) AS raised_usd\n${ROUNDS_FROM}\n${f}\nGROUP BY st.key\nORDER BY raised_usd DESC, st.name\nLIMIT ?`,
      params: [...f.params, s.topN],
      columns: ['startup', 'startup_key', 'country', 'sector', 'rounds', 'raised_usd'],
    };
  },
  answer: (rows, s) => {
    const what = scopeText(s, 'startups');
    if (!rows.length) return { answer: `No ${what} raised a round.` };
    const list = rows
      .slice(0, 10)
      .map((r, i) => `${i + 1}. ${r.startup} ${usd(r.raised_usd)} (${int(r.rounds)} rounds, ${r.country})`)
      .join('; ');
    return {
      answer: `${rows[0]!.startup} raised the most of ${what}, ${usd(rows[0]!.raised_usd)}. Top ${rows.length}: ${list}.`,
      charts: [
        chart(
          'bar',
          'Top funded startups',
          'startup',
          [{ key: 'raised_usd', name: 'Raised (USD)' }],
          rows,
          'USD',
        ),
      ],
    };
  },
};

export const startupsThatRaised: Pattern = {
  id: 'startups_that_raised',
  description: 'Startups that raised a given round (list)',
  examples: [
    'startups in Berlin that raised a series B',
    'which fintech companies in France raised a seed round in 2024',
    'list startups that closed a series A in India last year',
  ],
  matches: (s) =>
    isStartups(s) &&
    (s.stages !== null || s.period !== null) &&
    has(s, /\b(raised|raise|raising|closed|got|received|secured|announced|with an?)\b/) &&
    !has(s, W.count) &&
    !has(s, /\b(how much|total|sum|capital|amount)\b/),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: `SELECT st.name AS startup, st.key AS startup_key, st.hq_city AS city, st.hq_country AS country, st.sector AS sector, r.date AS date, r.stage AS stage, r.amount_usd AS amount_usd, COUNT(*) OVER () AS total\n${ROUNDS_FROM}\n${f}\nORDER BY r.date DESC, r.id\nLIMIT ?`,
      params: [...f.params, s.topNGiven ? s.topN : 100],
      columns: [
        'startup',
        'startup_key',
        'city',
        'country',
        'sector',
        'date',
        'stage',
        'amount_usd',
        'total',
      ],
    };
  },
  answer: (rows, s) => {
    const total = Number(rows[0]?.total ?? 0);
    const what = `${startupWords(s)}${raisedText(s)}`;
    if (!total) return { answer: `No ${what} were found.` };
    const list = rows
      .slice(0, 10)
      .map((r) => `${r.startup} (${usd(r.amount_usd)}, ${r.date})`)
      .join('; ');
    const roundWords = `${s.stageLabel ? `${s.stageLabel} ` : ''}${total === 1 ? 'round' : 'rounds'}`;
    return {
      answer: `${int(total)} ${roundWords} ${total === 1 ? 'was' : 'were'} raised by ${startupWords(s)}${s.period ? ` ${s.period.label}` : ''}${total > rows.length ? ` (the latest ${rows.length} listed)` : ''}: ${list}${rows.length > 10 ? '; ...' : ''}.`,
    };
  },
};
