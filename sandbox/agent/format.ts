/**
 * How the agent writes numbers and scopes in its answers.
 */
import type { Slots } from './slots.js';

/** 1234567 -> "1,234,567". */
export const int = (n: unknown): string => Math.round(Number(n ?? 0)).toLocaleString('en-US');

/** A USD amount: $950K, $1.2M, $3.4B. */
export function usd(n: unknown): string {
  const v = Number(n ?? 0);
  const abs = Math.abs(v);
  const fmt = (x: number, unit: string) => `$${Number(x.toFixed(x >= 100 ? 0 : 1)).toString()}${unit}`;
  if (abs >= 1e9) return fmt(v / 1e9, 'B');
  if (abs >= 1e6) return fmt(v / 1e6, 'M');
  if (abs >= 1e3) return fmt(v / 1e3, 'K');
  return `$${Math.round(v)}`;
}

/** A percentage with one decimal: "12.5%". */
export const pct = (n: number): string => `${Number(n.toFixed(1)).toString()}%`;

/** The market words of the slots: "Fintech"-style subsector, sector name, or ''. */
export function marketLabel(s: Slots): string {
  return s.subsector ?? s.sector ?? '';
}

/**
 * The scope of a question in words, e.g. "seed rounds in Finance & Blockchain in Germany in 2023".
 *
 * @param noun what is counted ("rounds", "startups", "deals")
 * @param opts which slots to mention
 */
export function scopeText(
  s: Slots,
  noun: string,
  opts: { stage?: boolean; market?: boolean; geo?: boolean; period?: boolean; amount?: boolean } = {},
): string {
  const o = { stage: true, market: true, geo: true, period: true, amount: true, ...opts };
  let text = noun;
  if (o.stage && s.stageLabel) text = `${s.stageLabel} ${text}`;
  if (o.amount && s.minAmount !== null) text += ` of at least ${usd(s.minAmount)}`;
  if (o.amount && s.maxAmount !== null) text += ` of at most ${usd(s.maxAmount)}`;
  if (o.market && (s.subsector || s.sector)) text += ` in ${marketLabel(s)}`;
  if (o.geo && s.geo)
    text += ` in ${s.geo.label === 'United States' || s.geo.label === 'United Kingdom' || s.geo.label === 'Netherlands' || s.geo.label === 'United Arab Emirates' || s.geo.label === 'Czech Republic' || s.geo.label === 'Philippines' ? `the ${s.geo.label}` : s.geo.label}`;
  if (o.period && s.period) text += ` ${s.period.label}`;
  return text;
}

/** "1 round" / "3 rounds". */
export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${int(n)} ${Number(n) === 1 ? one : many}`;
