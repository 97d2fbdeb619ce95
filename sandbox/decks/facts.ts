/**
 * Facts read from a deck's text: the raise, revenue (ARR, MRR), growth, customers, users,
 * market size, margins, retention, team lines, stage and business-model words. Each fact keeps
 * the sentence it came from, so the analysis can quote the deck.
 */
import { findMoney, type MoneyMatch } from './money.js';

/** A number found in the deck with the sentence it was read from. */
export interface DeckFact<T = number> {
  value: T;
  /** The amount or figure as written. */
  text: string;
  /** The deck sentence it came from (trimmed to 200 characters). */
  quote: string;
  page: number;
}

export interface DeckFacts {
  raise: DeckFact | null;
  arr: DeckFact | null;
  mrr: DeckFact | null;
  revenue: DeckFact | null;
  valuation: DeckFact | null;
  tam: DeckFact | null;
  /** Year-over-year growth in percent (3x YoY = 200). */
  growth_yoy_pct: DeckFact | null;
  /** Month-over-month growth in percent. */
  growth_mom_pct: DeckFact | null;
  customers: DeckFact | null;
  users: DeckFact | null;
  gross_margin_pct: DeckFact | null;
  net_retention_pct: DeckFact | null;
  churn_pct: DeckFact | null;
  team_size: DeckFact | null;
  /** Lines naming a founder or executive role. */
  team_lines: DeckFact<string>[];
  /** Background signals in the team lines (ex-employers, degrees, prior exits). */
  team_signals: string[];
  /** The stage named next to the raise (seed, series-a, ...). */
  stage: string | null;
  business_model: string[];
  product_signals: string[];
  mentions_competition: boolean;
  pre_revenue: boolean;
  /** Number of sentences read. */
  sentences: number;
}

interface Sentence {
  text: string;
  page: number;
}

/** Splits page texts into sentences (lines and ". " boundaries). */
export function sentencesOf(pages: string[]): Sentence[] {
  const out: Sentence[] = [];
  pages.forEach((page, i) => {
    for (const line of page.split(/\n+|(?<=[.!?])\s+(?=[A-Z€$£])|\s*[•▪●]\s*/)) {
      const text = line.replace(/\s+/g, ' ').trim();
      if (text.length >= 2) out.push({ text, page: i + 1 });
    }
  });
  return out;
}

const quoteOf = (s: string) => (s.length > 200 ? `${s.slice(0, 197)}...` : s);

/** The money amount of the first sentence matching `keyword` (nearest to the keyword), skipping `exclude`. */
function moneyNear(sentences: Sentence[], keyword: RegExp, exclude?: RegExp): DeckFact | null {
  for (const s of sentences) {
    const k = keyword.exec(s.text);
    if (!k) continue;
    if (exclude?.test(s.text) && !keyword.test(s.text.replace(exclude, ''))) continue;
    const amounts = findMoney(s.text);
    if (amounts.length === 0) continue;
    const nearest = amounts.reduce<MoneyMatch>(
      (best, a) => (Math.abs(a.index - k.index) < Math.abs(best.index - k.index) ? a : best),
      amounts[0]!,
    );
    return { value: nearest.usd, text: nearest.text, quote: quoteOf(s.text), page: s.page };
  }
  return null;
}

/** The first capture of `re` in any sentence, as a number. */
function numberNear(
  sentences: Sentence[],
  re: RegExp,
  parse: (m: RegExpExecArray) => number | null,
): DeckFact | null {
  for (const s of sentences) {
    const m = re.exec(s.text);
    if (!m) continue;
    const value = parse(m);
    if (value === null || !Number.isFinite(value)) continue;
    return { value, text: m[0].trim(), quote: quoteOf(s.text), page: s.page };
  }
  return null;
}

const countOf = (raw: string | undefined, scale?: string) => {
  const v = Number((raw ?? '').replace(/,/g, ''));
  const s = (scale ?? '').toLowerCase();
  return v * (s === 'k' ? 1e3 : s === 'm' ? 1e6 : 1);
};

const STAGE_WORDS: [RegExp, string][] = [
  [/\bpre[- ]?seed\b/i, 'pre-seed'],
  [/\bseries[- ]a\b/i, 'series-a'],
  [/\bseries[- ]b\b/i, 'series-b'],
  [/\bseries[- ]c\b/i, 'series-c'],
  [/\bseries[- ][d-z]\b/i, 'series-d-plus'],
  [/\bseed\b/i, 'seed'],
];

