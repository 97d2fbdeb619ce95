/**
 * The deck analysis: the deck's facts scored against the account's fund thesis into six
 * dimensions (team, market, traction, product, business model, fit with thesis), a deal score,
 * a verdict, strengths, risks, red flags and questions for the first meeting. Every rationale
 * quotes what the deck says.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { FundThesis } from '../types.js';
import { classifyDeck, deckCountry, type DeckMarket } from './classify.js';
import { annualRevenue, readDeckFacts, type DeckFacts } from './facts.js';
import { formatUsd } from './money.js';

export const DIMENSIONS = ['team', 'market', 'traction', 'product', 'business_model', 'thesis_fit'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Weights of the dimensions in the deal score (sum 1). */
export const DIMENSION_WEIGHTS: Record<Dimension, number> = {
  team: 0.2,
  market: 0.15,
  traction: 0.25,
  product: 0.1,
  business_model: 0.1,
  thesis_fit: 0.2,
};

export const DIMENSION_LABELS: Record<Dimension, string> = {
  team: 'Team',
  market: 'Market',
  traction: 'Traction',
  product: 'Product',
  business_model: 'Business model',
  thesis_fit: 'Fit with thesis',
};

export type Verdict = 'pursue' | 'consider' | 'pass';

export interface ScoredDimension {
  dimension: Dimension;
  label: string;
  score: number;
  weight: number;
  rationale: string;
  /** Deck sentences the score rests on. */
  evidence: string[];
}

export interface DeckAnalysis {
  startup_name: string;
  deal_score: number;
  verdict: Verdict;
  verdict_reason: string;
  dimensions: ScoredDimension[];
  strengths: string[];
  risks: string[];
  red_flags: string[];
  questions: string[];
  /** The numbers read from the deck. */
  facts: {
    raise_usd: number | null;
    stage: string | null;
    arr_usd: number | null;
    revenue_basis: string | null;
    growth_yoy_pct: number | null;
    growth_mom_pct: number | null;
    customers: number | null;
    users: number | null;
    tam_usd: number | null;
    gross_margin_pct: number | null;
    net_retention_pct: number | null;
    churn_pct: number | null;
    team_size: number | null;
    valuation_usd: number | null;
  };
  market: DeckMarket & { country: string | null };
  thesis: { fund_name: string; sectors: string[]; stages: string[]; countries: string[] } | null;
  deck: { kind: string; pages: number; words: number };
}

export interface AnalyseInput {
  pages: string[];
  kind: 'pdf' | 'pptx';
  startupName?: string;
  thesis?: FundThesis;
  db?: DatabaseSync;
}

const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n)));
const q = (s: string) => `"${s}"`;

/** A stage slug in the thesis' vocabulary ("series-c-plus" covers series-c and later). */
function stageMatches(stage: string, thesisStages: string[]): boolean {
  const later = ['series-c', 'series-d-plus', 'growth'];
  return thesisStages.some((t) => t === stage || (t === 'series-c-plus' && later.includes(stage)));
}

