/**
 * The shape of the venture market the generator reproduces: yearly capital and deal indexes,
 * round sizes per stage, stage progression and investors' check sizes.
 */
import type { STAGES } from './schema.js';

export type Stage = (typeof STAGES)[number];

/**
 * Capital invested per year relative to 2020 (global venture market shape): 2021 the peak,
 * 2022 down about a third, 2023 down again, 2024 flat to slightly up, 2025 up on AI.
 */
export const YEAR_CAPITAL_INDEX: Record<number, number> = {
  2020: 1.0,
  2021: 1.8,
  2022: 1.2,
  2023: 0.82,
  2024: 0.86,
  2025: 1.06,
  2026: 1.14,
};

/** Deal count per year relative to 2020. */
export const YEAR_DEAL_INDEX: Record<number, number> = {
  2020: 1.0,
  2021: 1.4,
  2022: 1.25,
  2023: 0.97,
  2024: 0.92,
  2025: 0.95,
  2026: 0.98,
};

const lastKnown = (table: Record<number, number>, year: number): number => {
  const years = Object.keys(table).map(Number);
  const max = Math.max(...years);
  if (year <= max) return table[year] ?? table[Math.min(...years)] ?? 1;
  return (table[max] ?? 1) * 1.04 ** (year - max);
};

/** Capital index of a year (years after the table grow 4 % a year). */
export function yearCapitalIndex(year: number): number {
  return lastKnown(YEAR_CAPITAL_INDEX, year);
}

/** Deal index of a year (years after the table grow 4 % a year). */
export function yearDealIndex(year: number): number {
  return lastKnown(YEAR_DEAL_INDEX, year);
}

/** Round size per stage: median and bounds in USD, and the spread (log sigma). */
export const ROUND_SIZE: Record<Stage, { median: number; min: number; max: number; sigma: number }> = {
  'pre-seed': { median: 500_000, min: 100_000, max: 2_500_000, sigma: 0.55 },
  seed: { median: 2_200_000, min: 400_000, max: 9_000_000, sigma: 0.55 },
  'series-a': { median: 11_000_000, min: 3_000_000, max: 45_000_000, sigma: 0.5 },
  'series-b': { median: 30_000_000, min: 10_000_000, max: 120_000_000, sigma: 0.5 },
  'series-c': { median: 55_000_000, min: 20_000_000, max: 250_000_000, sigma: 0.5 },
  'series-d-plus': { median: 100_000_000, min: 35_000_000, max: 900_000_000, sigma: 0.6 },
  growth: { median: 180_000_000, min: 50_000_000, max: 2_500_000_000, sigma: 0.7 },
};

/** Share of startups whose first round in the window is at each stage. */
export const FIRST_STAGE_WEIGHTS: Record<Stage, number> = {
  'pre-seed': 0.32,
  seed: 0.37,
  'series-a': 0.14,
  'series-b': 0.075,
  'series-c': 0.045,
  'series-d-plus': 0.03,
  growth: 0.02,
};

/**
 * Weight of a year for the first round of a startup's chain. Follow-on rounds come one to two
 * years later, so this curve leads the deal index: it peaks in 2021 and falls faster.
 */
export const FIRST_ROUND_YEAR_WEIGHT: Record<number, number> = {
  2017: 1.0,
  2018: 1.0,
  2019: 1.0,
  2020: 1.05,
  2021: 1.6,
  2022: 1.05,
  2023: 0.78,
  2024: 0.84,
  2025: 0.92,
  2026: 0.97,
};

/** Per stage: chance of a further round, chance it repeats the stage, gap in days to it. */
export const PROGRESSION: Record<Stage, { next: number; repeat: number; gapMin: number; gapMax: number }> = {
  'pre-seed': { next: 0.8, repeat: 0.1, gapMin: 200, gapMax: 520 },
  seed: { next: 0.72, repeat: 0.14, gapMin: 280, gapMax: 680 },
  'series-a': { next: 0.68, repeat: 0.1, gapMin: 360, gapMax: 800 },
  'series-b': { next: 0.63, repeat: 0.1, gapMin: 380, gapMax: 820 },
  'series-c': { next: 0.58, repeat: 0.1, gapMin: 360, gapMax: 820 },
  'series-d-plus': { next: 0.52, repeat: 0.45, gapMin: 330, gapMax: 780 },
  growth: { next: 0.42, repeat: 1, gapMin: 300, gapMax: 780 },
};

/** Years between founding and a first round at each stage: [min, max]. */
export const FOUNDING_LAG: Record<Stage, [number, number]> = {
  'pre-seed': [0, 1],
  seed: [0, 2],
  'series-a': [1, 4],
  'series-b': [2, 6],
  'series-c': [3, 8],
  'series-d-plus': [4, 11],
  growth: [5, 14],
};

/** Round size climate per year (valuations): a multiplier on the stage medians. */
export const YEAR_SIZE_CLIMATE: Record<number, number> = {
  2020: 1.0,
  2021: 1.3,
  2022: 1.08,
  2023: 0.88,
  2024: 0.92,
  2025: 1.02,
  2026: 1.06,
};

/** Typical single-investor check per stage: [min, max] USD. */
export const CHECK_RANGE: Record<Stage, [number, number]> = {
  'pre-seed': [25_000, 750_000],
  seed: [150_000, 4_000_000],
  'series-a': [1_500_000, 20_000_000],
  'series-b': [5_000_000, 50_000_000],
  'series-c': [10_000_000, 100_000_000],
  'series-d-plus': [20_000_000, 250_000_000],
  growth: [30_000_000, 500_000_000],
};

/** Rounds an amount to a realistic precision ($10k under $1M, $100k under $10M, else $1M). */
export function roundAmount(usd: number): number {
  const step = usd < 1_000_000 ? 10_000 : usd < 10_000_000 ? 100_000 : 1_000_000;
  return Math.max(step, Math.round(usd / step) * step);
}
