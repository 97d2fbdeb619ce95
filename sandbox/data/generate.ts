/**
 * Builds the whole sandbox database from a seed, an as-of date and a scale: schema, countries,
 * investors, startups, rounds, round investors and the meta row. Pure function of
 * (seed, asOf, scale, GENERATOR_VERSION): the same inputs give the same rows.
 */
import type { DatabaseSync } from 'node:sqlite';
import { assignInvestors, scoreInvestors } from './assign-investors.js';
import { Calendar, parseAsOf, WINDOW_START } from './calendar.js';
import { COUNTRIES } from './countries.js';
import type { InvestorRec } from './generate-investors.js';
import { generateInvestors } from './generate-investors.js';
import type { RoundRec, StartupRec } from './generate-startups.js';
import { generateStartups } from './generate-startups.js';
import { datasetHash } from './hash.js';
import { Rng } from './prng.js';
import { SCHEMA_SQL, STAGES } from './schema.js';
import { giveScriptNames } from './script-names.js';

/** Bump when the generator's output changes: cached files of other versions are rebuilt. */
export const GENERATOR_VERSION = '3';

/** How many records a build of scale 1 makes. */
export const DATASET_SIZE = { investors: 5_400, startups: 21_000 } as const;

/** The largest scale a build accepts (scale 20: 420,000 startups). */
export const MAX_DATASET_SCALE = 20;

/**
 * How many investors and startups a build of `scale` makes: DATASET_SIZE times the scale, so
 * the shares per country, sector and stage stay those of scale 1.
 * @example datasetSize(5) // { investors: 27_000, startups: 105_000 }
 */
export function datasetSize(scale: number): { investors: number; startups: number } {
  if (!Number.isSafeInteger(scale) || scale < 1 || scale > MAX_DATASET_SCALE)
    throw new RangeError(`scale must be an integer from 1 to ${MAX_DATASET_SCALE}, got ${String(scale)}`);
  return { investors: DATASET_SIZE.investors * scale, startups: DATASET_SIZE.startups * scale };
}

export interface GenerateOptions {
  seed: number;
  /** YYYY-MM-DD; the data covers 2020-01-01 to this date. */
  asOf: string;
  /** Times DATASET_SIZE (default 1); scale 1's data does not record it (meta has no scale row). */
  scale?: number;
}

export interface GeneratedData {
  investors: InvestorRec[];
  startups: StartupRec[];
  rounds: RoundRec[];
  calendar: Calendar;
}

/** Generates every record in memory. */
export function generateData(opts: GenerateOptions): GeneratedData {
  const calendar = new Calendar(parseAsOf(opts.asOf));
  const size = datasetSize(opts.scale ?? 1);
  const investors = generateInvestors(new Rng(opts.seed, 1), size.investors);
  const { startups, rounds } = generateStartups(new Rng(opts.seed, 2), calendar, size.startups);
  assignInvestors(new Rng(opts.seed, 3), investors, startups, rounds);
  scoreInvestors(new Rng(opts.seed, 4), calendar, investors, rounds);
  giveScriptNames(new Rng(opts.seed, 5), startups, rounds, investors);
  return { investors, startups, rounds, calendar };
}

/** Splits SCHEMA_SQL into table statements and index statements (indexes are built after the load). */
function schemaParts(): { tables: string; indexes: string } {
  const statements = SCHEMA_SQL.split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return {
    tables:
      statements.filter((s) => !/^CREATE\s+INDEX/i.test(s.replace(/^(--[^\n]*\n\s*)+/, ''))).join(';\n') +
      ';',
    indexes:
      statements.filter((s) => /^CREATE\s+INDEX/i.test(s.replace(/^(--[^\n]*\n\s*)+/, ''))).join(';\n') + ';',
  };
}

/**
 * Creates the schema in an empty database and fills it (one transaction, prepared statements).
 * Returns the dataset hash, which is also stored in meta as dataset_hash.
 */
