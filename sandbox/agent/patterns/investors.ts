/**
 * Patterns over investors: the most active investors and lead investors in a market, the best
 * scored, counts, lists by type and place, counts per country and per type.
 */
import { chart } from '../charts.js';
import { int, scopeText } from '../format.js';
import { has, W, type Pattern } from '../pattern.js';
import { Filters, roundFilters } from '../sql.js';
import type { Slots } from '../slots.js';

const isInvestors = (s: Slots) => has(s, W.investors);

/** Investor filters on alias i: HQ place, investor type, sector focus. */
function investorFilters(s: Slots, opts: { geo?: boolean } = { geo: true }): Filters {
  const f = new Filters();
  if (opts.geo && s.geo) {
    if (s.geo.city) f.add('i.hq_city = ?', s.geo.city);
    else f.in('i.hq_country', s.geo.countries);
  }
  if (s.investorType) f.add('i.investor_type = ?', s.investorType);
  if (s.sector) f.add('EXISTS (SELECT 1 FROM json_each(i.sectors) j WHERE j.value = ?)', s.sector);
  return f;
}

const typeWord = (s: Slots) =>
  s.investorType === 'Angel'
    ? 'angel investors'
    : s.investorType === 'Corporate VC'
      ? 'corporate VCs'
      : s.investorType === 'Accelerator'
        ? 'accelerators'
        : s.investorType === 'VC'
          ? 'VCs'
          : 'investors';

/** "investors based in Germany focused on Fintech" */
function investorScope(s: Slots, geo = true): string {
  let text = typeWord(s);
  if (geo && s.geo) text += ` based in ${s.geo.label}`;
  if (s.sector) text += ` focused on ${s.sector}`;
  return text;
}

function activeInvestors(id: string, leadOnly: boolean): Pattern {
  return {
    id,
    description: leadOnly
      ? 'Most active lead investors (rounds led) in a market'
      : 'Most active investors by number of deals in a market',
    examples: leadOnly
      ? [
          'most active lead investors in Healthcare & Life Sciences since 2022',
          'which VCs led the most series A rounds in Germany',
          'top 5 lead investors in fintech in 2024',
        ]
      : [
          'top 10 investors by number of deals in France',
          'most active investors in AI in 2024',
          'which angels invested in the most seed rounds in the UK',
        ],
    matches: (s) =>
      isInvestors(s) &&
      (leadOnly ? has(s, W.lead) : true) &&
      (has(s, W.most) || has(s, W.active) || has(s, /\b(who (invested|invests)|which investors)\b/)) &&
      !has(s, W.score) &&
      !has(s, W.byCountry) &&
      !has(s, W.byType),
    query: (s) => {
      const f = roundFilters(new Filters(), s);
      if (leadOnly) f.add('ri.is_lead = 1');
      if (s.investorType) f.add('i.investor_type = ?', s.investorType);
      return {
        sql: `SELECT i.name AS investor, i.key AS investor_key, i.investor_type AS investor_type, i.hq_country AS hq_country,
  COUNT(*) AS deals, SUM(ri.is_lead) AS lead_deals, COALESCE(SUM(r.amount_usd), 0) AS capital_in_rounds_usd
FROM round_investors ri
JOIN rounds r ON r.id = ri.round_id
JOIN startups st ON st.key = r.startup_key
JOIN investors i ON i.key = ri.investor_key
${f}
GROUP BY i.key
ORDER BY ${leadOnly ? 'lead_deals' : 'deals'} DESC, capital_in_rounds_usd DESC, i.name
LIMIT ?`,
        params: [...f.params, s.topN],
        columns: [
          'investor',
          'investor_key',
          'investor_type',
          'hq_country',
          'deals',
          'lead_deals',
          'capital_in_rounds_usd',
        ],
      };
    },
    answer: (rows, s) => {
      const what = scopeText(s, 'rounds');
      if (!rows.length) return { answer: `No ${typeWord(s)} ${leadOnly ? 'led' : 'took part in'} ${what}.` };
      const key = leadOnly ? 'lead_deals' : 'deals';
      const list = rows
        .slice(0, 10)
        .map((r, i) => `${i + 1}. ${r.investor} ${int(r[key])}`)
        .join('; ');
      return {
        answer: `${rows[0]!.investor} ${leadOnly ? 'led the most' : 'took part in the most'} ${what}: ${int(rows[0]![key])}. Top ${rows.length} ${typeWord(s)} by ${leadOnly ? 'rounds led' : 'deals'}: ${list}.`,
        charts: [
          chart(
            'bar',
            leadOnly ? 'Rounds led' : 'Deals per investor',
            'investor',
            [{ key, name: leadOnly ? 'Rounds led' : 'Deals' }],
            rows,
            'deals',
          ),
        ],
      };
    },
  };
}

export const topLeadInvestors = activeInvestors('top_lead_investors', true);
export const topInvestorsByDeals = activeInvestors('top_investors_by_deals', false);

export const topInvestorsByScore: Pattern = {
  id: 'top_investors_by_score',
  description: 'Best scored investors (the service investor score), by HQ place, type and sector focus',
  examples: [
    'highest rated investors in Germany',
    'best scoring fintech VCs in the UK',
    'top 5 investors by score in Israel',
  ],
  matches: (s) => isInvestors(s) && has(s, W.score) && !has(s, W.byCountry),
  query: (s) => {
    const f = investorFilters(s);
    return {
      sql: `SELECT i.name AS investor, i.key AS investor_key, i.investor_type AS investor_type, i.hq_city AS hq_city, i.hq_country AS hq_country, ROUND(i.score, 1) AS score\nFROM investors i\n${f}\nORDER BY i.score DESC, i.key\nLIMIT ?`,
      params: [...f.params, s.topN],
      columns: ['investor', 'investor_key', 'investor_type', 'hq_city', 'hq_country', 'score'],
    };
  },
  answer: (rows, s) => {
    if (!rows.length) return { answer: `There are no ${investorScope(s)}.` };
    const list = rows
      .slice(0, 10)
      .map((r, i) => `${i + 1}. ${r.investor} ${r.score}`)
      .join('; ');
    return {
      answer: `The highest scored ${investorScope(s)}: ${list}.`,
      charts: [
        chart('bar', 'Investor score', 'investor', [{ key: 'score', name: 'Score (0-100)' }], rows, 'score'),
      ],
    };
  },
};

