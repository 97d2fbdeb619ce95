/**
 * Number and date formats shared by the PDF, the workbook and the charts, so that a figure reads
 * the same everywhere: `$4.2M`, `1,234`, `+12.5%`.
 */

const DASH = '—';

function finite(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/**
 * A dollar amount with a K/M/B suffix and at most one decimal (two below ten units).
 *
 * @example formatUsd(1_250_000) // '$1.3M'; formatUsd(980) // '$980'; formatUsd(null) // '—'
 */
export function formatUsd(n: number | null | undefined): string {
  if (!finite(n)) return DASH;
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  const steps: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [base, suffix] of steps) {
    if (a >= base * 0.9995) {
      const v = a / base;
      const digits = v < 10 ? 2 : v < 100 ? 1 : 0;
      return `${sign}$${trimZeros(v.toFixed(digits))}${suffix}`;
    }
  }
  return `${sign}$${Math.round(a).toLocaleString('en-US')}`;
}

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** An integer with thousands separators; `—` when missing. */
export function formatInt(n: number | null | undefined): string {
  if (!finite(n)) return DASH;
  return Math.round(n).toLocaleString('en-US');
}

/** A number with up to `digits` decimals and thousands separators; `—` when missing. */
export function formatNumber(n: number | null | undefined, digits = 1): string {
  if (!finite(n)) return DASH;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/**
 * A percentage given in percent units (12.5 means 12.5%). `signed` adds a leading + to gains.
 *
 * @example formatPct(12.46, true) // '+12.5%'
 */
export function formatPct(n: number | null | undefined, signed = false): string {
  if (!finite(n)) return DASH;
  const s = `${trimZeros(n.toFixed(Math.abs(n) >= 100 ? 0 : 1))}%`;
  return signed && n > 0 ? `+${s}` : s;
}

/** Relative change in percent from `before` to `after`; null when it is undefined (no base). */
export function pctChange(
  after: number | null | undefined,
  before: number | null | undefined,
): number | null {
  if (!finite(after) || !finite(before) || before === 0) return null;
  return ((after - before) / Math.abs(before)) * 100;
}

/** An ISO date or timestamp as `12 Mar 2025` (UTC); the input unchanged when it is not a date. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  // Three-letter months always: en-GB's ICU writes September as "Sept", the one month that differs.
  return d
    .toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
    .replace('Sept', 'Sep');
}

/** An ISO timestamp as `12 Mar 2025 14:05 UTC`. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = d.toISOString().slice(11, 16);
  return `${formatDate(iso)} ${time} UTC`;
}

/** A duration in milliseconds as `1h 02m`, `3m 05s` or `12.3s`. */
export function formatDuration(ms: number | null | undefined): string {
  if (!finite(ms) || ms < 0) return DASH;
  const s = ms / 1000;
  if (s < 60) return `${trimZeros(s.toFixed(1))}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** Text on one line: runs of white space (new lines, tabs) as one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A cut text's first `kept` characters, ended at a word boundary unless that would give up much
 * of them (`in the thesis…`, not `in the thesis st…`), without trailing punctuation, and an
 * ellipsis. `chars` is the whole text (its code points), `kept` at least 1.
 */
export function cutAtWord(chars: readonly string[], kept: number): string {
  const text = chars.slice(0, kept).join('');
  const space = text.trimEnd().lastIndexOf(' ');
  const atWord =
    chars[kept] === ' ' || chars[kept] === undefined
      ? text
      : space >= kept * 0.6
        ? text.slice(0, space)
        : text;
  return atWord.replace(/[\s,;:·–—-]+$/u, '') + '…';
}

/**
 * `text` in at most `maxChars` characters (code points): unchanged when it fits, else cut at a
 * word boundary with an ellipsis (as {@link cutAtWord}).
 *
 * @example truncateToLength('Nothing changed since the last run', 20) // 'Nothing changed…'
 */
export function truncateToLength(text: string, maxChars: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return text;
  return maxChars <= 1 ? '…' : cutAtWord(chars, maxChars - 1);
}

/** The most characters a run's headline (the sentence a message opens with) takes. */
export const HEADLINE_MAX_CHARS = 300;

/** A headline: on one line, cut at a word boundary to {@link HEADLINE_MAX_CHARS}. */
export function headlineText(text: string, maxChars = HEADLINE_MAX_CHARS): string {
  return truncateToLength(oneLine(text), maxChars);
}
