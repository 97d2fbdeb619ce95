/**
 * Geography of the finders: region and country names → canonical countries, and how near two
 * countries are (same country, same subregion, same region).
 */
import { COUNTRIES, countriesOfRegion, getCountry, resolveCountry } from '../data/countries.js';

/** Places read from a list of region or country names. */
export interface Places {
  /** Canonical country names. */
  countries: Set<string>;
  /** The names as understood ("dach" → 5 countries, "Germany"). */
  labels: string[];
  /** Names that are neither a region nor a country. */
  unknown: string[];
  /** True when a name meant every country ('global'). */
  global: boolean;
}

const SUBREGIONS = new Map<string, string[]>();
const CONTINENTS = new Map<string, string[]>();
for (const c of COUNTRIES) {
  const sub = c.subregion.toLowerCase();
  SUBREGIONS.set(sub, [...(SUBREGIONS.get(sub) ?? []), c.name]);
  const reg = c.region.toLowerCase();
  CONTINENTS.set(reg, [...(CONTINENTS.get(reg) ?? []), c.name]);
}

/**
 * Expands region names (the investor_region values, e.g. 'dach', 'north america', plus the
 * data's region and subregion names such as 'Western Europe') and country names or aliases
 * into canonical countries.
 *
 * @example
 * expandPlaces(['dach', 'France']).countries // Set { 'Germany', 'Austria', 'Switzerland', ..., 'France' }
 */
export function expandPlaces(names: readonly string[]): Places {
  const countries = new Set<string>();
  const labels: string[] = [];
  const unknown: string[] = [];
  let global = false;
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    const key = name.toLowerCase();
    if (key === 'global' || key === 'worldwide' || key === 'world') {
      global = true;
      for (const c of COUNTRIES) countries.add(c.name);
      labels.push('global');
      continue;
    }
    const region = countriesOfRegion(key) ?? SUBREGIONS.get(key) ?? CONTINENTS.get(key) ?? null;
    if (region) {
      for (const c of region) countries.add(c);
      labels.push(name);
      continue;
    }
    const country = resolveCountry(name);
    if (country) {
      countries.add(country);
      labels.push(country);
      continue;
    }
    unknown.push(name);
  }
  return { countries, labels, unknown, global };
}

/**
 * How near an investor's HQ country is to a startup's country: 1 same country, 0.7 same
 * subregion (e.g. DACH), 0.45 same region (e.g. Europe), 0.1 elsewhere.
 */
export function proximity(
  a: string,
  b: string,
): { score: number; relation: 'same country' | 'same subregion' | 'same region' | 'far' } {
  if (a === b) return { score: 1, relation: 'same country' };
  const ca = getCountry(a);
  const cb = getCountry(b);
  if (ca && cb && ca.subregion === cb.subregion) return { score: 0.7, relation: 'same subregion' };
  if (ca && cb && ca.region === cb.region) return { score: 0.45, relation: 'same region' };
  return { score: 0.1, relation: 'far' };
}

/** The subregion and region of a country ('' when unknown). */
export function areaOf(country: string): { subregion: string; region: string } {
  const c = getCountry(country);
  return { subregion: c?.subregion ?? '', region: c?.region ?? '' };
}

/** Cities of the data → their country, for reading a location from a description. */
const CITY_COUNTRY = new Map<string, string>();
for (const c of COUNTRIES)
  for (const city of c.cities)
    if (!CITY_COUNTRY.has(city.toLowerCase())) CITY_COUNTRY.set(city.toLowerCase(), c.name);

/**
 * Countries named in a text, in order of appearance: capitalised country names, aliases or main
 * startup cities ("based in Berlin" → Germany). Short all-caps codes (UK, USA) count; ordinary
 * words never do.
 */
export function countriesInText(text: string): string[] {
  const tokens = text.match(/[\p{L}][\p{L}.'-]*/gu) ?? [];
  const found: { at: number; country: string }[] = [];
  const used = new Set<number>();
  for (let n = 3; n >= 1; n--) {
    for (let i = 0; i + n <= tokens.length; i++) {
      if (used.has(i)) continue;
      const slice = tokens.slice(i, i + n);
      const first = slice[0] ?? '';
      const initial = first.charAt(0);
      if (initial === initial.toLowerCase()) continue;
      const phrase = slice.join(' ').replace(/[.'-]+$/, '');
      const bare = phrase.replace(/\./g, '');
      if (bare.length < 2) continue;
      const short = bare.length <= 3;
      if (short && phrase !== phrase.toUpperCase()) continue;
      const city = short ? undefined : CITY_COUNTRY.get(phrase.toLowerCase());
      const country = city ?? (short && !/^(UK|USA|US|UAE)$/.test(bare) ? null : resolveCountry(phrase));
      if (!country) continue;
      for (let k = i; k < i + n; k++) used.add(k);
      found.push({ at: i, country });
    }
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.country))];
}

/** The first country named in a text (see {@link countriesInText}), or null. */
export function countryInText(text: string): string | null {
  return countriesInText(text)[0] ?? null;
}
