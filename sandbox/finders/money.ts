/**
 * Money and number formatting for reasons and summaries ("$2.5M", "$2–4M", "$850K").
 */

/** Formats a USD amount compactly: $850K, $2.5M, $1.2B. */
export function usd(amount: number): string {
  const a = Math.abs(amount);
  if (a >= 1e9) return `$${trim(amount / 1e9)}B`;
  if (a >= 1e6) return `$${trim(amount / 1e6)}M`;
  if (a >= 1e3) return `$${Math.round(amount / 1e3)}K`;
  return `$${Math.round(amount)}`;
}

/** Formats a range of USD amounts, sharing the unit when both ends have it: $2–4M, $500K–2M. */
export function usdRange(low: number, high: number): string {
  if (Math.abs(high - low) < Math.max(1, high) * 0.05) return usd(low);
  const lo = usd(low);
  const hi = usd(high);
  const unit = (s: string) => s.slice(-1);
  if (unit(lo) === unit(hi) && /[KMB]/.test(unit(lo))) return `${lo.slice(0, -1)}–${hi.slice(1)}`;
  return `${lo}–${hi.slice(1)}`;
}

function trim(n: number): string {
  const r = n >= 100 ? Math.round(n) : Math.round(n * 10) / 10;
  return String(r);
}

/** Median of numbers (0 for an empty list). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** The q-quantile (0..1) of numbers by nearest rank (0 for an empty list). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const idx = Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))));
  return s[idx] ?? 0;
}

/** Rounds to one decimal and clamps to 0..100 (fit percentages). */
export function pct(value: number): number {
  const v = Math.max(0, Math.min(100, value));
  return Math.round(v * 10) / 10;
}

/** Closeness (0..1) of two positive amounts on a log scale: 1 when equal, 0 at `span`× apart. */
export function logCloseness(a: number, b: number, span = 4): number {
  if (a <= 0 || b <= 0) return 0;
  const d = Math.abs(Math.log(a / b)) / Math.log(span);
  return Math.max(0, 1 - d);
}