const BUSINESS_MODELS: [RegExp, string][] = [
  [/\bsaas\b|software[- ]as[- ]a[- ]service/i, 'SaaS'],
  [/\bsubscriptions?\b/i, 'subscription'],
  [/\bmarketplace\b/i, 'marketplace'],
  [/\btake rate\b|\bcommission\b/i, 'take rate / commission'],
  [/\btransaction fees?\b/i, 'transaction fees'],
  [/\busage[- ]based\b|\bper (seat|user|transaction|api call)\b/i, 'usage / per-seat pricing'],
  [/\blicen[cs]e\b/i, 'licensing'],
  [/\bhardware sales?\b|\bunit price\b/i, 'hardware sales'],
  [/\b(cac|ltv|payback)\b/i, 'unit economics (CAC/LTV)'],
  [/\bpricing\b/i, 'stated pricing'],
];

const PRODUCT_SIGNALS: [RegExp, string][] = [
  [/\bpatent(s|ed)?\b/i, 'patents'],
  [/\bproprietary\b/i, 'proprietary technology'],
  [/\bapi\b/i, 'API'],
  [/\bplatform\b/i, 'platform'],
  [/\b(launched|live|in production|general availability|GA)\b/, 'product live'],
  [/\b(machine learning|\bai\b|artificial intelligence|llm|model)\b/i, 'AI / ML'],
  [/\b(integrat(es|ion|ions))\b/i, 'integrations'],
  [/\b(pilot|beta|prototype|mvp)\b/i, 'pilot / beta stage'],
];

const TEAM_ROLE =
  /\b(ceo|cto|coo|cfo|cpo|cmo|co-?founder|founder|chief [a-z]+ officer|head of [a-z]+|vp [a-z]+)\b/i;
const TEAM_SIGNAL =
  /\b(ex-[A-Z][\w&.-]*|former [A-Z][\w&.-]*|previously (at )?[A-Z][\w&.-]*|ph\.?d|mba|stanford|mit|oxford|cambridge|harvard|eth zurich|insead|exited|exit to [A-Z][\w&.-]*|sold (to|company)|\d+\+? years)\b/gi;

/**
 * Reads the facts of a deck from its page texts.
 *
 * @example
 * const f = readDeckFacts(['Acme\nWe are raising $3M seed.\nARR $1.2M, growing 3x YoY']);
 * f.raise?.value; // 3000000
 * f.arr?.text;    // '$1.2M'
 */
