/**
 * Slot extraction for the data agent: where (countries, a region, a city), what (sector or
 * subsector), which stage, when (see period.ts), how many (top N), round size bounds and
 * investor type, read from a plain-language question. Nothing here touches SQL: the slots are
 * values that patterns bind as query parameters.
 */
import { SECTORS, type Sector } from '../../api/enums.js';
import { COUNTRIES, REGION_COUNTRIES, resolveCountry } from '../data/countries.js';
import { SUBSECTORS } from '../data/taxonomy.js';
import { parseCount, readTime, type TimeSlots } from './period.js';

export interface Geo {
  /** Canonical country names the question is about. */
  countries: string[];
  /** How the answer names the place: "Germany", "Europe", "Berlin". */
  label: string;
  city?: string;
}

export interface Slots extends TimeSlots {
  /** The question, lowercased with whitespace collapsed. */
  text: string;
  geo: Geo | null;
  sector: Sector | null;
  subsector: string | null;
  /** Stage slugs of the schema (seed, series-a, ...). */
  stages: string[] | null;
  stageLabel: string | null;
  /** N of "top N" (default 10, at most 100). */
  topN: number;
  topNGiven: boolean;
  minAmount: number | null;
  maxAmount: number | null;
  investorType: string | null;
}

/** Region words and the countries they cover. */
const REGIONS: [RegExp, string, () => string[]][] = [
  [
    /\b(north america|north american|n america)\b/,
    'North America',
    () => list(REGION_COUNTRIES['north america']),
  ],
  [
    /\b(latin america|latin american|latam|south america)\b/,
    'Latin America',
    () => list(REGION_COUNTRIES.latam),
  ],
  [
    /\b(central and eastern europe|eastern europe|cee)\b/,
    'Central and Eastern Europe',
    () => list(REGION_COUNTRIES.cee),
  ],
  [/\b(southeast asia|south-east asia|sea region)\b/, 'Southeast Asia', () => bySubregion('Southeast Asia')],
  [/\b(western europe)\b/, 'Western Europe', () => bySubregion('Western Europe')],
  [/\b(southern europe)\b/, 'Southern Europe', () => bySubregion('Southern Europe')],
  [/\b(dach)\b/, 'DACH', () => list(REGION_COUNTRIES.dach)],
  [
    /\b(nordics|nordic countries|nordic|scandinavia|scandinavian)\b/,
    'the Nordics',
    () => list(REGION_COUNTRIES.nordics),
  ],
  [/\b(european union|the eu|in eu)\b/, 'the EU', () => list(REGION_COUNTRIES.eu)],
  [/\b(europe|european)\b/, 'Europe', () => list(REGION_COUNTRIES.europe)],
  [/\b(apac|asia pacific|asia-pacific)\b/, 'APAC', () => list(REGION_COUNTRIES.apac)],
  [/\b(mena|middle east)\b/, 'MENA', () => list(REGION_COUNTRIES.mena)],
  [/\b(africa|african)\b/, 'Africa', () => list(REGION_COUNTRIES.africa)],
  [/\b(asia|asian)\b/, 'Asia', () => list(REGION_COUNTRIES.asia)],
  [/\b(oceania)\b/, 'Oceania', () => COUNTRIES.filter((c) => c.region === 'Oceania').map((c) => c.name)],
];

function list(v: string[] | 'global'): string[] {
  return v === 'global' ? COUNTRIES.map((c) => c.name) : v;
}
function bySubregion(sub: string): string[] {
  return COUNTRIES.filter((c) => c.subregion === sub).map((c) => c.name);
}

