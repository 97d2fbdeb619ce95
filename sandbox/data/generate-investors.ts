/**
 * Generates the investor population: type, HQ (following the market weights), sectors, stage
 * mix, check sizes consistent with type and stages, activity level, thesis, team and website.
 */
import type { Sector } from '../../api/enums.js';
import { SECTORS } from '../../api/enums.js';
import type { Country } from './countries.js';
import { COUNTRIES } from './countries.js';
import type { Stage } from './market.js';
import { CHECK_RANGE, roundAmount } from './market.js';
import { investorNameCandidate, personName, slugify } from './names.js';
import type { Rng } from './prng.js';
import type { INVESTOR_TYPES } from './schema.js';
import { STAGES } from './schema.js';
import { investorTeam, investorThesis } from './texts.js';

export type InvestorType = (typeof INVESTOR_TYPES)[number];
export type Reach = 'local' | 'regional' | 'global';

export interface InvestorRec {
  key: string;
  name: string;
  type: InvestorType;
  country: Country;
  countryIdx: number;
  city: string;
  website: string;
  foundedYear: number;
  sectors: Sector[];
  /** Indexes into SECTORS, primary first. */
  sectorIdx: number[];
  stageMix: Partial<Record<Stage, number>>;
  checkMin: number;
  checkMax: number;
  /** Relative deal activity (how often the investor is picked). */
  activity: number;
  reach: Reach;
  thesis: string;
  team: { name: string; role: string }[];
  score: number;
}

/** Share of startups per sector (AI gains weight in later years; see generate-startups). */
export const SECTOR_WEIGHTS: Record<Sector, number> = {
  'Artificial Intelligence & Data': 0.15,
  'Commerce & Marketing': 0.11,
  'Consumer, Lifestyle & Services': 0.11,
  'Energy, Environment & Mobility': 0.1,
  'Finance & Blockchain': 0.14,
  'Healthcare & Life Sciences': 0.14,
  'Industry & Hardware': 0.08,
  'Software & Developer Tools': 0.17,
};

const BASE_MIX: Record<string, Partial<Record<Stage, number>>> = {
  Angel: { 'pre-seed': 0.5, seed: 0.42, 'series-a': 0.08 },
  Accelerator: { 'pre-seed': 0.72, seed: 0.28 },
  'VC:seed': { 'pre-seed': 0.25, seed: 0.6, 'series-a': 0.15 },
  'VC:early': { seed: 0.25, 'series-a': 0.5, 'series-b': 0.25 },
  'VC:multi': {
    seed: 0.15,
    'series-a': 0.25,
    'series-b': 0.25,
    'series-c': 0.2,
    'series-d-plus': 0.1,
    growth: 0.05,
  },
  'VC:growth': { 'series-b': 0.15, 'series-c': 0.3, 'series-d-plus': 0.3, growth: 0.25 },
  'Corporate VC': { seed: 0.1, 'series-a': 0.3, 'series-b': 0.3, 'series-c': 0.2, 'series-d-plus': 0.1 },
};

const WITH_THE = new Set([
  'United States',
  'United Kingdom',
  'Netherlands',
  'United Arab Emirates',
  'Philippines',
  'Czech Republic',
]);

/** "the United States", "Germany". */
export function countryPhrase(name: string): string {
  return WITH_THE.has(name) ? `the ${name}` : name;
}

const SUBREGION_PHRASE: Record<string, string> = {
  DACH: 'the DACH region',
  Nordics: 'the Nordics',
  CEE: 'Central and Eastern Europe',
  MENA: 'the Middle East and North Africa',
  'Sub-Saharan Africa': 'Africa',
  'Southeast Asia': 'Southeast Asia',
  'South Asia': 'South Asia',
  'East Asia': 'East Asia',
  'South America': 'Latin America',
  'Central America & Caribbean': 'Latin America',
  'Northern America': 'North America',
  'Australia & New Zealand': 'Australia and New Zealand',
  'Western Europe': 'Europe',
  'Southern Europe': 'Southern Europe',
};

