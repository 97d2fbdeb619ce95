/**
 * Reference data on countries: canonical names, regions, aliases, the main startup cities and a
 * market weight that follows real venture markets (share of startups and deals).
 */
import type { InvestorRegion } from '../../api/enums.js';
import { INVESTOR_REGIONS } from '../../api/enums.js';

export const COUNTRY_REGIONS = [
  'North America',
  'Europe',
  'Asia',
  'Latin America',
  'Middle East & Africa',
  'Oceania',
] as const;
export type CountryRegion = (typeof COUNTRY_REGIONS)[number];

/** Name cultures the generator draws person names from. */
export type NameCulture =
  | 'anglo'
  | 'german'
  | 'french'
  | 'dutch'
  | 'nordic'
  | 'slavic'
  | 'spanish'
  | 'portuguese'
  | 'italian'
  | 'chinese'
  | 'japanese'
  | 'korean'
  | 'indian'
  | 'hebrew'
  | 'arabic'
  | 'turkish'
  | 'african'
  | 'seasian';

export interface Country {
  /** Canonical name, e.g. 'United States'. */
  name: string;
  iso2: string;
  region: CountryRegion;
  /** e.g. 'DACH', 'Nordics', 'CEE', 'Western Europe', 'Southern Europe', 'MENA', 'Sub-Saharan Africa'. */
  subregion: string;
  in_eu: boolean;
  /** Lowercase aliases (the canonical name and iso2 match too). */
  aliases: string[];
  /** Relative weight of the country in the venture market (share of startups, in percent). */
  weight: number;
  /** Typical round size relative to the global median (US above 1, emerging markets below). */
  sizeFactor: number;
  /** Main startup cities, most important first. */
  cities: string[];
  /** Country web domain used for some startup websites, e.g. 'de'. */
  tld: string;
  culture: NameCulture;
}

type Row = [
  name: string,
  iso2: string,
  region: CountryRegion,
  subregion: string,
  inEu: boolean,
  weight: number,
  sizeFactor: number,
  tld: string,
  culture: NameCulture,
  cities: string[],
  aliases: string[],
];

