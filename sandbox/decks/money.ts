/**
 * Money amounts as decks write them: "$1.2M", "€2.5 million", "USD 800k", "£3bn", "$1,200,000".
 * Euro and pound amounts are converted to US dollars at fixed sandbox rates.
 */

/** Fixed conversion rates to USD used by the sandbox's deck reader. */
export const USD_RATES: Record<string, number> = { USD: 1, EUR: 1.08, GBP: 1.27 };

/** A money amount found in text. */
export interface MoneyMatch {
  /** The text as written, e.g. "$1.2M". */
  text: string;
  usd: number;
  /** Position in the searched string. */
  index: number;
}

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  usd: 'USD',
  eur: 'EUR',
  gbp: 'GBP',
};
const SCALES: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  mio: 1e6,
  million: 1e6,
  millions: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  billions: 1e9,
};

const MONEY_RE =
  /(\$|€|£|\b(?:usd|eur|gbp)\s?)\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(thousand|millions?|billions?|mio|mm|mn|bn|k|m|b)?\b/gi;

/**
 * Every money amount in a string, in order.
 *
 * @example
 * findMoney('ARR of $1.2M, raising €3 million')
 * // [{ text: '$1.2M', usd: 1200000, index: 7 }, { text: '€3 million', usd: 3240000, index: 23 }]
 */
export function findMoney(text: string): MoneyMatch[] {
  const out: MoneyMatch[] = [];
  for (const m of text.matchAll(MONEY_RE)) {
    const currency = SYMBOLS[(m[1] ?? '').trim().toLowerCase()] ?? 'USD';
    const value = Number((m[2] ?? '').replace(/,/g, ''));
    const scale = SCALES[(m[3] ?? '').toLowerCase()] ?? 1;
    if (!Number.isFinite(value)) continue;
    out.push({
      text: m[0].trim(),
      usd: Math.round(value * scale * (USD_RATES[currency] ?? 1)),
      index: m.index,
    });
  }
  return out;
}

/**
 * A USD amount written the way the service's summaries write it: $950K, $1.2M, $3.4B.
 */
export function formatUsd(usd: number): string {
  const abs = Math.abs(usd);
  const fmt = (v: number, unit: string) => `$${Number(v.toFixed(v >= 100 ? 0 : 1)).toString()}${unit}`;
  if (abs >= 1e9) return fmt(usd / 1e9, 'B');
  if (abs >= 1e6) return fmt(usd / 1e6, 'M');
  if (abs >= 1e3) return fmt(usd / 1e3, 'K');
  return `$${Math.round(usd)}`;
}