/** Adjectives of nationality, for "German startups" or "Israeli investors". */
const DEMONYMS: Record<string, string> = {
  american: 'United States',
  german: 'Germany',
  french: 'France',
  british: 'United Kingdom',
  english: 'United Kingdom',
  indian: 'India',
  chinese: 'China',
  canadian: 'Canada',
  israeli: 'Israel',
  singaporean: 'Singapore',
  brazilian: 'Brazil',
  japanese: 'Japan',
  korean: 'South Korea',
  'south korean': 'South Korea',
  australian: 'Australia',
  swedish: 'Sweden',
  dutch: 'Netherlands',
  spanish: 'Spain',
  indonesian: 'Indonesia',
  emirati: 'United Arab Emirates',
  italian: 'Italy',
  mexican: 'Mexico',
  irish: 'Ireland',
  danish: 'Denmark',
  finnish: 'Finland',
  belgian: 'Belgium',
  polish: 'Poland',
  norwegian: 'Norway',
  austrian: 'Austria',
  portuguese: 'Portugal',
  colombian: 'Colombia',
  turkish: 'Turkey',
  nigerian: 'Nigeria',
  estonian: 'Estonia',
  taiwanese: 'Taiwan',
  vietnamese: 'Vietnam',
  argentinian: 'Argentina',
  argentine: 'Argentina',
  'south african': 'South Africa',
  chilean: 'Chile',
  egyptian: 'Egypt',
  kenyan: 'Kenya',
  malaysian: 'Malaysia',
  thai: 'Thailand',
  filipino: 'Philippines',
  czech: 'Czech Republic',
  ukrainian: 'Ukraine',
  lithuanian: 'Lithuania',
  romanian: 'Romania',
  pakistani: 'Pakistan',
  greek: 'Greece',
  hungarian: 'Hungary',
  bulgarian: 'Bulgaria',
  moroccan: 'Morocco',
  ghanaian: 'Ghana',
  'new zealander': 'New Zealand',
};

/** Cities (lowercase) of the sandbox's countries, longest names first. */
const CITIES = COUNTRIES.flatMap((c) =>
  c.cities.filter((city) => city !== c.name).map((city) => ({ city, country: c.name })),
).sort((a, b) => b.city.length - a.city.length);

/** Short words that are also ISO codes or aliases; they count as a country only in capitals. */
const LOWERCASE_OK = new Set(['uk', 'usa', 'uae', 'ksa', 'prc', 'the us', 'the usa', 'the uk', 'the uae']);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Blanks out a matched span so later slot readers do not see it again. */
function consume(text: string, index: number, length: number): string {
  return text.slice(0, index) + ' '.repeat(length) + text.slice(index + length);
}

