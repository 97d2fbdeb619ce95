/**
 * Text helpers of the finders: website → domain, words of a text, and the words of a host name.
 */

const STOP_WORDS = new Set(
  'a an and are as at be by for from has have in into is it its of on or our that the their this to we with without via your you us all any can more most than them they who what which will www com io ai app co net org hq inc ltd gmbh'.split(
    ' ',
  ),
);

/**
 * Normalises a website to its bare host: no scheme, no `www.`, no path, lower case.
 *
 * @example
 * normaliseDomain('https://www.Payflow.io/about?x=1') // 'payflow.io'
 */
export function normaliseDomain(website: string): string {
  let s = website.trim().toLowerCase();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  s = s.replace(/^\/\//, '');
  s = s.split(/[/?#]/)[0] ?? '';
  s = s.replace(/^[^@]*@/, '');
  s = s.replace(/:\d+$/, '');
  s = s.replace(/^www\d?\./, '');
  return s.replace(/\.$/, '');
}

/** Lower-case words of a text (letters and digits, hyphenated words kept whole and split). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}&'-]*/gu) ?? []) {
    const w = raw.replace(/['-]+$/, '');
    if (w.length === 0) continue;
    out.push(w);
    if (w.includes('-')) out.push(...w.split('-').filter((p) => p.length > 0));
  }
  return out;
}

/**
 * Words of a host name, for reading an unknown website: the labels before the public suffix,
 * split on hyphens and digits, plus known words found inside run-together labels.
 *
 * @example
 * hostWords('get-paycloud.com', ['pay', 'cloud']) // ['get', 'paycloud', 'pay', 'cloud']
 */
export function hostWords(domain: string, vocabulary: Iterable<string> = []): string[] {
  const labels = domain.split('.').filter((l) => l.length > 0);
  const kept = labels.length > 1 ? labels.slice(0, -1) : labels;
  const out: string[] = [];
  for (const label of kept) {
    for (const part of label.split(/[-_\d]+/)) {
      if (part.length < 2 || STOP_WORDS.has(part)) continue;
      out.push(part);
    }
  }
  const found: string[] = [];
  for (const v of vocabulary) {
    const term = v.toLowerCase();
    if (term.length < 3 || term.includes(' ')) continue;
    if (out.some((p) => p !== term && p.includes(term))) found.push(term);
  }
  return [...out, ...found];
}

/** Title case of a slug or word list ("payflow" → "Payflow", "green-grid" → "Green Grid"). */
export function titleCase(text: string): string {
  return text
    .split(/[-_\s]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}
