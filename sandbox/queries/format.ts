/**
 * Number formatting for the read operations' summaries and views: counts with thousands
 * separators and signed percentages. Money uses the finders' compact USD format ($12.3B).
 */
export { median, usd, usdRange } from '../finders/money.js';

const COUNT = new Intl.NumberFormat('en-US');

/** 1234 → "1,234". */
export function count(n: number): string {
  return COUNT.format(n);
}

/** Signed percentage: 18.2 → "+18.2%", -3 → "-3%". */
export function signedPct(n: number): string {
  return `${n > 0 ? '+' : ''}${n}%`;
}

/** Percentage of a part in a whole, one decimal (0 when the whole is 0). */
export function share(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

/** Change from `before` to `after` in percent, one decimal; null when `before` is 0. */
export function change(after: number, before: number): number | null {
  return before > 0 ? Math.round(((after - before) / before) * 1000) / 10 : null;
}

/** "1 investor" / "2 investors". */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${count(n)} ${n === 1 ? noun : nouns}`;
}

/** Words for the filters of a search: "in Germany, VC, sector Finance & Blockchain". */
export function describeFilters(filters: Record<string, unknown>): string {
  const words: string[] = [];
  for (const [name, value] of Object.entries(filters)) {
    const text = Array.isArray(value) ? value.join(' or ') : String(value);
    words.push(
      name === 'query'
        ? `matching '${text}'`
        : name === 'country' || name === 'countries'
          ? `in ${text}`
          : `${name.replace(/_/g, ' ')} ${text}`,
    );
  }
  return words.length ? ` (${words.join(', ')})` : '';
}

/** Words for the page of a list: "1-25 of 312" or "none of 0". */
export function describePage(offset: number, shown: number, total: number): string {
  return shown
    ? `${count(offset + 1)}-${count(offset + shown)} of ${count(total)}`
    : `none of ${count(total)} at offset ${count(offset)}`;
}
