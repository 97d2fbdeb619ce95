/**
 * Patterns about one named investor or startup: an investor's portfolio, its deals per year and
 * its co-investors; a startup's funding rounds with their investors. The name is read from the
 * question's wording and looked up in the database (as a bound parameter).
 */
import type { DatabaseSync } from 'node:sqlite';
import { chart } from '../charts.js';
import { int, scopeText, usd } from '../format.js';
import { has, W, type Entity, type Pattern } from '../pattern.js';
import { runReadOnly } from '../run.js';
import { Filters, roundFilters } from '../sql.js';
import type { Slots } from '../slots.js';

const INVESTOR_NAME_RES: RegExp[] = [
  /\b(?:which|what) (?:startups|companies|deals|rounds) (?:did|does|has|have) (.+?) (?:invest(?:ed)? in|back(?:ed)?|fund(?:ed)?|lead|led|do|done|participate(?:d)? in)\b/i,
  /\bhow many (?:deals|rounds|investments|startups|companies) (?:did|does|has|have) (.+?) (?:do|done|make|made|invest(?:ed)?|lead|led|back(?:ed)?|participate(?:d)?)\b/i,
  /\b(?:portfolio of|investments (?:of|by|made by)|deals (?:of|by|done by)|rounds (?:led by|backed by)|(?:startups|companies) (?:backed|funded|led) by|deal activity of|activity of)\s+(.+)$/i,
  /\b(?:co-?invest(?:s|ed|ors)?(?: the)?(?: most)? (?:with|of|alongside)|co-?investors (?:of|for)|invest(?:s|ed)? (?:most )?(?:alongside|together with)|syndicate partners of)\s+(.+)$/i,
  /^(?:show |list )?(.+?)'s (?:portfolio|investments|deals|co-?investors)\b/i,
];

const STARTUP_NAME_RES: RegExp[] = [
  /\bwho (?:invested|invests|has invested|backed|funded) in (.+)$/i,
  /\bwho (?:backed|funded|led) (.+)$/i,
  /\b(?:investors (?:in|of|behind)|funding (?:rounds |history )?of|rounds of|funding history (?:for|of)|cap table of)\s+(.+)$/i,
  /\bhow much (?:has|did|have) (.+?) raised?\b/i,
];

const clean = (s: string) =>
  s
    .replace(/[?!.]+$/, '')
    .replace(/^the /i, '')
    .trim();

function lookup(db: DatabaseSync, table: 'investors' | 'startups', name: string): Entity | null {
  const { rows } = runReadOnly(
    db,
    `SELECT key, name FROM ${table} WHERE agent_deadline() AND (name = ? COLLATE NOCASE OR key = ?) LIMIT 1`,
    [
      name,
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, ''),
    ],
  );
  const row = rows[0];
  return row
    ? { kind: table === 'investors' ? 'investor' : 'startup', key: String(row.key), name: String(row.name) }
    : null;
}

/** Tries the captured words, then shorter prefixes of them ("Northwind Ventures in 2024" -> "Northwind Ventures"). */
function resolve(db: DatabaseSync, table: 'investors' | 'startups', captured: string): Entity | null {
  const words = clean(captured).split(/\s+/).filter(Boolean);
  for (let n = Math.min(words.length, 8); n >= 1; n--) {
    const candidate = words
      .slice(0, n)
      .join(' ')
      .replace(/[,;:]+$/, '');
    if (candidate.length < 2) continue;
    const hit = lookup(db, table, candidate);
    if (hit) return hit;
  }
  return null;
}

/**
 * The investor or startup a question names, when its wording is one of the entity phrasings
 * ("which startups did X invest in", "who invested in Y") and the name exists in the database.
 */
export function findEntity(db: DatabaseSync, question: string): Entity | null {
  const q = question.replace(/\s+/g, ' ').trim();
  for (const re of INVESTOR_NAME_RES) {
    const m = re.exec(q);
    if (m?.[1]) {
      const hit = resolve(db, 'investors', m[1]);
      if (hit) return hit;
    }
  }
  for (const re of STARTUP_NAME_RES) {
    const m = re.exec(q);
    if (m?.[1]) {
      const hit = resolve(db, 'startups', m[1]);
      if (hit) return hit;
    }
  }
  return null;
}