function geographyPhrase(country: Country, reach: Reach): string {
  if (reach === 'local') return countryPhrase(country.name);
  if (reach === 'regional') return SUBREGION_PHRASE[country.subregion] ?? country.region;
  return country.region === 'North America'
    ? 'North America, Europe and Israel'
    : `${country.region} and globally`;
}

/** Integer counts proportional to weights that sum to n (largest remainder), each at least `min`. */
export function allocate(weights: readonly number[], n: number, min = 0): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const free = n - min * weights.length;
  const exact = weights.map((w) => (w / total) * free);
  const counts = exact.map((x) => Math.floor(x) + min);
  let rest = n - counts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => [x - Math.floor(x), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; rest > 0; k = (k + 1) % order.length, rest--) {
    const i = order[k]?.[1] ?? 0;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

function cityOf(rng: Rng, country: Country): string {
  return (
    country.cities[rng.weightedIndex(country.cities.map((_, i) => 1 / (i + 1) ** 0.9))] ??
    country.cities[0] ??
    country.name
  );
}

function stageMix(rng: Rng, base: Partial<Record<Stage, number>>): Partial<Record<Stage, number>> {
  const raw = STAGES.map((s) => (base[s] ?? 0) * rng.float(0.7, 1.3));
  const total = raw.reduce((a, b) => a + b, 0);
  const mix: Partial<Record<Stage, number>> = {};
  let assigned = 0;
  let largest: Stage = 'seed';
  let largestShare = -1;
  STAGES.forEach((s, i) => {
    const share = Math.round(((raw[i] ?? 0) / total) * 100) / 100;
    if (share > 0) {
      mix[s] = share;
      assigned += share;
      if (share > largestShare) {
        largestShare = share;
        largest = s;
      }
    }
  });
  mix[largest] = Math.round(((mix[largest] ?? 0) + 1 - assigned) * 100) / 100;
  return mix;
}

function checkRange(rng: Rng, type: InvestorType, mix: Partial<Record<Stage, number>>): [number, number] {
  if (type === 'Angel')
    return [roundAmount(rng.float(10_000, 50_000)), roundAmount(rng.float(100_000, 500_000))];
  if (type === 'Accelerator')
    return [roundAmount(rng.float(50_000, 150_000)), roundAmount(rng.float(200_000, 750_000))];
  const main = STAGES.filter((s) => (mix[s] ?? 0) >= 0.15);
  const stages = main.length ? main : STAGES.filter((s) => (mix[s] ?? 0) > 0);
  const lo = Math.min(...stages.map((s) => CHECK_RANGE[s][0]));
  const hi = Math.max(...stages.map((s) => CHECK_RANGE[s][1]));
  const min = roundAmount(lo * rng.float(0.8, 1.6));
  const max = roundAmount(Math.max(min * 3, hi * rng.float(0.45, 1.0)));
  return [min, max];
}

function pickSectors(rng: Rng, type: InvestorType): Sector[] {
  const r = rng.next();
  const n =
    type === 'Accelerator' && r < 0.4
      ? rng.int(5, 8)
      : r < 0.12
        ? rng.int(5, 8)
        : r < 0.55
          ? rng.int(2, 3)
          : rng.int(1, 2);
  const weights = SECTORS.map((s) => SECTOR_WEIGHTS[s]);
  const chosen: Sector[] = [];
  while (chosen.length < n) {
    const s = SECTORS[rng.weightedIndex(weights)] as Sector;
    if (!chosen.includes(s)) chosen.push(s);
  }
  return chosen;
}

const ANGEL_BACKGROUNDS = [
  'founder',
  'CTO',
  'product leader',
  'operator',
  'CFO',
  'sales executive',
  'engineering lead',
  'founder and CEO',
];

/** Generates `n` investors with unique names and keys. */
export function generateInvestors(rng: Rng, n: number): InvestorRec[] {
  const investorWeights = COUNTRIES.map((c) => (c.name === 'United States' ? c.weight * 1.15 : c.weight));
  const counts = allocate(investorWeights, n, 3);
  const countryOf: number[] = [];
  counts.forEach((k, i) => {
    for (let j = 0; j < k; j++) countryOf.push(i);
  });
  rng.shuffle(countryOf);

  const names = new Set<string>();
  const keys = new Set<string>();
  const out: InvestorRec[] = [];
  for (const countryIdx of countryOf) {
    const country = COUNTRIES[countryIdx] as Country;
    const city = cityOf(rng, country);
    const type = (['VC', 'Angel', 'Corporate VC', 'Accelerator'] as const)[
      rng.weightedIndex([0.58, 0.22, 0.1, 0.1])
    ] as InvestorType;
    const profile = type === 'VC' ? rng.pick(['seed', 'seed', 'early', 'early', 'multi', 'growth']) : '';
    const mix = stageMix(rng, BASE_MIX[type === 'VC' ? `VC:${profile}` : type] ?? {});
    const [checkMin, checkMax] = checkRange(rng, type, mix);
    const sectors = pickSectors(rng, type);

    let name = '';
    let corporate: string | undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      const cand = investorNameCandidate(rng, type, {
        culture: country.culture,
        city,
        growth: profile === 'growth',
      });
      const candName = attempt >= 20 ? `${cand.name} ${city}` : cand.name;
      if (!names.has(candName.toLowerCase()) && !keys.has(slugify(candName))) {
        name = candName;
        corporate = cand.corporate;
        break;
      }
    }
    if (!name) {
      name = `${personName(rng, country.culture)} ${city} ${out.length}`;
    }
    const key = slugify(name);
    names.add(name.toLowerCase());
    keys.add(key);

    const reach: Reach =
      type === 'Angel'
        ? rng.chance(0.85)
          ? 'local'
          : 'regional'
        : type === 'Accelerator'
          ? rng.chance(0.7)
            ? 'local'
            : 'regional'
          : ((['local', 'regional', 'global'] as const)[
              rng.weightedIndex(country.name === 'United States' ? [0.55, 0.15, 0.3] : [0.5, 0.38, 0.12])
            ] as Reach);
    const activityMedian = { VC: 1, Angel: 0.35, 'Corporate VC': 0.5, Accelerator: 1.1 }[type];
    const activity = rng.logNormal(activityMedian, 0.95);
    const foundedYear =
      type === 'Angel'
        ? rng.int(2008, 2022)
        : type === 'Accelerator'
          ? rng.int(2005, 2021)
          : Math.min(2023, 2024 - Math.floor(rng.logNormal(9, 0.7)));
    const stages = STAGES.filter((s) => (mix[s] ?? 0) >= 0.1);
    const team = investorTeam(rng, type, country, type === 'Angel' ? name : undefined);
    const thesis = investorThesis(rng, {
      name,
      type,
      sectors,
      stages,
      geography: geographyPhrase(country, reach),
      checkMin,
      checkMax,
      corporate,
      angelBackground: rng.pick(ANGEL_BACKGROUNDS),
    });
    const host = key.replace(/-/g, '');
    const website =
      type === 'Angel'
        ? `https://${host}.com`
        : `https://${host}.${rng.pick(type === 'VC' ? ['com', 'com', 'vc', 'vc', 'capital', 'ventures'] : ['com', 'com', 'io'])}`;
    out.push({
      key,
      name,
      type,
      country,
      countryIdx,
      city,
      website,
      foundedYear: Math.max(1972, foundedYear),
      sectors,
      sectorIdx: sectors.map((s) => SECTORS.indexOf(s)),
      stageMix: mix,
      checkMin,
      checkMax,
      activity,
      reach,
      thesis,
      team,
      score: 0,
    });
  }
  return out;
}