export function populateDatabase(db: DatabaseSync, opts: GenerateOptions): string {
  const data = generateData(opts);
  const { tables, indexes } = schemaParts();
  db.exec(tables);
  db.exec('BEGIN');
  try {
    writeRows(db, data, opts);
    db.exec(indexes);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
  db.exec('ANALYZE');
  const hash = datasetHash(db);
  db.prepare("INSERT INTO meta (key, value) VALUES ('dataset_hash', ?)").run(hash);
  return hash;
}

function writeRows(db: DatabaseSync, data: GeneratedData, opts: GenerateOptions): void {
  const { investors, startups, rounds, calendar } = data;

  const insertCountry = db.prepare(
    'INSERT INTO countries (name, iso2, region, subregion, in_eu, aliases) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const c of [...COUNTRIES].sort((a, b) => a.name.localeCompare(b.name))) {
    insertCountry.run(c.name, c.iso2, c.region, c.subregion, c.in_eu ? 1 : 0, JSON.stringify(c.aliases));
  }

  const insertInvestor = db.prepare(
    `INSERT INTO investors (key, name, investor_type, hq_city, hq_country, region, website, founded_year, sectors,
       stage_mix, check_min_usd, check_max_usd, score, thesis, team)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const inv of investors) {
    insertInvestor.run(
      inv.key,
      inv.name,
      inv.type,
      inv.city,
      inv.country.name,
      inv.country.region,
      inv.website,
      inv.foundedYear,
      JSON.stringify(inv.sectors),
      JSON.stringify(inv.stageMix),
      inv.checkMin,
      inv.checkMax,
      inv.score,
      inv.thesis,
      JSON.stringify(inv.team),
    );
  }

  const insertStartup = db.prepare(
    `INSERT INTO startups (key, name, description, website, domain, hq_city, hq_country, region, sector, subsector, tags,
       stage, status, founded_year, founders, total_raised_usd)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const s of startups) {
    let total = 0;
    let stageIdx = 0;
    for (const ri of s.rounds) {
      const r = rounds[ri] as RoundRec;
      total += r.amount;
      stageIdx = r.stageIdx;
    }
    insertStartup.run(
      s.key,
      s.name,
      s.description,
      s.website,
      s.domain,
      s.city,
      s.country.name,
      s.country.region,
      s.sector,
      s.subsector.name,
      JSON.stringify(s.tags),
      STAGES[stageIdx] ?? 'seed',
      s.status,
      s.foundedYear,
      JSON.stringify(s.founders),
      total,
    );
  }

  // Round ids follow the calendar: by date, then startup, then stage.
  const order = rounds.map((_, i) => i);
  order.sort((a, b) => {
    const ra = rounds[a] as RoundRec;
    const rb = rounds[b] as RoundRec;
    return ra.day - rb.day || ra.startup - rb.startup || ra.stageIdx - rb.stageIdx || a - b;
  });
  const insertRound = db.prepare(
    'INSERT INTO rounds (id, startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertMember = db.prepare(
    'INSERT INTO round_investors (round_id, investor_key, is_lead) VALUES (?, ?, ?)',
  );
  order.forEach((ri, k) => {
    const r = rounds[ri] as RoundRec;
    const id = k + 1;
    const lead = investors[r.lead] as InvestorRec;
    insertRound.run(
      id,
      (startups[r.startup] as StartupRec).key,
      calendar.dateOf(r.day),
      calendar.yearOf(r.day),
      STAGES[r.stageIdx] ?? 'seed',
      r.amount,
      lead.key,
    );
    for (const m of r.investors)
      insertMember.run(id, (investors[m] as InvestorRec).key, m === r.lead ? 1 : 0);
  });

  const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  insertMeta.run('seed', String(opts.seed));
  insertMeta.run('as_of', calendar.asOf);
  insertMeta.run('generator_version', GENERATOR_VERSION);
  insertMeta.run('window_start', WINDOW_START);
  // Scale 1 keeps the rows (and so the hash) of the builds made before scales existed.
  const scale = opts.scale ?? 1;
  if (scale !== 1) insertMeta.run('scale', String(scale));
}