/** Slots read from the words after the entity's name only (its name must not become a filter). */
function investorRounds(s: Slots, investorKey: string): Filters {
  return roundFilters(new Filters(), s).add('ri.investor_key = ?', investorKey);
}

const INVESTOR_ROUNDS_FROM = `FROM round_investors ri
JOIN rounds r ON r.id = ri.round_id
JOIN startups st ON st.key = r.startup_key`;

const coInvest = /\b(co-?invest\w*|alongside|together with|syndicate partners)\b/;

export const investorPortfolio: Pattern = {
  id: 'investor_portfolio',
  description:
    "A named investor's portfolio: the rounds it took part in (optionally by sector, place, stage, period)",
  examples: ['Which startups did {investor} invest in?', 'portfolio of {investor} in 2024'],
  matches: (s, ctx) =>
    ctx.entity?.kind === 'investor' && !has(s, W.byYear) && !has(s, coInvest) && !has(s, /\bhow many\b/),
  query: (s, ctx) => {
    const f = investorRounds(s, ctx.entity!.key);
    return {
      sql: `SELECT st.name AS startup, st.key AS startup_key, st.hq_country AS country, st.sector AS sector, r.date AS date, r.stage AS stage, r.amount_usd AS amount_usd, ri.is_lead AS is_lead, COUNT(*) OVER () AS total\n${INVESTOR_ROUNDS_FROM}\n${f}\nORDER BY r.date DESC, r.id\nLIMIT ?`,
      params: [...f.params, s.topNGiven ? s.topN : 50],
      columns: [
        'startup',
        'startup_key',
        'country',
        'sector',
        'date',
        'stage',
        'amount_usd',
        'is_lead',
        'total',
      ],
    };
  },
  answer: (rows, s, ctx) => {
    const total = Number(rows[0]?.total ?? 0);
    const what = scopeText(s, 'rounds');
    if (!total) return { answer: `${ctx.entity!.name} took part in no ${what}.` };
    const leads = rows.filter((r) => Number(r.is_lead) === 1).length;
    const list = rows
      .slice(0, 10)
      .map((r) => `${r.startup} (${r.stage}, ${usd(r.amount_usd)}, ${r.date})`)
      .join('; ');
    return {
      answer: `${ctx.entity!.name} took part in ${int(total)} ${what}${total > rows.length ? ` (latest ${rows.length} listed, ${leads} of them led)` : `, leading ${leads}`}: ${list}${rows.length > 10 ? '; ...' : ''}.`,
    };
  },
};

export const investorActivityByYear: Pattern = {
  id: 'investor_activity_by_year',
  description: "A named investor's deals and rounds led per year",
  examples: ['How many deals did {investor} do per year?', 'deal activity of {investor} by year'],
  matches: (s, ctx) =>
    ctx.entity?.kind === 'investor' && (has(s, W.byYear) || has(s, /\bhow many\b/)) && !has(s, coInvest),
  query: (s, ctx) => {
    const f = investorRounds(s, ctx.entity!.key);
    return {
      sql: `SELECT r.year AS year, COUNT(*) AS deals, SUM(ri.is_lead) AS lead_deals, COALESCE(SUM(r.amount_usd), 0) AS capital_in_rounds_usd\n${INVESTOR_ROUNDS_FROM}\n${f}\nGROUP BY r.year\nORDER BY r.year`,
      params: f.params,
      columns: ['year', 'deals', 'lead_deals', 'capital_in_rounds_usd'],
    };
  },
  answer: (rows, s, ctx) => {
    const total = rows.reduce((a, r) => a + Number(r.deals), 0);
    if (!total) return { answer: `${ctx.entity!.name} took part in no ${scopeText(s, 'rounds')}.` };
    return {
      answer: `${ctx.entity!.name} took part in ${int(total)} ${scopeText(s, 'rounds')}: ${rows.map((r) => `${r.year} ${int(r.deals)} (${int(r.lead_deals)} led)`).join(', ')}.`,
      charts: [
        chart(
          'bar',
          `${ctx.entity!.name}: deals per year`,
          'year',
          [
            { key: 'deals', name: 'Deals' },
            { key: 'lead_deals', name: 'Led', type: 'line' },
          ],
          rows,
          'deals',
        ),
      ],
    };
  },
};