const ROWS: Row[] = [
  ['United States', 'US', 'North America', 'Northern America', false, 34, 1.3, 'com', 'anglo',
    ['San Francisco', 'New York', 'Boston', 'Los Angeles', 'Austin', 'Seattle', 'Palo Alto', 'Chicago', 'Miami', 'Denver'],
    ['us', 'usa', 'united states of america', 'america', 'u s a', 'the united states', 'the us', 'the usa']],
  ['China', 'CN', 'Asia', 'East Asia', false, 7.5, 1.15, 'cn', 'chinese',
    ['Beijing', 'Shanghai', 'Shenzhen', 'Hangzhou', 'Guangzhou'],
    ['prc', 'chn', "people's republic of china", 'peoples republic of china', 'mainland china']],
  ['United Kingdom', 'GB', 'Europe', 'Western Europe', false, 6.5, 1.0, 'co.uk', 'anglo',
    ['London', 'Cambridge', 'Manchester', 'Edinburgh', 'Oxford', 'Bristol'],
    ['uk', 'u k', 'gbr', 'great britain', 'britain', 'england', 'scotland', 'wales', 'northern ireland', 'united kingdom of great britain and northern ireland', 'the uk']],
  ['India', 'IN', 'Asia', 'South Asia', false, 5.5, 0.75, 'in', 'indian',
    ['Bengaluru', 'Mumbai', 'Delhi', 'Gurugram', 'Hyderabad', 'Pune', 'Chennai'],
    ['bharat', 'republic of india']],
  ['Germany', 'DE', 'Europe', 'DACH', true, 4.2, 0.95, 'de', 'german',
    ['Berlin', 'Munich', 'Hamburg', 'Cologne', 'Frankfurt'],
    ['deu', 'deutschland', 'federal republic of germany']],
  ['France', 'FR', 'Europe', 'Western Europe', true, 3.6, 0.9, 'fr', 'french',
    ['Paris', 'Lyon', 'Toulouse', 'Nantes', 'Bordeaux'],
    ['fra', 'french republic', 'république française']],
  ['Canada', 'CA', 'North America', 'Northern America', false, 3.0, 0.85, 'ca', 'anglo',
    ['Toronto', 'Vancouver', 'Montreal', 'Waterloo', 'Ottawa', 'Calgary'],
    []],
  ['Israel', 'IL', 'Middle East & Africa', 'MENA', false, 2.8, 1.1, 'co.il', 'hebrew',
    ['Tel Aviv', 'Jerusalem', 'Herzliya', 'Haifa'],
    ['isr', 'state of israel']],
  ['Singapore', 'SG', 'Asia', 'Southeast Asia', false, 1.8, 0.95, 'sg', 'seasian',
    ['Singapore'],
    ['sgp', 'republic of singapore']],
  ['Brazil', 'BR', 'Latin America', 'South America', false, 1.7, 0.7, 'com.br', 'portuguese',
    ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Florianópolis', 'Curitiba'],
    ['bra', 'brasil', 'federative republic of brazil']],
  ['Japan', 'JP', 'Asia', 'East Asia', false, 1.5, 0.7, 'jp', 'japanese',
    ['Tokyo', 'Osaka', 'Fukuoka', 'Kyoto'],
    ['jpn', 'nippon', 'nihon']],
  ['South Korea', 'KR', 'Asia', 'East Asia', false, 1.5, 0.75, 'co.kr', 'korean',
    ['Seoul', 'Pangyo', 'Busan'],
    ['kor', 'korea', 'republic of korea', 'korea, republic of', 'korea republic of', 's korea']],
  ['Australia', 'AU', 'Oceania', 'Australia & New Zealand', false, 1.4, 0.85, 'com.au', 'anglo',
    ['Sydney', 'Melbourne', 'Brisbane', 'Perth'],
    ['aus', 'commonwealth of australia']],
  ['Sweden', 'SE', 'Europe', 'Nordics', true, 1.3, 0.9, 'se', 'nordic',
    ['Stockholm', 'Gothenburg', 'Malmö'],
    ['swe', 'sverige', 'kingdom of sweden']],
  ['Netherlands', 'NL', 'Europe', 'Western Europe', true, 1.3, 0.9, 'nl', 'dutch',
    ['Amsterdam', 'Rotterdam', 'Utrecht', 'Eindhoven', 'Delft'],
    ['nld', 'the netherlands', 'holland', 'nederland', 'kingdom of the netherlands']],
  ['Spain', 'ES', 'Europe', 'Southern Europe', true, 1.3, 0.75, 'es', 'spanish',
    ['Madrid', 'Barcelona', 'Valencia', 'Málaga'],
    ['esp', 'españa', 'espana', 'kingdom of spain']],
  ['Switzerland', 'CH', 'Europe', 'DACH', false, 1.2, 1.0, 'ch', 'german',
    ['Zurich', 'Geneva', 'Lausanne', 'Basel', 'Zug'],
    ['che', 'swiss', 'schweiz', 'suisse', 'svizzera', 'swiss confederation']],
  ['Indonesia', 'ID', 'Asia', 'Southeast Asia', false, 0.9, 0.7, 'co.id', 'seasian',
    ['Jakarta', 'Bandung', 'Surabaya'],
    ['idn', 'republic of indonesia']],
  ['United Arab Emirates', 'AE', 'Middle East & Africa', 'MENA', false, 0.9, 0.9, 'ae', 'arabic',
    ['Dubai', 'Abu Dhabi'],
    ['uae', 'u a e', 'emirates', 'the uae', 'dubai']],
  ['Italy', 'IT', 'Europe', 'Southern Europe', true, 0.8, 0.7, 'it', 'italian',
    ['Milan', 'Rome', 'Turin', 'Bologna'],
    ['ita', 'italia', 'italian republic']],
  ['Mexico', 'MX', 'Latin America', 'Central America & Caribbean', false, 0.8, 0.65, 'com.mx', 'spanish',
    ['Mexico City', 'Monterrey', 'Guadalajara'],
    ['mex', 'méxico', 'united mexican states']],
  ['Ireland', 'IE', 'Europe', 'Western Europe', true, 0.6, 0.85, 'ie', 'anglo',
    ['Dublin', 'Cork', 'Galway'],
    ['irl', 'eire', 'éire', 'republic of ireland']],
  ['Denmark', 'DK', 'Europe', 'Nordics', true, 0.6, 0.85, 'dk', 'nordic',
    ['Copenhagen', 'Aarhus'],
    ['dnk', 'danmark', 'kingdom of denmark']],
  ['Finland', 'FI', 'Europe', 'Nordics', true, 0.6, 0.8, 'fi', 'nordic',
    ['Helsinki', 'Espoo', 'Tampere', 'Oulu'],
    ['suomi', 'republic of finland']],
  ['Belgium', 'BE', 'Europe', 'Western Europe', true, 0.6, 0.8, 'be', 'dutch',
    ['Brussels', 'Ghent', 'Antwerp', 'Leuven'],
    ['belgique', 'belgië', 'belgie', 'kingdom of belgium']],
  ['Poland', 'PL', 'Europe', 'CEE', true, 0.6, 0.6, 'pl', 'slavic',
    ['Warsaw', 'Kraków', 'Wrocław', 'Poznań'],
    ['polska', 'republic of poland']],
  ['Hong Kong', 'HK', 'Asia', 'East Asia', false, 0.6, 0.9, 'hk', 'chinese',
    ['Hong Kong'],
    ['hkg', 'hong kong sar', 'hong kong, china', 'hongkong']],
  ['Norway', 'NO', 'Europe', 'Nordics', false, 0.5, 0.85, 'no', 'nordic',
    ['Oslo', 'Bergen', 'Trondheim'],
    ['nor', 'norge', 'kingdom of norway']],
  ['Austria', 'AT', 'Europe', 'DACH', true, 0.5, 0.8, 'at', 'german',
    ['Vienna', 'Graz', 'Linz'],
    ['österreich', 'osterreich', 'republic of austria']],
  ['Portugal', 'PT', 'Europe', 'Southern Europe', true, 0.5, 0.65, 'pt', 'portuguese',
    ['Lisbon', 'Porto', 'Braga'],
    ['prt', 'portuguese republic']],
  ['Saudi Arabia', 'SA', 'Middle East & Africa', 'MENA', false, 0.5, 0.9, 'sa', 'arabic',
    ['Riyadh', 'Jeddah', 'Dammam'],
    ['sau', 'ksa', 'kingdom of saudi arabia', 'saudi']],
  ['Colombia', 'CO', 'Latin America', 'South America', false, 0.45, 0.6, 'co', 'spanish',
    ['Bogotá', 'Medellín', 'Cali'],
    ['republic of colombia']],
  ['Turkey', 'TR', 'Middle East & Africa', 'MENA', false, 0.45, 0.6, 'com.tr', 'turkish',
    ['Istanbul', 'Ankara', 'Izmir'],
    ['türkiye', 'turkiye', 'republic of turkey']],
  ['Nigeria', 'NG', 'Middle East & Africa', 'Sub-Saharan Africa', false, 0.45, 0.45, 'ng', 'african',
    ['Lagos', 'Abuja'],
    ['nga', 'federal republic of nigeria']],
  ['Estonia', 'EE', 'Europe', 'CEE', true, 0.4, 0.8, 'ee', 'nordic',
    ['Tallinn', 'Tartu'],
    ['eesti', 'republic of estonia']],
  ['Taiwan', 'TW', 'Asia', 'East Asia', false, 0.4, 0.75, 'tw', 'chinese',
    ['Taipei', 'Hsinchu', 'Taichung'],
    ['twn', 'republic of china', 'chinese taipei']],
  ['Vietnam', 'VN', 'Asia', 'Southeast Asia', false, 0.4, 0.6, 'vn', 'seasian',
    ['Ho Chi Minh City', 'Hanoi', 'Da Nang'],
    ['vnm', 'viet nam', 'socialist republic of vietnam']],
  ['Argentina', 'AR', 'Latin America', 'South America', false, 0.4, 0.6, 'com.ar', 'spanish',
    ['Buenos Aires', 'Córdoba', 'Rosario'],
    ['arg', 'argentine republic']],
  ['South Africa', 'ZA', 'Middle East & Africa', 'Sub-Saharan Africa', false, 0.4, 0.5, 'co.za', 'african',
    ['Cape Town', 'Johannesburg', 'Durban'],
    ['zaf', 'rsa', 'republic of south africa']],
  ['Chile', 'CL', 'Latin America', 'South America', false, 0.35, 0.6, 'cl', 'spanish',
    ['Santiago', 'Valparaíso'],
    ['chl', 'republic of chile']],
  ['Egypt', 'EG', 'Middle East & Africa', 'MENA', false, 0.35, 0.5, 'com.eg', 'arabic',
    ['Cairo', 'Alexandria', 'Giza'],
    ['egy', 'arab republic of egypt', 'misr']],
  ['Kenya', 'KE', 'Middle East & Africa', 'Sub-Saharan Africa', false, 0.35, 0.45, 'co.ke', 'african',
    ['Nairobi', 'Mombasa'],
    ['republic of kenya']],
  ['Malaysia', 'MY', 'Asia', 'Southeast Asia', false, 0.3, 0.6, 'com.my', 'seasian',
    ['Kuala Lumpur', 'Penang', 'Cyberjaya'],
    ['mys']],
  ['Thailand', 'TH', 'Asia', 'Southeast Asia', false, 0.3, 0.6, 'co.th', 'seasian',
    ['Bangkok', 'Chiang Mai'],
    ['tha', 'kingdom of thailand', 'siam']],
  ['Philippines', 'PH', 'Asia', 'Southeast Asia', false, 0.3, 0.55, 'ph', 'seasian',
    ['Manila', 'Makati', 'Cebu City'],
    ['phl', 'the philippines', 'republic of the philippines']],
  ['New Zealand', 'NZ', 'Oceania', 'Australia & New Zealand', false, 0.3, 0.7, 'co.nz', 'anglo',
    ['Auckland', 'Wellington', 'Christchurch'],
    ['nzl', 'aotearoa']],
  ['Czech Republic', 'CZ', 'Europe', 'CEE', true, 0.3, 0.6, 'cz', 'slavic',
    ['Prague', 'Brno'],
    ['cze', 'czechia', 'česko', 'cesko', 'czech']],
  ['Ukraine', 'UA', 'Europe', 'CEE', false, 0.3, 0.5, 'com.ua', 'slavic',
    ['Kyiv', 'Lviv', 'Kharkiv'],
    ['ukr', 'україна', 'ukraina']],
  ['Lithuania', 'LT', 'Europe', 'CEE', true, 0.25, 0.6, 'lt', 'slavic',
    ['Vilnius', 'Kaunas'],
    ['ltu', 'lietuva', 'republic of lithuania']],
  ['Romania', 'RO', 'Europe', 'CEE', true, 0.25, 0.55, 'ro', 'slavic',
    ['Bucharest', 'Cluj-Napoca', 'Iași'],
    ['rou', 'românia']],
  ['Pakistan', 'PK', 'Asia', 'South Asia', false, 0.25, 0.45, 'com.pk', 'indian',
    ['Karachi', 'Lahore', 'Islamabad'],
    ['pak', 'islamic republic of pakistan']],
  ['Greece', 'GR', 'Europe', 'Southern Europe', true, 0.25, 0.6, 'gr', 'italian',
    ['Athens', 'Thessaloniki'],
    ['grc', 'hellas', 'hellenic republic', 'ellada']],
  ['Hungary', 'HU', 'Europe', 'CEE', true, 0.2, 0.55, 'hu', 'slavic',
    ['Budapest', 'Debrecen'],
    ['hun', 'magyarország', 'magyarorszag']],
  ['Bulgaria', 'BG', 'Europe', 'CEE', true, 0.15, 0.5, 'bg', 'slavic',
    ['Sofia', 'Plovdiv'],
    ['bgr', 'republic of bulgaria']],
  ['Morocco', 'MA', 'Middle East & Africa', 'MENA', false, 0.15, 0.45, 'ma', 'arabic',
    ['Casablanca', 'Rabat', 'Marrakesh'],
    ['maroc', 'kingdom of morocco']],
  ['Ghana', 'GH', 'Middle East & Africa', 'Sub-Saharan Africa', false, 0.12, 0.4, 'com.gh', 'african',
    ['Accra', 'Kumasi'],
    ['gha', 'republic of ghana']],
];

