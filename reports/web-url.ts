/**
 * What a URL cell of a CSV file or a workbook may hold: an absolute http(s) URL and nothing
 * else. A CRM or spreadsheet that turns a "Website URL" column into links would make a
 * `javascript:`, `data:` or `file:` value live, so such values are left out (the cell stays
 * empty) and counted, and the count goes to the run's manifest. A bare host name (`acme.io`, as
 * a domain column gives it) is a website without its scheme: it is written as `https://acme.io`.
 */

/** A host name of two or more labels (letters of any script, digits, dashes), nothing else. */
const BARE_HOST =
  /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)+$/u;

/** Characters that never belong in a URL cell: controls, spaces inside, quotes and angle brackets. */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const FORBIDDEN = /[\u0000-\u0020\u007f"<>\\^`{|}]/;

/**
 * The value as an http(s) URL for a URL cell, or null when it is not one.
 *
 * - `https://acme.io/about` and `http://acme.io` are kept as written (trimmed);
 * - a bare host name gets `https://` (`acme.io` -> `https://acme.io`);
 * - anything else is null: other schemes (`javascript:`, `data:`, `file:`, `mailto:`), relative
 *   paths, URLs without a host, credentials in the URL, text with spaces or controls.
 *
 * @example
 * webUrl(' https://acme.io ')      // 'https://acme.io'
 * webUrl('acme.io')                // 'https://acme.io'
 * webUrl('javascript:alert(1)')    // null
 */
export function webUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '' || text.length > 2048 || FORBIDDEN.test(text)) return null;
  if (BARE_HOST.test(text)) return `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname === '' || url.username !== '' || url.password !== '') return null;
  // Only a value that spells its own scheme: `https:acme.io` parses, but is not written so.
  if (!/^https?:\/\//i.test(text)) return null;
  return text;
}

/**
 * Counts the URL cells of one output whose value was left out (not an http(s) URL).
 *
 * @example
 * const urls = new UrlTally();
 * row.website = urls.cell(row.website); // null, and counted, for 'javascript:alert(1)'
 * manifest.urlsLeftOut = urls.leftOut;
 */
export class UrlTally {
  /** URL cells left empty because their value was not an http(s) URL. */
  leftOut = 0;

  /** The value for a URL cell: {@link webUrl}'s answer; a non-empty value it refuses is counted. */
  cell(value: unknown): string | null {
    const url = webUrl(value);
    if (
      url === null &&
      value !== null &&
      value !== undefined &&
      !(typeof value === 'string' && value.trim() === '')
    )
      this.leftOut += 1;
    return url;
  }
}