export const coInvestors: Pattern = {
  id: 'co_investors',
  description: 'The investors that most often invest alongside a named investor',
  examples: ['Who co-invests most with {investor}?', 'co-investors of {investor} since 2022'],
  matches: (s, ctx) => ctx.entity?.kind === 'investor' && has(s, coInvest),
  query: (s, ctx) => {
    const f = roundFilters(new Filters(), s)
      .add('a.investor_key = ?', ctx.entity!.key)
      .add('b.investor_key <> a.investor_key');
    return {
      sql: `SELECT i.name AS investor, i.key AS investor_key, i.hq_country AS hq_country, COUNT(*) AS shared_rounds
FROM round_investors a
JOIN round_investors b ON b.round_id = a.round_id
JOIN rounds r ON r.id = a.round_id
JOIN startups st ON st.key = r.startup_key
JOIN investors i ON i.key = b.investor_key
${f}
GROUP BY i.key
ORDER BY shared_rounds DESC, i.name
LIMIT ?`,
      params: [...f.params, s.topN],
      columns: ['investor', 'investor_key', 'hq_country', 'shared_rounds'],
    };
  },
  answer: (rows, _s, ctx) => {
    if (!rows.length) return { answer: `${ctx.entity!.name} has no co-investors in the matching rounds.` };
    return {
      answer: `${rows[0]!.investor} co-invests most often with ${ctx.entity!.name} (${int(rows[0]!.shared_rounds)} shared rounds). Top ${rows.length}: ${rows.map((r) => `${r.investor} ${int(r.shared_rounds)}`).join('; ')}.`,
      charts: [
        chart(
          'bar',
          `Co-investors of ${ctx.entity!.name}`,
          'investor',
          [{ key: 'shared_rounds', name: 'Shared rounds' }],
          rows,
          'rounds',
        ),
      ],
    };
  },
};

export const startupFunding: Pattern = {
  id: 'startup_funding',
  description: "A named startup's funding rounds with their investors",
  examples: ['Who invested in {startup}?', 'funding rounds of {startup}', 'how much has {startup} raised'],
  matches: (_s, ctx) => ctx.entity?.kind === 'startup',
  query: (_s, ctx) => {
    const f = new Filters().add('r.startup_key = ?', ctx.entity!.key);
    return {
      sql: `SELECT r.date AS date, r.stage AS stage, r.amount_usd AS amount_usd,
  (SELECT group_concat(name, ', ') FROM (SELECT i.name AS name FROM round_investors ri JOIN investors i ON i.key = ri.investor_key WHERE ri.round_id = r.id ORDER BY ri.is_lead DESC, i.name)) AS investors,
  (SELECT i.name FROM investors i WHERE i.key = r.lead_investor_key) AS lead_investor
FROM rounds r
${f}
ORDER BY r.date, r.id`,
      params: f.params,
      columns: ['date', 'stage', 'amount_usd', 'investors', 'lead_investor'],
    };
  },
  answer: (rows, _s, ctx) => {
    if (!rows.length) return { answer: `${ctx.entity!.name} has no recorded funding rounds.` };
    const total = rows.reduce((a, r) => a + Number(r.amount_usd), 0);
    const list = rows
      .map(
        (r) =>
          `${r.date} ${r.stage} ${usd(r.amount_usd)}${r.lead_investor ? ` led by ${r.lead_investor as string}` : ''}`,
      )
      .join('; ');
    return {
      answer: `${ctx.entity!.name} raised ${usd(total)} in ${int(rows.length)} ${rows.length === 1 ? 'round' : 'rounds'}: ${list}.`,
      charts: [
        chart(
          'bar',
          `${ctx.entity!.name}: funding rounds`,
          'date',
          [{ key: 'amount_usd', name: 'Round size (USD)' }],
          rows,
          'USD',
        ),
      ],
    };
  },
};
