/**
 * Inserts a startup (and its rounds) into a running sandbox's database, filling plausible
 * defaults, so tests can create exactly the company they need (a formula-like name, a round
 * this week in a given country...).
 */
import type { DatabaseSync } from 'node:sqlite';
import { resolveCountry } from './data/countries.js';
import { slugify } from './data/names.js';
import type { RoundRow, StartupRow } from './types.js';

function uniqueKey(db: DatabaseSync, base: string): string {
  const exists = db.prepare('SELECT 1 FROM startups WHERE key = ?');
  let key = base;
  for (let n = 2; exists.get(key); n += 1) key = `${base}-${n}`;
  return key;
}

/** The canonical country row for a name, ISO code or alias. */
function findCountry(db: DatabaseSync, name: string): { name: string; region: string } | undefined {
  const canonical = resolveCountry(name) ?? name.trim();
  return db.prepare('SELECT name, region FROM countries WHERE name = ?').get(canonical) as
    { name: string; region: string } | undefined;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Inserts a startup and optional rounds in one transaction; returns the startup key.
 * The key is a unique slug of the name unless given; total_raised_usd is the sum of the
 * rounds unless given; the stage is the latest round's unless given; rounds default to
 * today, a 2 000 000 USD seed round and no lead. An unknown country throws.
 *
 * @example
 * insertStartup(db, { name: '=HYPERLINK("http://x","y")', hq_country: 'Germany' }, [{ amount_usd: 3_000_000 }], new Date());
 * // 'hyperlink-http-x-y'
 */
export function insertStartup(
  db: DatabaseSync,
  startup: Partial<StartupRow> & { name: string; hq_country: string },
  rounds: Partial<RoundRow>[] = [],
  now: Date = new Date(),
): string {
  const country = findCountry(db, startup.hq_country);
  if (!country) throw new Error(`insertStartup: unknown country '${startup.hq_country}'`);
  const key = startup.key ?? uniqueKey(db, slugify(startup.name) || 'startup');
  const today = isoDate(now);
  const fullRounds = rounds.map((r) => {
    const date = r.date ?? today;
    return {
      id: r.id,
      date,
      year: r.year ?? Number(date.slice(0, 4)),
      stage: r.stage ?? startup.stage ?? 'seed',
      amount_usd: r.amount_usd ?? 2_000_000,
      lead_investor_key: r.lead_investor_key ?? null,
    };
  });
  const latest = [...fullRounds].sort((a, b) => a.date.localeCompare(b.date)).at(-1);
  const sector = startup.sector ?? 'Software & Developer Tools';
  const subsectorRow = db
    .prepare('SELECT subsector FROM startups WHERE sector = ? ORDER BY key LIMIT 1')
    .get(sector) as { subsector: string } | undefined;
  const cityRow = db
    .prepare('SELECT hq_city FROM startups WHERE hq_country = ? ORDER BY key LIMIT 1')
    .get(country.name) as { hq_city: string } | undefined;
  const website = startup.website ?? `https://${key}.example.com`;
  let domain = startup.domain;
  if (!domain) {
    try {
      domain = new URL(website).hostname.replace(/^www\./, '');
    } catch {
      domain = `${key}.example.com`;
    }
  }
  const row: StartupRow = {
    key,
    name: startup.name,
    description: startup.description ?? `${startup.name} builds software for businesses in ${country.name}.`,
    website,
    domain,
    hq_city: startup.hq_city ?? cityRow?.hq_city ?? country.name,
    hq_country: country.name,
    region: startup.region ?? country.region,
    sector,
    subsector: startup.subsector ?? subsectorRow?.subsector ?? sector,
    tags: startup.tags ?? '[]',
    stage: startup.stage ?? latest?.stage ?? 'seed',
    status: startup.status ?? 'active',
    founded_year: startup.founded_year ?? now.getUTCFullYear() - 2,
    founders: startup.founders ?? '[]',
    total_raised_usd: startup.total_raised_usd ?? fullRounds.reduce((sum, r) => sum + r.amount_usd, 0),
  };

  db.exec('BEGIN');
  try {
    db.prepare(
      `INSERT INTO startups (key, name, description, website, domain, hq_city, hq_country, region, sector, subsector, tags,
         stage, status, founded_year, founders, total_raised_usd)
       VALUES (:key, :name, :description, :website, :domain, :hq_city, :hq_country, :region, :sector, :subsector, :tags,
         :stage, :status, :founded_year, :founders, :total_raised_usd)`,
    ).run({ ...row });
    const insertRound = db.prepare(
      'INSERT INTO rounds (id, startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertLead = db.prepare(
      'INSERT INTO round_investors (round_id, investor_key, is_lead) VALUES (?, ?, 1)',
    );
    for (const r of fullRounds) {
      const info = insertRound.run(
        r.id ?? null,
        key,
        r.date,
        r.year,
        r.stage,
        r.amount_usd,
        r.lead_investor_key,
      );
      if (r.lead_investor_key) insertLead.run(Number(info.lastInsertRowid), r.lead_investor_key);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return key;
}