export const investorCount: Pattern = {
  id: 'investor_count',
  description: 'How many investors are based in a place (by type and sector focus)',
  examples: [
    'How many VCs are in the UK?',
    'number of angel investors in Israel',
    'how many investors focus on healthcare in Germany',
  ],
  matches: (s) => isInvestors(s) && has(s, W.count) && !has(s, W.byType) && !has(s, W.byCountry),
  query: (s) => {
    const f = investorFilters(s);
    return {
      sql: `SELECT COUNT(*) AS investors\nFROM investors i\n${f}`,
      params: f.params,
      columns: ['investors'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.investors ?? 0);
    return { answer: `There ${n === 1 ? 'is' : 'are'} ${int(n)} ${investorScope(s)}.` };
  },
};

export const investorList: Pattern = {
  id: 'investor_list',
  description: 'List investors by HQ place, type and sector focus (best scored first)',
  examples: [
    'list angel investors in Israel',
    'show corporate VCs in Japan',
    'which accelerators are in Singapore',
  ],
  matches: (s) =>
    isInvestors(s) &&
    has(s, W.list) &&
    (s.investorType !== null || s.geo !== null || s.sector !== null) &&
    !has(s, W.byCountry) &&
    !has(s, W.byType),
  query: (s) => {
    const f = investorFilters(s);
    return {
      sql: `SELECT i.name AS investor, i.key AS investor_key, i.investor_type AS investor_type, i.hq_city AS hq_city, i.hq_country AS hq_country, ROUND(i.score, 1) AS score, COUNT(*) OVER () AS total\nFROM investors i\n${f}\nORDER BY i.score DESC, i.key\nLIMIT ?`,
      params: [...f.params, s.topNGiven ? s.topN : 25],
      columns: ['investor', 'investor_key', 'investor_type', 'hq_city', 'hq_country', 'score', 'total'],
    };
  },
  answer: (rows, s) => {
    const total = Number(rows[0]?.total ?? 0);
    if (!total) return { answer: `There are no ${investorScope(s)}.` };
    const list = rows
      .slice(0, 10)
      .map((r) => `${r.investor} (${r.hq_city})`)
      .join(', ');
    return {
      answer: `${int(total)} ${investorScope(s)}${total > rows.length ? `; the ${rows.length} best scored` : ''}: ${list}${rows.length > 10 ? ', ...' : ''}.`,
    };
  },
};

export const investorsPerCountry: Pattern = {
  id: 'investors_per_country',
  description: 'Number of investors per HQ country',
  examples: ['which countries have the most investors', 'number of VCs by country in Europe'],
  matches: (s) => isInvestors(s) && has(s, W.byCountry),
  query: (s) => {
    const f = investorFilters(s, { geo: (s.geo?.countries.length ?? 0) > 1 });
    return {
      sql: `SELECT i.hq_country AS country, COUNT(*) AS investors\nFROM investors i\n${f}\nGROUP BY i.hq_country\nORDER BY investors DESC, country\nLIMIT ?`,
      params: [...f.params, s.topNGiven ? s.topN : 100],
      columns: ['country', 'investors'],
    };
  },
  answer: (rows, s) => {
    if (!rows.length) return { answer: `There are no ${investorScope(s)}.` };
    const list = rows
      .slice(0, 10)
      .map((r, i) => `${i + 1}. ${r.country} ${int(r.investors)}`)
      .join('; ');
    return {
      answer: `${rows[0]!.country} has the most ${investorScope(s, false)} (${int(rows[0]!.investors)}). ${list}.`,
      charts: [
        chart(
          'bar',
          'Investors by country',
          'country',
          [{ key: 'investors', name: 'Investors' }],
          rows,
          'investors',
        ),
      ],
    };
  },
};

export const investorTypes: Pattern = {
  id: 'investor_types',
  description: 'Number of investors of each type (VC, Angel, Corporate VC, Accelerator)',
  examples: [
    'investor types in Germany',
    'how many investors of each type are in France',
    'breakdown of investors by type',
  ],
  matches: (s) => isInvestors(s) && (has(s, W.byType) || has(s, /\b(each|every) type\b/)),
  query: (s) => {
    const f = investorFilters({ ...s, investorType: null });
    return {
      sql: `SELECT i.investor_type AS investor_type, COUNT(*) AS investors\nFROM investors i\n${f}\nGROUP BY i.investor_type\nORDER BY investors DESC, investor_type`,
      params: f.params,
      columns: ['investor_type', 'investors'],
    };
  },
  answer: (rows, s) => {
    const total = rows.reduce((a, r) => a + Number(r.investors), 0);
    if (!total) return { answer: `There are no ${investorScope({ ...s, investorType: null })}.` };
    return {
      answer: `${int(total)} ${investorScope({ ...s, investorType: null })} by type: ${rows.map((r) => `${r.investor_type} ${int(r.investors)}`).join(', ')}.`,
      charts: [
        chart(
          'bar',
          'Investors by type',
          'investor_type',
          [{ key: 'investors', name: 'Investors' }],
          rows,
          'investors',
        ),
      ],
    };
  },
};
