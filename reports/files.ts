/**
 * Safe file names from job and country names that may contain anything.
 */

/**
 * A file name (without extension) that is ASCII letters, digits, `-`, `_` and `.`, has no path
 * separator, does not start with a dot, is at most `maxLength` characters and never empty.
 *
 * @example safeFileName('Weekly: DACH / Nordics') // 'Weekly-DACH-Nordics'
 * @example safeFileName('../../etc/passwd') // 'etc-passwd'
 */
export function safeFileName(name: string, maxLength = 80): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+/, '')
    .replace(/[-.]+$/, '');
  const cut = ascii.slice(0, Math.max(1, maxLength)).replace(/[-.]+$/, '');
  if (cut === '') return 'report';
  // Names Windows reserves for devices.
  return /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(cut) ? `report-${cut}` : cut;
}
