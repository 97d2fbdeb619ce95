/**
 * Generates startups and their funding rounds (without investors): countries following the
 * market weights, sectors and subsectors from the taxonomy, stage progression with realistic
 * gaps and amounts, fresh rounds in the last seven days for the leading markets, and yearly
 * capital scaled to the market's shape.
 */
import type { Sector } from '../../api/enums.js';
import { SECTORS } from '../../api/enums.js';
import type { Calendar } from './calendar.js';
import type { Country } from './countries.js';
import { COUNTRIES } from './countries.js';
import { allocate, SECTOR_WEIGHTS } from './generate-investors.js';
import type { Stage } from './market.js';
import {
  FIRST_ROUND_YEAR_WEIGHT,
  FIRST_STAGE_WEIGHTS,
  FOUNDING_LAG,
  PROGRESSION,
  ROUND_SIZE,
  YEAR_SIZE_CLIMATE,
  roundAmount,
  yearCapitalIndex,
  yearDealIndex,
} from './market.js';
import { slugify, startupNameCandidate } from './names.js';
import type { Rng } from './prng.js';
import { WeightedTable } from './prng.js';
import { STAGES } from './schema.js';
import type { Subsector } from './taxonomy.js';
import { TAXONOMY } from './taxonomy.js';
import { founders, startupDescription } from './texts.js';

export interface RoundRec {
  startup: number;
  day: number;
  stageIdx: number;
  amount: number;
  /** Index of the lead investor (-1 until assigned). */
  lead: number;
  /** Indexes of every investor, lead included. */
  investors: number[];
}

export interface StartupRec {
  key: string;
  name: string;
  description: string;
  website: string;
  domain: string;
  city: string;
  country: Country;
  countryIdx: number;
  sector: Sector;
  sectorIdx: number;
  subsector: Subsector;
  tags: string[];
  foundedYear: number;
  founders: { name: string; role: string }[];
  /** Indexes into the rounds array, by date. */
  rounds: number[];
  status: string;
}

const START_MS = Date.UTC(2020, 0, 1);
const PRE_WINDOW_DAYS = 1100;

function yearOfAnyDay(day: number): number {
  return new Date(START_MS + day * 86_400_000).getUTCFullYear();
}

const STAGE_IDX = new Map<Stage, number>(STAGES.map((s, i) => [s, i]));
const AI = 'Artificial Intelligence & Data';

function aiBoost(year: number): number {
  return year >= 2023 ? Math.min(2.6, 1 + 0.4 * (year - 2022)) : 1;
}

/** A round amount for a stage, country, sector and year (before the yearly capital scaling). */
function drawAmount(rng: Rng, stageIdx: number, country: Country, sector: Sector, year: number): number {
  const stage = STAGES[stageIdx] as Stage;
  const size = ROUND_SIZE[stage];
  const climate = YEAR_SIZE_CLIMATE[year] ?? YEAR_SIZE_CLIMATE[2026] ?? 1;
  let factor = country.sizeFactor * climate;
  let max = size.max;
  if (sector === AI && year >= 2023) {
    factor *= Math.min(1.8, 1 + 0.2 * (year - 2022));
    if (stageIdx >= 4 && year >= 2024 && rng.chance(0.1)) {
      factor *= rng.float(3, 8);
      max = 6_000_000_000;
    }
  }
  const raw = rng.logNormal(size.median * factor, size.sigma);
  return Math.min(max, Math.max(size.min * 0.5, raw));
}

function nextStage(rng: Rng, stageIdx: number): number {
  const p = PROGRESSION[STAGES[stageIdx] as Stage];
  if (stageIdx === STAGES.length - 1 || rng.chance(p.repeat)) return stageIdx;
  return stageIdx + 1;
}

function pickSector(rng: Rng, year: number): Sector {
  const weights = SECTORS.map((s) => SECTOR_WEIGHTS[s] * (s === AI ? aiBoost(year) : 1));
  return SECTORS[rng.weightedIndex(weights)] as Sector;
}

function pickSubsector(rng: Rng, sector: Sector, year: number): Subsector {
  const subs = TAXONOMY[sector].subsectors;
  const weights = subs.map((s) => (s.name === 'Generative AI' ? (year >= 2023 ? 3 : 0.6) : 1));
  return subs[rng.weightedIndex(weights)] as Subsector;
}

function pickTags(rng: Rng, sector: Sector, subsector: Subsector): string[] {
  const tags = rng.sample(subsector.tags, rng.int(2, Math.min(3, subsector.tags.length)));
  if (rng.chance(0.25)) {
    const sibling = rng.pick(TAXONOMY[sector].subsectors);
    const extra = rng.pick(sibling.tags);
    if (!tags.includes(extra)) tags.push(extra);
  }
  return tags;
}

