/**
 * One in-memory snapshot per database of what the finders score: startups with their rounds,
 * investors with their deals, and market medians. Built lazily on first use, cached in a
 * WeakMap keyed by the database, and rebuilt when the data changed (a round or startup
 * inserted at run time), so repeated runs see new rounds while a call stays fast.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { RaisingStage } from '../../api/index.js';
import type { InvestorFields, StartupRow } from '../types.js';
import { median } from './money.js';
import { bucketIndex, raisingBucket } from './stages.js';

/** One round of a startup, as the finders use it. */
export interface RoundLite {
  id: number;
  date: string;
  year: number;
  stage: string;
  amount_usd: number;
  lead_investor_key: string | null;
  investor_keys: string[];
}

/** A startup (its row without founders, tags parsed) with its rounds and the investors that backed it. */
export interface StartupRecord extends Omit<StartupRow, 'tags' | 'founders'> {
  /** Position in Snapshot.startups (for per-call typed arrays). */
  idx: number;
  tags: string[];
  /** Rounds, oldest first. */
  rounds: RoundLite[];
  investor_keys: Set<string>;
}

/** One deal of an investor: its participation in a round. */
export interface Deal {
  round_id: number;
  startup: StartupRecord;
  stage: string;
  bucket: RaisingStage | null;
  /** Position of the bucket in the raising ladder (-1 when none). */
  bucket_idx: number;
  amount_usd: number;
  date: string;
  year: number;
  is_lead: boolean;
}

/** An investor with its deals, newest first. */
export interface InvestorRecord extends InvestorFields {
  deals: Deal[];
}

/** A country of the countries table. */
export interface CountryRecord {
  name: string;
  iso2: string;
  region: string;
  subregion: string;
  in_eu: boolean;
}

export interface Snapshot {
  version: string;
  startups: StartupRecord[];
  startupsByKey: Map<string, StartupRecord>;
  startupsByDomain: Map<string, StartupRecord>;
  investors: InvestorRecord[];
  investorsByKey: Map<string, InvestorRecord>;
  countries: Map<string, CountryRecord>;
  /** Median round amount per raising stage over all rounds. */
  medianRoundByStage: Map<string, number>;
  /** Median round amount per `${sector}|${raising stage}`. */
  medianRoundBySectorStage: Map<string, number>;
  /** Latest round date in the data (YYYY-MM-DD), '' when there is none. */
  latestRoundDate: string;
  /**
   * The data's "today" (YYYY-MM-DD): the later of the generator's as-of date (meta table) and
   * the latest round, so a round inserted at run time is never in the future.
   */
  refDate: string;
  /** Deals and capital per sector and year. */
  sectorYears: Map<string, Map<number, { deals: number; capital_usd: number }>>;
}

const cache = new WeakMap<DatabaseSync, Snapshot>();

interface DbStartup {
  key: string;
  name: string;
  description: string | null;
  website: string | null;
  domain: string | null;
  hq_city: string | null;
  hq_country: string | null;
  region: string | null;
  sector: string | null;
  subsector: string | null;
  tags: string | null;
  stage: string | null;
  status: string | null;
  founded_year: number | null;
  total_raised_usd: number | null;
}

interface DbRound {
  id: number;
  startup_key: string;
  date: string;
  year: number;
  stage: string;
  amount_usd: number | null;
  lead_investor_key: string | null;
}

interface DbInvestor {
  key: string;
  name: string;
  investor_type: string | null;
  hq_city: string | null;
  hq_country: string | null;
  region: string | null;
  sectors: string | null;
  check_min_usd: number | null;
  check_max_usd: number | null;
  score: number | null;
}

/**
 * A cheap fingerprint of the data the finders read: the connection's total changes (any INSERT,
 * UPDATE or DELETE through it, raw test statements included) plus row counts. The main thread
 * sends it with every scoring job so the scoring threads rebuild their snapshot when it moved.
 */