function guessName(pages: string[], given?: string): string {
  if (given) return given;
  const first = (pages[0] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find(
      (l) => l.length >= 2 && l.length <= 40 && !/^(confidential|pitch deck|investor presentation)/i.test(l),
    );
  return first ?? 'Unnamed startup';
}

function scoreTeam(f: DeckFacts): ScoredDimension {
  const founders = f.team_lines.length;
  let score = 30 + Math.min(founders, 3) * 10 + Math.min(f.team_signals.length, 3) * 10;
  if (f.team_size) score += f.team_size.value >= 10 ? 10 : 5;
  const evidence = f.team_lines.slice(0, 3).map((l) => l.quote);
  const rationale = founders
    ? `The deck names ${founders} founder/executive line${founders === 1 ? '' : 's'} (${evidence.map(q).join('; ')})${f.team_signals.length ? ` with background signals: ${f.team_signals.join(', ')}` : ', without prior roles, exits or degrees'}${f.team_size ? `; team size ${q(f.team_size.text)}` : ''}.`
    : 'The deck does not name the founders or their roles.';
  return dim('team', founders ? score : 20, rationale, evidence);
}

function scoreMarket(f: DeckFacts, m: DeckMarket): ScoredDimension {
  let score = 35;
  const parts: string[] = [];
  if (f.tam) {
    score += f.tam.value >= 10e9 ? 35 : f.tam.value >= 1e9 ? 25 : 10;
    parts.push(`market size ${formatUsd(f.tam.value)} (${q(f.tam.quote)})`);
  } else parts.push('no market size given');
  if (f.mentions_competition) {
    score += 10;
    parts.push('the deck addresses competition');
  } else parts.push('no competition slide');
  if (m.sector) parts.push(`read as ${m.subsector ? `${m.subsector} (${m.sector})` : m.sector}`);
  return dim('market', score, `${cap(parts.join('; '))}.`, f.tam ? [f.tam.quote] : []);
}

function scoreTraction(f: DeckFacts): ScoredDimension {
  const rev = annualRevenue(f);
  let score = 15;
  const parts: string[] = [];
  const evidence: string[] = [];
  if (rev) {
    score += rev.usd >= 5e6 ? 50 : rev.usd >= 1e6 ? 40 : rev.usd >= 250e3 ? 28 : 18;
    parts.push(`${rev.basis} ${formatUsd(rev.usd)} (${q(rev.fact.quote)})`);
    evidence.push(rev.fact.quote);
  } else parts.push(f.pre_revenue ? 'pre-revenue' : 'no revenue figure');
  const growth =
    f.growth_yoy_pct ??
    (f.growth_mom_pct
      ? { ...f.growth_mom_pct, value: (Math.pow(1 + f.growth_mom_pct.value / 100, 12) - 1) * 100 }
      : null);
  if (growth) {
    score += growth.value >= 200 ? 20 : growth.value >= 100 ? 15 : growth.value >= 50 ? 8 : 3;
    parts.push(`growth ${q(growth.text)}`);
    evidence.push(growth.quote);
  }
  if (f.customers) {
    score += f.customers.value >= 100 ? 12 : f.customers.value >= 10 ? 8 : 4;
    parts.push(`${f.customers.value.toLocaleString('en-US')} customers (${q(f.customers.quote)})`);
    evidence.push(f.customers.quote);
  } else if (f.users) {
    score += f.users.value >= 100_000 ? 10 : 5;
    parts.push(`${f.users.value.toLocaleString('en-US')} users`);
    evidence.push(f.users.quote);
  }
  if (f.net_retention_pct && f.net_retention_pct.value >= 110) {
    score += 5;
    parts.push(`net retention ${f.net_retention_pct.value}%`);
  }
  if (f.churn_pct && f.churn_pct.value > 5) {
    score -= 10;
    parts.push(`churn ${f.churn_pct.value}%`);
  }
  return dim('traction', score, `${cap(parts.join('; '))}.`, evidence);
}

function scoreProduct(f: DeckFacts): ScoredDimension {
  const strong = f.product_signals.filter((p) => p !== 'pilot / beta stage');
  let score = 40 + Math.min(strong.length, 4) * 10;
  if (f.product_signals.includes('pilot / beta stage')) score -= 10;
  const rationale = f.product_signals.length
    ? `The deck describes ${f.product_signals.join(', ')}.`
    : 'The deck says little about the product itself (no platform, API, patents or launch status).';
  return dim('product', score, rationale, []);
}

function scoreBusinessModel(f: DeckFacts): ScoredDimension {
  let score = 35 + Math.min(f.business_model.length, 3) * 10;
  const parts: string[] = [];
  if (f.business_model.length) parts.push(`model: ${f.business_model.join(', ')}`);
  else parts.push('no stated business model or pricing');
  if (f.gross_margin_pct) {
    score += f.gross_margin_pct.value >= 70 ? 20 : f.gross_margin_pct.value >= 50 ? 10 : 0;
    parts.push(`gross margin ${f.gross_margin_pct.value}% (${q(f.gross_margin_pct.quote)})`);
  }
  return dim(
    'business_model',
    score,
    `${cap(parts.join('; '))}.`,
    f.gross_margin_pct ? [f.gross_margin_pct.quote] : [],
  );
}

function scoreFit(
  f: DeckFacts,
  m: DeckMarket & { country: string | null },
  thesis: FundThesis | undefined,
  conflicts: string[],
): ScoredDimension {
  if (!thesis) return dim('thesis_fit', 50, 'The account has no fund thesis on file, so fit is neutral.', []);
  let score = 0;
  const parts: string[] = [];
  if (m.sector && thesis.sectors.includes(m.sector)) {
    score += 35;
    parts.push(`sector ${m.sector} is in the thesis`);
  } else
    parts.push(
      m.sector ? `sector ${m.sector} is outside the thesis (${thesis.sectors.join(', ')})` : 'sector unclear',
    );
  if (f.stage && stageMatches(f.stage, thesis.stages)) {
    score += 25;
    parts.push(`stage ${f.stage} matches`);
  } else
    parts.push(
      f.stage
        ? `stage ${f.stage} is outside the thesis stages (${thesis.stages.join(', ')})`
        : 'stage not stated',
    );
  if (m.country && (thesis.countries.length === 0 || thesis.countries.includes(m.country))) {
    score += 25;
    parts.push(`based in ${m.country}, a thesis country`);
  } else
    parts.push(m.country ? `based in ${m.country}, outside the thesis countries` : 'home country not stated');
  if (f.raise) {
    if (f.raise.value >= thesis.check_min_usd) {
      score += 15;
      parts.push(
        `the ${formatUsd(f.raise.value)} raise leaves room for a ${formatUsd(thesis.check_min_usd)}-${formatUsd(thesis.check_max_usd)} check`,
      );
    } else
      parts.push(
        `the ${formatUsd(f.raise.value)} raise is below the fund's minimum check of ${formatUsd(thesis.check_min_usd)}`,
      );
  }
  if (conflicts.length) {
    score -= 20;
    parts.push(`possible conflict with portfolio companies ${conflicts.join(', ')}`);
  }
  return dim(
    'thesis_fit',
    score,
    `${cap(parts.join('; '))} (${thesis.fund_name}).`,
    f.raise ? [f.raise.quote] : [],
  );
}

function dim(dimension: Dimension, score: number, rationale: string, evidence: string[]): ScoredDimension {
  return {
    dimension,
    label: DIMENSION_LABELS[dimension],
    score: clamp(score),
    weight: DIMENSION_WEIGHTS[dimension],
    rationale,
    evidence: [...new Set(evidence)],
  };
}

const cap = (s: string) => (s ? `${s[0]!.toUpperCase()}${s.slice(1)}` : s);

/** Portfolio companies of the thesis in the same subsector as the deck. */
function portfolioConflicts(
  db: DatabaseSync | undefined,
  thesis: FundThesis | undefined,
  market: DeckMarket,
  name: string,
): string[] {
  if (!db || !thesis?.portfolio.length || !market.subsector) return [];
  const placeholders = thesis.portfolio.map(() => '?').join(', ');
  const rows = db
    .prepare(
      `SELECT name FROM startups WHERE key IN (${placeholders}) AND subsector = ? AND name <> ? ORDER BY name LIMIT 5`,
    )
    .all(...thesis.portfolio, market.subsector, name) as { name: string }[];
  return rows.map((r) => r.name);
}

/** Median round of the deck's stage and sector in the database, for context. */
function marketMedian(
  db: DatabaseSync | undefined,
  stage: string | null,
  sector: string | null,
): { median: number; n: number } | null {
  if (!db || !stage || !sector) return null;
  const rows = db
    .prepare(
      'SELECT r.amount_usd AS x FROM rounds r JOIN startups st ON st.key = r.startup_key WHERE r.stage = ? AND st.sector = ? ORDER BY r.amount_usd',
    )
    .all(stage, sector) as { x: number }[];
  if (!rows.length) return null;
  const mid = Math.floor(rows.length / 2);
  const median = rows.length % 2 ? rows[mid]!.x : (rows[mid - 1]!.x + rows[mid]!.x) / 2;
  return { median, n: rows.length };
}

/**
 * Analyses a deck's text against a fund thesis.
 *
 * @example
 * const a = analyseDeck({ pages: ['Acme\nRaising $3M seed\nARR $1.2M'], kind: 'pdf', thesis });
 * a.deal_score; // 0..100
 * a.verdict;    // 'pursue' | 'consider' | 'pass'
 */
export function analyseDeck(input: AnalyseInput): DeckAnalysis {
  const f = readDeckFacts(input.pages);
  const text = input.pages.join('\n');
  const name = guessName(input.pages, input.startupName);
  const market = { ...classifyDeck(text), country: deckCountry(text) };
  const conflicts = portfolioConflicts(input.db, input.thesis, market, name);
  const dims = [
    scoreTeam(f),
    scoreMarket(f, market),
    scoreTraction(f),
    scoreProduct(f),
    scoreBusinessModel(f),
    scoreFit(f, market, input.thesis, conflicts),
  ];
  const deal = clamp(dims.reduce((a, d) => a + d.score * d.weight, 0));
  const fit = dims.find((d) => d.dimension === 'thesis_fit')!;
  const rev = annualRevenue(f);

  const redFlags: string[] = [];
  if (!f.team_lines.length) redFlags.push('The deck does not name the founding team.');
  if (!rev && !f.customers && !f.users)
    redFlags.push('No revenue, customer or user numbers anywhere in the deck.');
  if (f.raise && !rev && f.raise.value > 5e6)
    redFlags.push(`Raising ${formatUsd(f.raise.value)} without revenue figures.`);
  if (f.valuation && rev && f.valuation.value / Math.max(rev.usd, 1) > 60)
    redFlags.push(
      `Valuation ${formatUsd(f.valuation.value)} is over 60x annual revenue of ${formatUsd(rev.usd)}.`,
    );
  if (f.churn_pct && f.churn_pct.value > 5)
    redFlags.push(`Churn of ${f.churn_pct.value}% (${q(f.churn_pct.quote)}).`);
  if (!f.raise) redFlags.push('The deck does not say how much the company is raising.');
  if (input.pages.length < 5)
    redFlags.push(`The deck has only ${input.pages.length} page${input.pages.length === 1 ? '' : 's'}.`);
  if (conflicts.length) redFlags.push(`Possible conflict with portfolio companies: ${conflicts.join(', ')}.`);

  const strengths = dims.filter((d) => d.score >= 70).map((d) => `${d.label}: ${d.rationale}`);
  const risks = dims.filter((d) => d.score < 50).map((d) => `${d.label}: ${d.rationale}`);
  const median = marketMedian(input.db, f.stage, market.sector);
  if (median && f.raise) {
    const ratio = f.raise.value / median.median;
    if (ratio > 2)
      risks.push(
        `The ${formatUsd(f.raise.value)} raise is ${ratio.toFixed(1)}x the median ${f.stage} round in ${market.sector} (${formatUsd(median.median)} over ${median.n} rounds).`,
      );
    else if (ratio >= 0.5)
      strengths.push(
        `The ${formatUsd(f.raise.value)} raise is in line with the median ${f.stage} round in ${market.sector} (${formatUsd(median.median)} over ${median.n} rounds).`,
      );
  }

  const questions: string[] = [];
  if (rev)
    questions.push(
      `${rev.basis} of ${formatUsd(rev.usd)}: what share comes from the three largest customers, and what is the monthly growth over the last six months?`,
    );
  else questions.push('What revenue do you have today, and when do you expect the first paying customers?');
  if (f.raise)
    questions.push(
      `How will the ${formatUsd(f.raise.value)} be used, and which milestones will it reach before the next round?`,
    );
  else questions.push('How much are you raising, at what terms, and for how many months of runway?');
  if (!f.mentions_competition)
    questions.push('Who do customers use today instead of you, and why do they switch?');
  if (!f.business_model.includes('unit economics (CAC/LTV)'))
    questions.push('What are customer acquisition cost and payback period per channel?');
  if (f.team_lines.length < 2)
    questions.push('Who else is on the founding team, and which key hires are planned?');
  if (!f.gross_margin_pct) questions.push('What is the gross margin today and at scale?');
  if (f.growth_yoy_pct || f.growth_mom_pct)
    questions.push(
      `What drives the growth you show (${q((f.growth_yoy_pct ?? f.growth_mom_pct)!.text)}), and is it repeatable per channel?`,
    );
  if (fit.score < 50 && input.thesis)
    questions.push(
      `Why is this a fit for ${input.thesis.fund_name} given ${fit.rationale.split(';')[0]!.toLowerCase()}?`,
    );

  const verdict: Verdict =
    deal >= 70 && fit.score >= 50 ? 'pursue' : deal >= 50 && fit.score >= 30 ? 'consider' : 'pass';
  const verdictReason =
    verdict === 'pursue'
      ? `Deal score ${deal}/100 with a good fit to the thesis (${fit.score}/100).`
      : verdict === 'consider'
        ? `Deal score ${deal}/100; fit with thesis ${fit.score}/100. Worth a first meeting to close the gaps below.`
        : fit.score < 30
          ? `Fit with the thesis is low (${fit.score}/100): ${fit.rationale}`
          : `Deal score ${deal}/100 is below the bar of 50.`;

  return {
    startup_name: name,
    deal_score: deal,
    verdict,
    verdict_reason: verdictReason,
    dimensions: dims,
    strengths,
    risks,
    red_flags: redFlags,
    questions: questions.slice(0, 8),
    facts: {
      raise_usd: f.raise?.value ?? null,
      stage: f.stage,
      arr_usd: rev?.usd ?? null,
      revenue_basis: rev?.basis ?? null,
      growth_yoy_pct: f.growth_yoy_pct ? Math.round(f.growth_yoy_pct.value) : null,
      growth_mom_pct: f.growth_mom_pct?.value ?? null,
      customers: f.customers?.value ?? null,
      users: f.users?.value ?? null,
      tam_usd: f.tam?.value ?? null,
      gross_margin_pct: f.gross_margin_pct?.value ?? null,
      net_retention_pct: f.net_retention_pct?.value ?? null,
      churn_pct: f.churn_pct?.value ?? null,
      team_size: f.team_size?.value ?? null,
      valuation_usd: f.valuation?.value ?? null,
    },
    market,
    thesis: input.thesis
      ? {
          fund_name: input.thesis.fund_name,
          sectors: input.thesis.sectors,
          stages: input.thesis.stages,
          countries: input.thesis.countries,
        }
      : null,
    deck: { kind: input.kind, pages: input.pages.length, words: text.split(/\s+/).filter(Boolean).length },
  };
}
