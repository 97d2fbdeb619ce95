/**
 * Funding momentum of a startup from its rounds, relative to the data's reference date: rounds
 * and capital in the last 12 months, growth against the 12 months before, recency.
 */
import type { StartupRecord } from './snapshot.js';

/** A startup's momentum (find_customers' `momentum`, also used by find_startups_for_fund). */
export interface Momentum {
  /** 0..100. */
  score: number;
  rounds_last_12m: number;
  capital_last_12m_usd: number;
  growth: {
    /** Capital of the last 12 months against the 12 months before, in percent; null when nothing was raised before. */
    raised_vs_prior_year_pct: number | null;
    capital_prior_12m_usd: number;
    total_raised_usd: number;
  };
  last_round_date: string | null;
  last_round_stage: string | null;
  last_round_amount_usd: number | null;
  /** Whole months from the last round to the reference date (null without rounds). */
  months_since_last_round: number | null;
}

const DAY = 86_400_000;

/** The date `days` days before a YYYY-MM-DD date. */
export function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY).toISOString().slice(0, 10);
}

/** Whole months between two YYYY-MM-DD dates (b after a). */
export function monthsBetween(a: string, b: string): number {
  return Math.max(
    0,
    Math.floor((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / (30.44 * DAY)),
  );
}

/**
 * Computes momentum: 35% recency of the last round (full within 3 months, none after 24),
 * 30% capital of the last 12 months (log scale, full at $50M), 15% rounds in the last 12
 * months (full at 2), 20% growth against the prior 12 months (full at +200%; a first raise
 * counts 60%).
 */
export function momentumOf(s: StartupRecord, refDate: string): Momentum {
  const start12 = daysBefore(refDate, 365);
  const start24 = daysBefore(refDate, 730);
  let rounds12 = 0;
  let capital12 = 0;
  let capitalPrior = 0;
  let last: StartupRecord['rounds'][number] | undefined;
  for (const r of s.rounds) {
    if (r.date > refDate) continue;
    if (!last || r.date >= last.date) last = r;
    if (r.date > start12) {
      rounds12++;
      capital12 += r.amount_usd;
    } else if (r.date > start24) {
      capitalPrior += r.amount_usd;
    }
  }
  const months = last ? monthsBetween(last.date, refDate) : null;
  const recency = months === null ? 0 : Math.max(0, Math.min(1, 1 - (months - 3) / 21));
  const volume = Math.min(1, Math.log10(1 + capital12 / 1e6) / Math.log10(51));
  const roundsF = Math.min(1, rounds12 / 2);
  const growthPct =
    capitalPrior > 0 ? Math.round(((capital12 - capitalPrior) / capitalPrior) * 1000) / 10 : null;
  const growth = growthPct === null ? (capital12 > 0 ? 0.6 : 0) : Math.max(0, Math.min(1, growthPct / 200));
  const score = Math.round(100 * (0.35 * recency + 0.3 * volume + 0.15 * roundsF + 0.2 * growth));
  return {
    score: Math.max(0, Math.min(100, score)),
    rounds_last_12m: rounds12,
    capital_last_12m_usd: capital12,
    growth: {
      raised_vs_prior_year_pct: growthPct,
      capital_prior_12m_usd: capitalPrior,
      total_raised_usd: s.total_raised_usd,
    },
    last_round_date: last?.date ?? null,
    last_round_stage: last?.stage ?? null,
    last_round_amount_usd: last?.amount_usd ?? null,
    months_since_last_round: months,
  };
}