export function dataVersion(db: DatabaseSync): string {
  const row = db
    .prepare(
      `SELECT total_changes() AS changes,
              (SELECT COUNT(*) FROM rounds) AS rounds, (SELECT COALESCE(MAX(id), 0) FROM rounds) AS max_round,
              (SELECT COUNT(*) FROM startups) AS startups, (SELECT COUNT(*) FROM round_investors) AS links,
              (SELECT COUNT(*) FROM investors) AS investors`,
    )
    .get() as Record<string, number>;
  return [row.changes, row.rounds, row.max_round, row.startups, row.links, row.investors].join(':');
}

function parseJsonArray(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Builds a snapshot of a database, labelled with `version` (a scoring thread builds its own). */
export function buildSnapshot(db: DatabaseSync, version: string): Snapshot {
  const countries = new Map<string, CountryRecord>();
  for (const r of db.prepare('SELECT name, iso2, region, subregion, in_eu FROM countries').all() as Record<
    string,
    unknown
  >[]) {
    countries.set(String(r.name), {
      name: String(r.name),
      iso2: String(r.iso2),
      region: String(r.region),
      subregion: String(r.subregion),
      in_eu: Number(r.in_eu) === 1,
    });
  }

  const startups: StartupRecord[] = [];
  const startupsByKey = new Map<string, StartupRecord>();
  const startupsByDomain = new Map<string, StartupRecord>();
  const rows = db
    .prepare(
      `SELECT key, name, description, website, domain, hq_city, hq_country, region, sector, subsector, tags, stage,
              status, founded_year, total_raised_usd FROM startups ORDER BY key`,
    )
    .all() as unknown as DbStartup[];
  for (const r of rows) {
    const s: StartupRecord = {
      idx: startups.length,
      key: String(r.key),
      name: String(r.name),
      description: r.description ?? '',
      website: r.website ?? '',
      domain: (r.domain ?? '').toLowerCase(),
      hq_city: r.hq_city ?? '',
      hq_country: r.hq_country ?? '',
      region: r.region ?? '',
      sector: r.sector ?? '',
      subsector: r.subsector ?? '',
      tags: parseJsonArray(r.tags),
      stage: r.stage ?? '',
      status: r.status ?? '',
      founded_year: Number(r.founded_year ?? 0),
      total_raised_usd: Number(r.total_raised_usd ?? 0),
      rounds: [],
      investor_keys: new Set(),
    };
    startups.push(s);
    startupsByKey.set(s.key, s);
    if (s.domain) startupsByDomain.set(s.domain, s);
  }

  const rounds = new Map<number, { round: RoundLite; startup: StartupRecord }>();
  const roundRows = db
    .prepare(
      'SELECT id, startup_key, date, year, stage, amount_usd, lead_investor_key FROM rounds ORDER BY date, id',
    )
    .all() as unknown as DbRound[];
  let latestRoundDate = '';
  const sectorYears = new Map<string, Map<number, { deals: number; capital_usd: number }>>();
  const amountsByStage = new Map<string, number[]>();
  const amountsBySectorStage = new Map<string, number[]>();
  for (const r of roundRows) {
    const startup = startupsByKey.get(String(r.startup_key));
    if (!startup) continue;
    const round: RoundLite = {
      id: Number(r.id),
      date: String(r.date),
      year: Number(r.year),
      stage: String(r.stage),
      amount_usd: Number(r.amount_usd ?? 0),
      lead_investor_key: r.lead_investor_key ?? null,
      investor_keys: [],
    };
    startup.rounds.push(round);
    rounds.set(round.id, { round, startup });
    if (round.date > latestRoundDate) latestRoundDate = round.date;
    let years = sectorYears.get(startup.sector);
    if (!years) sectorYears.set(startup.sector, (years = new Map()));
    const y = years.get(round.year) ?? { deals: 0, capital_usd: 0 };
    y.deals += 1;
    y.capital_usd += round.amount_usd;
    years.set(round.year, y);
    const bucket = raisingBucket(round.stage);
    if (bucket && round.amount_usd > 0) {
      push(amountsByStage, bucket, round.amount_usd);
      push(amountsBySectorStage, `${startup.sector}|${bucket}`, round.amount_usd);
    }
  }

  const investors: InvestorRecord[] = [];
  const investorsByKey = new Map<string, InvestorRecord>();
  const invRows = db
    .prepare(
      `SELECT key, name, investor_type, hq_city, hq_country, region, sectors, check_min_usd, check_max_usd, score
       FROM investors ORDER BY key`,
    )
    .all() as unknown as DbInvestor[];
  for (const r of invRows) {
    const inv: InvestorRecord = {
      key: String(r.key),
      name: String(r.name),
      investor_type: r.investor_type ?? '',
      hq_city: r.hq_city ?? '',
      hq_country: r.hq_country ?? '',
      region: r.region ?? '',
      score: Number(r.score ?? 0),
      sectors: parseJsonArray(r.sectors),
      check_min_usd: Number(r.check_min_usd ?? 0),
      check_max_usd: Number(r.check_max_usd ?? 0),
      deals: [],
    };
    investors.push(inv);
    investorsByKey.set(inv.key, inv);
  }

  for (const r of db.prepare('SELECT round_id, investor_key, is_lead FROM round_investors').all() as Record<
    string,
    unknown
  >[]) {
    const entry = rounds.get(Number(r.round_id));
    const inv = investorsByKey.get(String(r.investor_key));
    if (!entry || !inv) continue;
    const { round, startup } = entry;
    round.investor_keys.push(inv.key);
    startup.investor_keys.add(inv.key);
    inv.deals.push({
      round_id: round.id,
      startup,
      stage: round.stage,
      bucket: raisingBucket(round.stage),
      bucket_idx: bucketIndex(raisingBucket(round.stage) ?? ''),
      amount_usd: round.amount_usd,
      date: round.date,
      year: round.year,
      is_lead: Number(r.is_lead) === 1 || round.lead_investor_key === inv.key,
    });
  }
  for (const inv of investors)
    inv.deals.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.round_id - a.round_id));

  const meta = db.prepare("SELECT value FROM meta WHERE key = 'as_of'").get() as
    { value?: unknown } | undefined;
  const asOf = typeof meta?.value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(meta.value) ? meta.value : '';
  const refDate = [asOf, latestRoundDate].sort().at(-1) || new Date().toISOString().slice(0, 10);

  return {
    version,
    refDate,
    startups,
    startupsByKey,
    startupsByDomain,
    investors,
    investorsByKey,
    countries,
    medianRoundByStage: medians(amountsByStage),
    medianRoundBySectorStage: medians(amountsBySectorStage),
    latestRoundDate,
    sectorYears,
  };
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function medians(map: Map<string, number[]>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of map) out.set(k, median(v));
  return out;
}

/**
 * The finders' snapshot of a database: built on first use, reused while the data is unchanged.
 *
 * @example
 * const snap = getSnapshot(db);
 * snap.investorsByKey.get('northwind-ventures')?.deals.length;
 */
export function getSnapshot(db: DatabaseSync): Snapshot {
  const version = dataVersion(db);
  const cached = cache.get(db);
  if (cached && cached.version === version) return cached;
  const snap = buildSnapshot(db, version);
  cache.set(db, snap);
  return snap;
}

/** Typical round amount at a raising stage, in a sector when the sector has enough rounds. */
export function typicalRound(snap: Snapshot, stage: string, sector?: string): number {
  if (sector) {
    const v = snap.medianRoundBySectorStage.get(`${sector}|${stage}`);
    if (v && v > 0) return v;
  }
  return snap.medianRoundByStage.get(stage) ?? 0;
}
