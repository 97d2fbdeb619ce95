/**
 * Reading the free-text filters of the search operations (country, region, investor type,
 * sector, stage) into database values. An unreadable value is a 400 naming the parameter and
 * the values it accepts, so a typo never silently returns an empty list.
 */
import { SECTORS } from '../../api/enums.js';
import { COUNTRIES, countriesOfRegion, resolveCountry } from '../data/countries.js';
import { INVESTOR_TYPES, STAGES } from '../data/schema.js';
import { stageIndex } from '../finders/stages.js';
import { SandboxError } from '../types.js';

function invalid(message: string): SandboxError {
  return new SandboxError(400, 'invalid_input', message);
}

function fold(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Canonical country name of a name or alias ('USA', 'uk'); 400 naming the value otherwise. */
export function countryFilter(param: string, value: string): string {
  const name = resolveCountry(value);
  if (!name) {
    const close = suggestCountries(value);
    const hint = close.length ? `; did you mean ${close.join(', ')}?` : '';
    throw invalid(`${param}: unknown country '${value}'${hint}`);
  }
  return name;
}

/**
 * Country names of a region: a continent region ('Europe'), a subregion ('DACH', 'Nordics')
 * or a find_investors region value ('eu', 'latam', 'north america'), case-insensitive.
 */
export function regionFilter(value: string): string[] {
  const key = fold(value);
  const named = COUNTRIES.filter((c) => c.region.toLowerCase() === key || c.subregion.toLowerCase() === key);
  if (named.length) return named.map((c) => c.name);
  const byValue = countriesOfRegion(key);
  if (byValue) return byValue;
  const known = [...new Set(COUNTRIES.flatMap((c) => [c.region, c.subregion]))].sort();
  throw invalid(`region: unknown region '${value}'; use one of: ${known.join(', ')}`);
}

const TYPE_ALIASES: Record<string, (typeof INVESTOR_TYPES)[number]> = {
  'venture capital': 'VC',
  'venture capital firm': 'VC',
  vcs: 'VC',
  cvc: 'Corporate VC',
  'corporate venture capital': 'Corporate VC',
  'business angel': 'Angel',
  'angel investor': 'Angel',
  incubator: 'Accelerator',
};

/**
 * Investor types a free-text value names: an exact type ('vc' → VC), an alias ('cvc'), a
 * plural ('angels') or a part of a type's name ('corporate' → Corporate VC). The spec makes
 * investor_type free text, so a value that names no type ('Family Office') names none: the
 * search answers with no investor rather than refusing the call.
 */
export function investorTypeFilter(value: string): string[] {
  const key = fold(value);
  const singular = key.replace(/s$/, '');
  const exact = INVESTOR_TYPES.filter((t) => t.toLowerCase() === key || t.toLowerCase() === singular);
  if (exact.length) return exact;
  const alias = TYPE_ALIASES[key] ?? TYPE_ALIASES[singular];
  if (alias) return [alias];
  const partial = INVESTOR_TYPES.filter((t) => t.toLowerCase().includes(singular));
  return partial;
}

/**
 * Sectors a value names: one of the 8 (case-insensitive) or the sectors whose name contains it
 * ('finance' → Finance & Blockchain). Empty when it names none.
 */
export function matchSectors(value: string): string[] {
  const key = fold(value);
  const exact = SECTORS.filter((s) => s.toLowerCase() === key);
  if (exact.length) return exact;
  if (key === 'ai') return ['Artificial Intelligence & Data'];
  return SECTORS.filter((s) => s.toLowerCase().includes(key));
}

/** matchSectors, or a 400 listing the 8 sectors. */
export function sectorFilter(value: string): string[] {
  const sectors = matchSectors(value);
  if (!sectors.length) throw invalid(`sector: unknown sector '${value}'; use one of: ${SECTORS.join('; ')}`);
  return sectors;
}

/**
 * Database stages of free-text stage values: slugs ('series-a'), words ('Series A', 'pre seed')
 * and the raising bucket 'series-c-plus' (series-c, series-d-plus and growth).
 */
export function stagesFilter(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const value of values) {
    const slug = fold(value)
      .replace(/[\s_]+/g, '-')
      .replace(/^preseed$/, 'pre-seed');
    if ((STAGES as readonly string[]).includes(slug)) out.add(slug);
    else if (slug === 'series-c-plus' || slug === 'series-c+' || slug === 'late' || slug === 'late-stage') {
      for (const s of ['series-c', 'series-d-plus', 'growth']) out.add(s);
    } else if (slug === 'series-d' || slug === 'series-d+' || slug === 'series-e') out.add('series-d-plus');
    else throw invalid(`stages: unknown stage '${value}'; use one of: ${STAGES.join(', ')}, series-c-plus`);
  }
  return [...out];
}

/** Rows sorted along the funding ladder (pre-seed first; unknown stages last, by name). */
export function byStageLadder<T extends { stage: string }>(rows: readonly T[]): T[] {
  const rank = (stage: string) => {
    const i = stageIndex(stage);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...rows].sort((a, b) => rank(a.stage) - rank(b.stage) || a.stage.localeCompare(b.stage));
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length] ?? 0;
}

/** Up to three country names close to an unknown name (prefix, substring or a few typos). */
export function suggestCountries(value: string): string[] {
  const key = fold(value);
  if (!key) return [];
  const scored = COUNTRIES.map((c) => {
    const names = [c.name.toLowerCase(), ...c.aliases];
    const best = Math.min(
      ...names.map((n) =>
        n.startsWith(key) || (key.length >= 3 && n.includes(key)) ? 0 : editDistance(key, n),
      ),
    );
    return { name: c.name, best };
  });
  const limit = Math.max(1, Math.floor(key.length / 3));
  return scored
    .filter((s) => s.best <= limit)
    .sort((a, b) => a.best - b.best || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((s) => s.name);
}