function domainTld(rng: Rng, country: Country, sector: Sector): string {
  if (sector === AI && rng.chance(0.35)) return 'ai';
  if (sector === 'Software & Developer Tools' && rng.chance(0.25)) return 'io';
  if (country.tld !== 'com' && rng.chance(0.35)) return country.tld;
  return 'com';
}

/** Minimum number of rounds in the last seven days for a country of this market weight. */
export function minRecentRounds(weight: number): number {
  if (weight >= 5) return 8;
  if (weight >= 2) return 5;
  if (weight >= 1) return 3;
  if (weight >= 0.5) return 2;
  return 0;
}

/** Generates `n` startups and their rounds inside the calendar's window. */
export function generateStartups(
  rng: Rng,
  cal: Calendar,
  n: number,
): { startups: StartupRec[]; rounds: RoundRec[] } {
  const T = cal.lastDay;
  // First-round days: from before the window (so 2020 has follow-on rounds too) to the as-of date,
  // weighted by the yearly deal index.
  const days: number[] = [];
  const dayWeights: number[] = [];
  for (let d = -PRE_WINDOW_DAYS; d <= T; d++) {
    const y = yearOfAnyDay(d);
    days.push(d);
    dayWeights.push(FIRST_ROUND_YEAR_WEIGHT[y] ?? yearDealIndex(y));
  }
  const firstDays = new WeightedTable(days, dayWeights);
  const firstStages = new WeightedTable(
    STAGES.map((_, i) => i),
    STAGES.map((s) => FIRST_STAGE_WEIGHTS[s]),
  );

  const counts = allocate(
    COUNTRIES.map((c) => c.weight),
    n,
    1,
  );
  const countryOf: number[] = [];
  counts.forEach((k, i) => {
    for (let j = 0; j < k; j++) countryOf.push(i);
  });
  rng.shuffle(countryOf);

  const startups: StartupRec[] = [];
  const rounds: RoundRec[] = [];
  const names = new Set<string>();
  const keys = new Set<string>();
  const domains = new Set<string>();

  for (const countryIdx of countryOf) {
    const country = COUNTRIES[countryIdx] as Country;
    // The chain of rounds; retried until at least one round falls inside the window.
    let chain: { day: number; stageIdx: number }[] = [];
    let firstDay = 0;
    let firstStage = 0;
    while (chain.length === 0) {
      firstDay = firstDays.draw(rng) ?? 0;
      firstStage = firstStages.draw(rng) ?? 1;
      let day = firstDay;
      let stageIdx = firstStage;
      const all: { day: number; stageIdx: number }[] = [{ day, stageIdx }];
      while (all.length < 8) {
        const p = PROGRESSION[STAGES[stageIdx] as Stage];
        if (!rng.chance(p.next)) break;
        day += rng.int(p.gapMin, p.gapMax);
        if (day > T) break;
        stageIdx = nextStage(rng, stageIdx);
        all.push({ day, stageIdx });
      }
      chain = all.filter((r) => r.day >= 0);
    }
    const firstWindowYear = cal.yearOf(chain[0]?.day ?? 0);
    const sector = pickSector(rng, firstWindowYear);
    const subsector = pickSubsector(rng, sector, firstWindowYear);
    const [lagMin, lagMax] = FOUNDING_LAG[STAGES[firstStage] as Stage];
    const foundedYear = Math.max(1995, yearOfAnyDay(firstDay) - rng.int(lagMin, lagMax));
    const city =
      country.cities[rng.weightedIndex(country.cities.map((_, i) => 1 / (i + 1) ** 0.9))] ?? country.name;

    let name = '';
    for (let attempt = 0; attempt < 40 && !name; attempt++) {
      const cand = startupNameCandidate(rng, sector);
      const candidate = attempt >= 25 ? `${cand} ${city}` : cand;
      if (!names.has(candidate.toLowerCase()) && !keys.has(slugify(candidate))) name = candidate;
    }
    if (!name) name = `${startupNameCandidate(rng, sector)} ${city} ${startups.length}`;
    const key = slugify(name);
    names.add(name.toLowerCase());
    keys.add(key);
    let domain = `${key.replace(/-/g, '')}.${domainTld(rng, country, sector)}`;
    for (const prefix of ['get', 'try', 'use', 'hello', 'join']) {
      if (!domains.has(domain)) break;
      domain = `${prefix}${key.replace(/-/g, '')}.com`;
    }
    // Domains are unique (prospect lists merge companies by domain). Last resort, which seed 42
    // never reaches at scale 1 or 5: the key and a number no domain has yet.
    for (let n = startups.length; domains.has(domain); n++) domain = `${key}-${n}.com`;
    domains.add(domain);

    const startupIdx = startups.length;
    const roundIdx: number[] = [];
    for (const r of chain) {
      roundIdx.push(rounds.length);
      rounds.push({
        startup: startupIdx,
        day: r.day,
        stageIdx: r.stageIdx,
        amount: drawAmount(rng, r.stageIdx, country, sector, cal.yearOf(r.day)),
        lead: -1,
        investors: [],
      });
    }
    startups.push({
      key,
      name,
      description: startupDescription(rng, { name, sector, subsector, city, foundedYear }),
      website: `https://${domain}`,
      domain,
      city,
      country,
      countryIdx,
      sector,
      sectorIdx: SECTORS.indexOf(sector),
      subsector,
      tags: pickTags(rng, sector, subsector),
      foundedYear,
      founders: founders(rng, country, subsector.name),
      rounds: roundIdx,
      status: 'active',
    });
  }

  addRecentRounds(rng, cal, startups, rounds);
  scaleYearlyCapital(cal, rounds);
  assignStatuses(rng, cal, startups, rounds);
  return { startups, rounds };
}