function readGeo(original: string): { geo: Geo | null; rest: string } {
  const text = ` ${fold(original)} `;
  const cased = ` ${original.normalize('NFD').replace(/[\u0300-\u036f]/g, '')} `;
  for (const [re, label, countries] of REGIONS) {
    const m = re.exec(text);
    if (m) return { geo: { countries: countries(), label }, rest: consume(text, m.index, m[0].length) };
  }
  for (const { city, country } of CITIES) {
    const m = new RegExp(`\\b${escapeRe(fold(city))}\\b`).exec(text);
    if (m)
      return { geo: { countries: [country], label: city, city }, rest: consume(text, m.index, m[0].length) };
  }
  // Countries: word n-grams, longest first, through resolveCountry.
  const words = [...text.matchAll(/[a-z][a-z'’-]*/g)];
  for (let n = 5; n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const first = words[i]!;
      const last = words[i + n - 1]!;
      const start = first.index;
      const end = last.index + last[0].length;
      const phrase = text.slice(start, end);
      const shortOk = LOWERCASE_OK.has(phrase) || cased.slice(start, end) === phrase.toUpperCase();
      if (phrase.replace(/^the /, '').length <= 3 && !shortOk) continue;
      const country = resolveCountry(phrase);
      if (country) {
        return { geo: { countries: [country], label: country }, rest: consume(text, start, end - start) };
      }
    }
  }
  for (const [word, country] of Object.entries(DEMONYMS).sort((a, b) => b[0].length - a[0].length)) {
    const m = new RegExp(`\\b${escapeRe(word)}\\b`).exec(text);
    if (m)
      return { geo: { countries: [country], label: country }, rest: consume(text, m.index, m[0].length) };
  }
  return { geo: null, rest: text };
}

/** Question words for each sector beyond its name (general words such as "data" are left out). */
const SECTOR_WORDS: Record<Sector, string[]> = {
  'Artificial Intelligence & Data': [
    'artificial intelligence',
    'ai',
    'a i',
    'machine learning',
    'ml',
    'llm',
    'llms',
    'data and ai',
    'ai and data',
    'genai',
  ],
  'Commerce & Marketing': [
    'commerce',
    'e-commerce',
    'ecommerce',
    'marketing',
    'retail',
    'adtech',
    'martech',
    'shopping',
  ],
  'Consumer, Lifestyle & Services': ['consumer', 'lifestyle', 'consumer services', 'b2c'],
  'Energy, Environment & Mobility': [
    'energy',
    'climate',
    'climate tech',
    'climatetech',
    'cleantech',
    'clean tech',
    'mobility',
    'sustainability',
    'environment',
  ],
  'Finance & Blockchain': [
    'fintech',
    'fin tech',
    'finance',
    'financial services',
    'blockchain',
    'financial technology',
  ],
  'Healthcare & Life Sciences': [
    'healthcare',
    'health care',
    'health',
    'healthtech',
    'health tech',
    'life sciences',
    'medtech',
    'medical',
  ],
  'Industry & Hardware': ['hardware', 'industrial', 'deep tech', 'deeptech', 'manufacturing'],
  'Software & Developer Tools': [
    'software',
    'saas',
    'developer tools',
    'devtools',
    'dev tools',
    'enterprise software',
    'b2b software',
  ],
};

/** Tags that are ordinary words in questions ("investing", "credit", "space"): not read as a market. */
const AMBIGUOUS_TAGS = new Set([
  'investing',
  'trading',
  'credit',
  'cross-border',
  'merchant',
  'identity',
  'space',
  'sleep',
  'grid',
  'wind',
  'booking',
  'claims',
  'inventory',
  'inference',
  'automation',
  'media',
  'cloud',
  'analytics',
  'therapy',
  'resale',
  'lending',
]);

interface Phrase {
  phrase: string;
  sector: Sector;
  subsector: string | null;
}

/** Every phrase that names a sector or subsector, longest first. */
const PHRASES: Phrase[] = (() => {
  const out: Phrase[] = [];
  const seen = new Set<string>();
  const add = (phrase: string, sector: Sector, subsector: string | null) => {
    const key = fold(phrase).replace(/-/g, ' ').trim();
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push({ phrase: key, sector, subsector });
  };
  for (const s of SECTORS) add(s, s, null);
  for (const s of SECTORS) add(s.replace(/ & /g, ' and '), s, null);
  for (const sub of SUBSECTORS) {
    add(sub.name, sub.sector, sub.name);
    add(sub.name.replace(/ & /g, ' and '), sub.sector, sub.name);
    for (const tag of sub.tags)
      if (tag.length > 3 && !AMBIGUOUS_TAGS.has(tag)) add(tag, sub.sector, sub.name);
  }
  for (const s of SECTORS) for (const w of SECTOR_WORDS[s]) add(w, s, null);
  return out.sort((a, b) => b.phrase.length - a.phrase.length);
})();

function readSector(text: string): { sector: Sector | null; subsector: string | null; rest: string } {
  const norm = text.replace(/-/g, ' ');
  for (const p of PHRASES) {
    const m = new RegExp(`\\b${escapeRe(p.phrase)}\\b`).exec(norm);
    if (m) return { sector: p.sector, subsector: p.subsector, rest: consume(text, m.index, m[0].length) };
  }
  return { sector: null, subsector: null, rest: text };
}

const STAGE_WORDS: [RegExp, string[], string][] = [
  [/\bpre[- ]?seed\b/, ['pre-seed'], 'pre-seed'],
  [/\bseries[- ]?a\b/, ['series-a'], 'Series A'],
  [/\bseries[- ]?b\b/, ['series-b'], 'Series B'],
  [/\bseries[- ]?c\b/, ['series-c'], 'Series C'],
  [/\bseries[- ]?[d-h]\b|\bseries d\+/, ['series-d-plus'], 'Series D+'],
  [/\bseed\b/, ['seed'], 'seed'],
  [
    /\bgrowth[- ](stage|rounds?|equity|deals?)\b|\blate[- ]stage\b/,
    ['series-c', 'series-d-plus', 'growth'],
    'late-stage',
  ],
  [/\bearly[- ]stage\b/, ['pre-seed', 'seed', 'series-a'], 'early-stage'],
];

function readStages(text: string): { stages: string[] | null; stageLabel: string | null; rest: string } {
  const stages: string[] = [];
  const labels: string[] = [];
  let rest = text;
  for (const [re, slugs, label] of STAGE_WORDS) {
    const m = re.exec(rest);
    if (!m) continue;
    stages.push(...slugs);
    labels.push(label);
    rest = consume(rest, m.index, m[0].length);
  }
  return stages.length
    ? { stages: [...new Set(stages)], stageLabel: labels.join(' and '), rest }
    : { stages: null, stageLabel: null, rest };
}

const AMOUNT = String.raw`(?:\$|€|£|usd\s?|eur\s?)?\s?(\d+(?:\.\d+)?)\s?(k|m|mn|mm|million|b|bn|billion)\b`;
const SCALE: Record<string, number> = {
  k: 1e3,
  m: 1e6,
  mn: 1e6,
  mm: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
};

function readAmounts(text: string): { min: number | null; max: number | null } {
  const above = new RegExp(
    `\\b(?:over|above|more than|greater than|at least|larger than|bigger than|exceeding|>=?)\\s*${AMOUNT}|${AMOUNT}\\s*(?:\\+|or more|and (?:above|up))`,
  ).exec(text);
  const below = new RegExp(`\\b(?:under|below|less than|smaller than|at most|up to|<=?)\\s*${AMOUNT}`).exec(
    text,
  );
  const val = (n?: string, s?: string) => (n ? Math.round(Number(n) * (SCALE[s ?? ''] ?? 1)) : null);
  return {
    min: above ? val(above[1] ?? above[3], above[2] ?? above[4]) : null,
    max: below ? val(below[1], below[2]) : null,
  };
}

const INVESTOR_TYPES: [RegExp, string][] = [
  [/\b(corporate vcs?|corporate venture|cvcs?|corporate investors?)\b/, 'Corporate VC'],
  [/\b(angels?|angel investors?|business angels?)\b/, 'Angel'],
  [/\b(accelerators?|incubators?)\b/, 'Accelerator'],
  [/\b(vcs|vc firms?|venture capital( firms| funds)?|venture firms?|vc funds?)\b/, 'VC'],
];

function readTopN(text: string): { topN: number; given: boolean } {
  const m =
    /\btop[- ](\d+|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|fifty|hundred)\b/.exec(
      text,
    ) ??
    /\b(\d+|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|fifty)\s+(?:largest|biggest|most|top|leading|highest|latest|most recent|recent|newest|best|busiest|largest|active|funded)\b/.exec(
      text,
    ) ??
    /\b(?:list|show|name|give me)\s+(\d+|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|fifty)\b/.exec(
      text,
    );
  const n = parseCount(m?.[1]);
  if (!n || n > 500) return { topN: 10, given: false };
  return { topN: Math.max(1, Math.min(100, n)), given: true };
}

/**
 * Reads every slot of a question.
 *
 * @example
 * const s = readSlots('How many seed rounds in Germany in 2023?', new Date('2025-06-30'));
 * s.geo?.countries; // ['Germany']
 * s.stages;         // ['seed']
 * s.period;         // { from: '2023-01-01', to: '2023-12-31', label: 'in 2023' }
 */
export function readSlots(question: string, ref: Date): Slots {
  const text = question.replace(/\s+/g, ' ').trim().toLowerCase();
  const time = readTime(text, ref);
  const { geo, rest: afterGeo } = readGeo(question.replace(/\s+/g, ' ').trim());
  const { stages, stageLabel, rest: afterStage } = readStages(afterGeo);
  const { sector, subsector } = readSector(afterStage);
  const { min, max } = readAmounts(text);
  const { topN, given } = readTopN(text);
  const investorType = INVESTOR_TYPES.find(([re]) => re.test(text))?.[1] ?? null;
  return {
    ...time,
    text,
    geo,
    sector,
    subsector,
    stages,
    stageLabel,
    topN,
    topNGiven: given,
    minAmount: min,
    maxAmount: max,
    investorType,
  };
}
