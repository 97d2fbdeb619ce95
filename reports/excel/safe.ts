/**
 * Cell safety: text from the service never reads as a formula, names follow Excel's rules.
 *
 * Formula injection (OWASP "CSV injection"): a text cell that starts with `=`, `+`, `-`, `@`,
 * a tab, a carriage return or a line feed may be run as a formula by a spreadsheet. Such text
 * gets a leading single quote and stays a string; numbers stay numbers.
 */

const DANGEROUS_START = /^[=+\-@\t\r\n]/;

/**
 * Neutralises text that a spreadsheet could read as a formula by prefixing a single quote.
 * Safe text is returned unchanged.
 *
 * @example safeText('=HYPERLINK("http://x","y")') // `'=HYPERLINK("http://x","y")`
 * @example safeText('Acme') // 'Acme'
 */
export function safeText(text: string): string {
  return DANGEROUS_START.test(text) ? `'${text}` : text;
}

/** True when `text` would need `safeText`. */
export function isFormulaLike(text: string): boolean {
  return DANGEROUS_START.test(text);
}

/** A cell value from service data: numbers, booleans and dates as they are, everything else as safe text. */
export function safeValue(v: unknown): string | number | boolean | Date | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'string') return safeText(v);
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v))
    return safeText(
      v
        .map((x) => (typeof x === 'string' || typeof x === 'number' ? String(x) : JSON.stringify(x)))
        .join(', '),
    );
  return safeText(JSON.stringify(v));
}

/** The url when it is an absolute http(s) url, else null (no javascript:, file:, mailto: links). */
export function safeUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.trim() === '') return null;
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Excel's sheet-name rules: at most 31 characters, none of []:*?/\, no leading or trailing quote, not empty. */
export function sanitizeSheetName(name: string, used?: Set<string>): string {
  let base = name
    .replace(/[[\]:*?/\\]/g, ' ')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'+|'+$/g, '')
    .trim();
  if (base === '' || base.toLowerCase() === 'history') base = 'Sheet';
  base = Array.from(base).slice(0, 31).join('').trim();
  if (!used) return base;
  let candidate = base;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    candidate =
      Array.from(base)
        .slice(0, 31 - suffix.length)
        .join('')
        .trim() + suffix;
  }
  used.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Excel's table-name rules: letters, digits, `_` and `.`, starting with a letter or `_`, not
 * a cell reference (A1, R1C1), at most 255 characters; unique in `used` (case-insensitive).
 */
export function sanitizeTableName(name: string, used?: Set<string>): string {
  let base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!/^[A-Za-z_]/.test(base)) base = `T_${base}`;
  if (/^([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*|[RrCc])$/.test(base)) base = `T_${base}`;
  base = base.slice(0, 200) || 'Table';
  if (!used) return base;
  let candidate = base;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${base}_${n}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

/** Table headers: single-line, non-empty, unique within the table, formula-safe. */
export function sanitizeHeaders(headers: string[]): string[] {
  const seen = new Set<string>();
  return headers.map((h, i) => {
    let base =
      safeText(
        h
          .replace(/[\t\r\n]+/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      ) || `Column ${i + 1}`;
    base = base.slice(0, 250);
    let candidate = base;
    for (let n = 2; seen.has(candidate.toLowerCase()); n++) candidate = `${base} ${n}`;
    seen.add(candidate.toLowerCase());
    return candidate;
  });
}