/** Every country of the sandbox, by descending market weight. */
export const COUNTRIES: readonly Country[] = ROWS.map(
  ([name, iso2, region, subregion, inEu, weight, sizeFactor, tld, culture, cities, aliases]) => ({
    name,
    iso2,
    region,
    subregion,
    in_eu: inEu,
    aliases,
    weight,
    sizeFactor,
    cities,
    tld,
    culture,
  }),
).sort((a, b) => b.weight - a.weight);

/** The leading venture markets after the US, in order (reports and tests rely on them). */
export const LEADING_COUNTRIES = [
  'United States',
  'China',
  'United Kingdom',
  'India',
  'Germany',
  'France',
  'Canada',
  'Israel',
] as const;

const BY_NAME = new Map<string, Country>(COUNTRIES.map((c) => [c.name, c]));

function normalizeCountryText(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/\./g, ' ')
    .replace(/[\s_]+/g, ' ')
    .trim();
}

const LOOKUP = new Map<string, string>();
for (const c of COUNTRIES) {
  for (const alias of [c.name, c.iso2, ...c.aliases]) {
    const key = normalizeCountryText(alias);
    LOOKUP.set(key, c.name);
    LOOKUP.set(key.replace(/ /g, ''), c.name);
  }
}

/**
 * The canonical country name for a name, ISO code or alias (case- and punctuation-tolerant).
 * @example resolveCountry('USA') === 'United States'; resolveCountry('u.k.') === 'United Kingdom'
 */