/** Gives every leading market fresh rounds in the seven days up to the as-of date. */
function addRecentRounds(rng: Rng, cal: Calendar, startups: StartupRec[], rounds: RoundRec[]): void {
  const T = cal.lastDay;
  const recent = new Map<number, number>();
  for (const r of rounds) {
    if (r.day > T - 7) {
      const c = startups[r.startup]?.countryIdx ?? -1;
      recent.set(c, (recent.get(c) ?? 0) + 1);
    }
  }
  const byCountry = new Map<number, number[]>();
  startups.forEach((s, i) => {
    const last = rounds[s.rounds[s.rounds.length - 1] ?? -1];
    if (last && last.day <= T - 240 && last.day >= T - 1100) {
      const list = byCountry.get(s.countryIdx) ?? [];
      list.push(i);
      byCountry.set(s.countryIdx, list);
    }
  });
  COUNTRIES.forEach((country, countryIdx) => {
    const need = minRecentRounds(country.weight) - (recent.get(countryIdx) ?? 0);
    if (need <= 0) return;
    const candidates = rng.sample(byCountry.get(countryIdx) ?? [], need);
    for (const s of candidates) {
      const startup = startups[s] as StartupRec;
      const last = rounds[startup.rounds[startup.rounds.length - 1] ?? -1] as RoundRec;
      const stageIdx = nextStage(rng, last.stageIdx);
      const day = T - rng.int(0, 6);
      startup.rounds.push(rounds.length);
      rounds.push({
        startup: s,
        day,
        stageIdx,
        amount: drawAmount(rng, stageIdx, startup.country, startup.sector, cal.yearOf(day)),
        lead: -1,
        investors: [],
      });
    }
  });
}

/** Scales amounts per year so yearly capital follows the market's capital index, then rounds them. */
function scaleYearlyCapital(cal: Calendar, rounds: RoundRec[]): void {
  const years = cal.yearList;
  const actual = new Map<number, number>();
  for (const r of rounds) {
    const y = cal.yearOf(r.day);
    actual.set(y, (actual.get(y) ?? 0) + r.amount);
  }
  const shape = new Map(years.map((y) => [y, yearCapitalIndex(y) * cal.yearCoverage(y)]));
  let totalActual = 0;
  let totalShape = 0;
  for (const y of years) {
    totalActual += actual.get(y) ?? 0;
    totalShape += shape.get(y) ?? 0;
  }
  const factor = new Map(
    years.map((y) => [y, ((totalActual / totalShape) * (shape.get(y) ?? 0)) / (actual.get(y) || 1)]),
  );
  for (const r of rounds) r.amount = roundAmount(r.amount * (factor.get(cal.yearOf(r.day)) ?? 1));
}

/** Acquired, closed and IPO statuses for startups whose last round is old enough. */
function assignStatuses(rng: Rng, cal: Calendar, startups: StartupRec[], rounds: RoundRec[]): void {
  const T = cal.lastDay;
  for (const s of startups) {
    const last = rounds[s.rounds[s.rounds.length - 1] ?? -1];
    if (!last) continue;
    const age = T - last.day;
    const late = last.stageIdx >= (STAGE_IDX.get('series-d-plus') ?? 5);
    if (late && age > 270 && rng.chance(0.18)) s.status = 'ipo';
    else if (age > 540)
      s.status = rng.pick([
        'acquired',
        'acquired',
        'closed',
        'closed',
        'closed',
        'active',
        'active',
        'active',
        'active',
        'active',
      ]);
    else if (age > 360 && rng.chance(0.1)) s.status = rng.chance(0.5) ? 'acquired' : 'closed';
  }
}
