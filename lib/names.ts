/**
 * The one place where text from jobs, countries and the service becomes part of an id, a
 * store path or a file name. Pure (no Node built-ins): workflow code uses it too.
 */

/**
 * A lowercase id segment: letters and digits, runs of anything else as one `-`, never empty.
 * Workflow ids of child workflows are built with it, so its output must never change for the
 * same input (a change would make the runs in flight nondeterministic).
 *
 * @example slugId('United States') // 'united-states'
 */
export function slugId(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'x'
  );
}

/**
 * A file name (without extension) or one segment of a path: ASCII letters, digits, `-`, `_`
 * and `.`, accents folded, no path separator, no leading dot, at most `maxLength` characters,
 * never empty, never a name Windows reserves for a device.
 *
 * @example safeFileName('Weekly: DACH / Nordics') // 'Weekly-DACH-Nordics'
 * @example safeFileName('../../etc/passwd') // 'etc-passwd'
 */
export function safeFileName(text: string, maxLength = 80, fallback = 'report'): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+/, '')
    .replace(/[-.]+$/, '');
  const cut = ascii.slice(0, Math.max(1, maxLength)).replace(/[-.]+$/, '');
  if (cut === '') return fallback;
  return /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(cut) ? `${fallback}-${cut}` : cut;
}

/**
 * A time as the compact stamp used in ids: `20261122-005428` (UTC, to the second).
 *
 * @example timeStamp(new Date('2026-11-22T00:54:28.123Z')) // '20261122-005428'
 */
export function timeStamp(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * The stamp that ends a manual run's workflow id: the time to the millisecond (UTC) and a short
 * random part, `20261122-005428-123-3fa9c2`. Fixed width, so ids of one job sort by start time;
 * letters, digits and `-` only, so it is safe in file names, store paths and S3 keys. `random`
 * (lowercase hex, e.g. 6 digits from 3 random bytes) tells apart starts of the same millisecond.
 *
 * @example runStamp(new Date('2026-11-22T00:54:28.123Z'), '3fa9c2') // '20261122-005428-123-3fa9c2'
 */
export function runStamp(date: Date, random: string): string {
  if (!/^[0-9a-f]{4,16}$/.test(random)) {
    throw new Error(`runStamp: random part "${random}" must be 4 to 16 lowercase hex digits`);
  }
  const ms = String(date.getUTCMilliseconds()).padStart(3, '0');
  return `${timeStamp(date)}-${ms}-${random}`;
}