export function resolveCountry(name: string): string | null {
  const key = normalizeCountryText(name);
  if (!key) return null;
  return LOOKUP.get(key) ?? LOOKUP.get(key.replace(/ /g, '')) ?? LOOKUP.get(key.replace(/^the /, '')) ?? null;
}

/** The country record of a canonical name (see resolveCountry for aliases). */
export function getCountry(name: string): Country | undefined {
  return BY_NAME.get(name) ?? BY_NAME.get(resolveCountry(name) ?? '');
}

const AFRICAN_MENA = new Set(['Egypt', 'Morocco']);

function namesWhere(pred: (c: Country) => boolean): string[] {
  return COUNTRIES.filter(pred).map((c) => c.name);
}

/** Canonical country names of each find_investors investor_region value ('global' means every country). */
export const REGION_COUNTRIES: Record<InvestorRegion, string[] | 'global'> = {
  europe: namesWhere((c) => c.region === 'Europe'),
  eu: namesWhere((c) => c.in_eu),
  cee: namesWhere((c) => c.subregion === 'CEE'),
  dach: namesWhere((c) => c.subregion === 'DACH'),
  nordics: namesWhere((c) => c.subregion === 'Nordics'),
  'north america': namesWhere((c) => c.region === 'North America'),
  'n america': namesWhere((c) => c.region === 'North America'),
  us: ['United States'],
  uk: ['United Kingdom'],
  apac: namesWhere((c) => c.region === 'Asia' || c.region === 'Oceania'),
  asia: namesWhere((c) => c.region === 'Asia'),
  latam: namesWhere((c) => c.region === 'Latin America'),
  mena: namesWhere((c) => c.subregion === 'MENA'),
  africa: namesWhere((c) => c.subregion === 'Sub-Saharan Africa' || AFRICAN_MENA.has(c.name)),
  global: 'global',
};

/**
 * Country names of an investor_region value (case-tolerant); null for an unknown value.
 * 'global' gives every country.
 */
export function countriesOfRegion(region: string): string[] | null {
  const key = region.trim().toLowerCase() as InvestorRegion;
  if (!(INVESTOR_REGIONS as readonly string[]).includes(key)) return null;
  const value = REGION_COUNTRIES[key];
  return value === 'global' ? COUNTRIES.map((c) => c.name) : value;
}