export function readDeckFacts(pages: string[]): DeckFacts {
  const sentences = sentencesOf(pages);
  const all = sentences.map((s) => s.text).join('\n');

  const raise = moneyNear(
    sentences,
    /\b(rais(e|es|ing)|seeking|round of|funding ask|the ask|investment of|we are looking for)\b/i,
  );
  const arr = moneyNear(
    sentences,
    /\b(arr|annual recurring revenue|annuali[sz]ed (revenue|run[- ]rate)|run[- ]rate)\b/i,
  );
  const mrr = moneyNear(sentences, /\b(mrr|monthly recurring revenue)\b/i);
  const revenue = moneyNear(
    sentences,
    /\b(revenue|revenues|sales|turnover|bookings)\b/i,
    /\b(recurring revenue|revenue share)\b/i,
  );
  const valuation = moneyNear(sentences, /\b(valuation|pre-money|post-money|cap)\b/i);
  const tam = moneyNear(
    sentences,
    /\b(tam|total addressable market|market size|addressable market|market (is|worth|of))\b/i,
  );

  const growthYoy =
    numberNear(
      sentences,
      /(\d+(?:\.\d+)?)\s?x\s*(yoy|year[- ]over[- ]year|growth|in revenue|revenue growth|annual)/i,
      (m) => (Number(m[1]) - 1) * 100,
    ) ??
    numberNear(
      sentences,
      /(\d+(?:\.\d+)?)\s?%\s*(yoy|year[- ]over[- ]year|annual growth|growth year)/i,
      (m) => Number(m[1]),
    ) ??
    numberNear(
      sentences,
      /(grew|growing|growth of)\s*(\d+(?:\.\d+)?)\s?%\s*(yoy|year|annually|last year)/i,
      (m) => Number(m[2]),
    );
  const growthMom = numberNear(
    sentences,
    /(\d+(?:\.\d+)?)\s?%\s*(mom|month[- ]over[- ]month|monthly growth|per month|a month)/i,
    (m) => Number(m[1]),
  );
  const customers = numberNear(
    sentences,
    /(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?\+?\s*(paying\s+|enterprise\s+|b2b\s+|active\s+)?(customers|clients|brands|merchants|hospitals|clinics|schools|companies use)/i,
    (m) => countOf(m[1], m[2]),
  );
  const users = numberNear(
    sentences,
    /(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k|m)?\+?\s*(monthly active users|active users|users|mau|downloads|members|patients)/i,
    (m) => countOf(m[1], m[2]),
  );
  const grossMargin =
    numberNear(sentences, /(\d{1,3}(?:\.\d+)?)\s?%\s*gross margins?/i, (m) => Number(m[1])) ??
    numberNear(sentences, /gross margins?\D{0,20}(\d{1,3}(?:\.\d+)?)\s?%/i, (m) => Number(m[1]));
  const nrr =
    numberNear(sentences, /(\d{2,3})\s?%\s*(nrr|ndr|net (revenue|dollar) retention)/i, (m) => Number(m[1])) ??
    numberNear(sentences, /(nrr|ndr|net (revenue|dollar) retention)\D{0,20}(\d{2,3})\s?%/i, (m) =>
      Number(m[3]),
    );
  const churn =
    numberNear(sentences, /(\d+(?:\.\d+)?)\s?%\s*(monthly |annual |logo |customer )?churn/i, (m) =>
      Number(m[1]),
    ) ?? numberNear(sentences, /churn\D{0,20}(\d+(?:\.\d+)?)\s?%/i, (m) => Number(m[1]));
  const teamSize = numberNear(sentences, /(\d+)\s*(employees|ftes?|people|team members|engineers)\b/i, (m) =>
    Number(m[1]),
  );

  const teamLines = sentences
    .filter((s) => TEAM_ROLE.test(s.text))
    .slice(0, 8)
    .map((s) => ({ value: s.text, text: s.text, quote: quoteOf(s.text), page: s.page }));
  const signals = new Set<string>();
  for (const line of teamLines) for (const m of line.value.matchAll(TEAM_SIGNAL)) signals.add(m[0]);

  const raiseSentence = raise?.quote ?? '';
  const stage =
    STAGE_WORDS.find(([re]) => re.test(raiseSentence))?.[1] ??
    STAGE_WORDS.find(([re]) => re.test(all))?.[1] ??
    null;

  return {
    raise,
    arr,
    mrr,
    revenue: revenue && revenue.value !== arr?.value && revenue.value !== mrr?.value ? revenue : null,
    valuation,
    tam,
    growth_yoy_pct: growthYoy,
    growth_mom_pct: growthMom,
    customers,
    users,
    gross_margin_pct: grossMargin,
    net_retention_pct: nrr,
    churn_pct: churn,
    team_size: teamSize,
    team_lines: teamLines,
    team_signals: [...signals].slice(0, 8),
    stage,
    business_model: BUSINESS_MODELS.filter(([re]) => re.test(all)).map(([, name]) => name),
    product_signals: PRODUCT_SIGNALS.filter(([re]) => re.test(all)).map(([, name]) => name),
    mentions_competition: /\b(competitors?|competition|competitive landscape|alternatives|vs\.?)\b/i.test(
      all,
    ),
    pre_revenue: /\bpre[- ]?revenue\b/i.test(all),
    sentences: sentences.length,
  };
}

/** Annual recurring revenue in USD: ARR, or MRR x 12, or stated revenue. */
export function annualRevenue(
  f: DeckFacts,
): { usd: number; fact: DeckFact; basis: 'ARR' | 'MRR x 12' | 'revenue' } | null {
  if (f.arr) return { usd: f.arr.value, fact: f.arr, basis: 'ARR' };
  if (f.mrr) return { usd: f.mrr.value * 12, fact: f.mrr, basis: 'MRR x 12' };
  if (f.revenue) return { usd: f.revenue.value, fact: f.revenue, basis: 'revenue' };
  return null;
}
