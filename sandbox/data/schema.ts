/**
 * The sandbox database schema (node:sqlite). The generator fills it; handlers read it.
 * JSON columns hold JSON text. Stages use the service's slugs.
 */
export const STAGES = [
  'pre-seed',
  'seed',
  'series-a',
  'series-b',
  'series-c',
  'series-d-plus',
  'growth',
] as const;
export const STARTUP_STATUSES = ['active', 'acquired', 'closed', 'ipo'] as const;
export const INVESTOR_TYPES = ['VC', 'Angel', 'Corporate VC', 'Accelerator'] as const;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS countries (
  name TEXT PRIMARY KEY,          -- canonical name, e.g. 'United States'
  iso2 TEXT NOT NULL,             -- 'US'
  region TEXT NOT NULL,           -- 'North America', 'Europe', 'Asia', 'Latin America', 'Middle East & Africa', 'Oceania'
  subregion TEXT NOT NULL,        -- e.g. 'DACH', 'Nordics', 'CEE', 'Western Europe', 'Southern Europe', 'MENA', 'Sub-Saharan Africa', 'South Asia', 'East Asia', 'Southeast Asia'
  in_eu INTEGER NOT NULL,         -- 1 for EU members
  aliases TEXT NOT NULL           -- JSON array of lowercase aliases: ['us','usa','united states of america']
);

CREATE TABLE IF NOT EXISTS investors (
  key TEXT PRIMARY KEY,           -- normalized_key slug, e.g. 'northwind-ventures'
  name TEXT NOT NULL,
  investor_type TEXT NOT NULL,    -- VC | Angel | Corporate VC | Accelerator
  hq_city TEXT NOT NULL,
  hq_country TEXT NOT NULL REFERENCES countries(name),
  region TEXT NOT NULL,
  website TEXT,
  founded_year INTEGER,
  sectors TEXT NOT NULL,          -- JSON array of sector names (primary first)
  stage_mix TEXT NOT NULL,        -- JSON object stage -> share (0..1)
  check_min_usd INTEGER NOT NULL,
  check_max_usd INTEGER NOT NULL,
  score REAL NOT NULL,            -- 0..100
  thesis TEXT NOT NULL,
  team TEXT NOT NULL              -- JSON array of { name, role }
);

CREATE TABLE IF NOT EXISTS startups (
  key TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  website TEXT NOT NULL,
  domain TEXT NOT NULL,
  hq_city TEXT NOT NULL,
  hq_country TEXT NOT NULL REFERENCES countries(name),
  region TEXT NOT NULL,
  sector TEXT NOT NULL,
  subsector TEXT NOT NULL,
  tags TEXT NOT NULL,             -- JSON array
  stage TEXT NOT NULL,            -- latest stage
  status TEXT NOT NULL,
  founded_year INTEGER NOT NULL,
  founders TEXT NOT NULL,         -- JSON array of { name, role }
  total_raised_usd INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS rounds (
  id INTEGER PRIMARY KEY,
  startup_key TEXT NOT NULL REFERENCES startups(key),
  date TEXT NOT NULL,             -- YYYY-MM-DD
  year INTEGER NOT NULL,
  stage TEXT NOT NULL,
  amount_usd INTEGER NOT NULL,
  lead_investor_key TEXT REFERENCES investors(key)
);

CREATE TABLE IF NOT EXISTS round_investors (
  round_id INTEGER NOT NULL REFERENCES rounds(id),
  investor_key TEXT NOT NULL REFERENCES investors(key),
  is_lead INTEGER NOT NULL,
  PRIMARY KEY (round_id, investor_key)
);

CREATE INDEX IF NOT EXISTS idx_startups_country ON startups(hq_country);
CREATE INDEX IF NOT EXISTS idx_startups_sector ON startups(sector);
CREATE INDEX IF NOT EXISTS idx_startups_domain ON startups(domain);
CREATE INDEX IF NOT EXISTS idx_startups_name ON startups(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS idx_investors_country ON investors(hq_country);
CREATE INDEX IF NOT EXISTS idx_investors_score ON investors(score DESC, key);
CREATE INDEX IF NOT EXISTS idx_rounds_startup ON rounds(startup_key);
CREATE INDEX IF NOT EXISTS idx_rounds_year ON rounds(year);
CREATE INDEX IF NOT EXISTS idx_rounds_date ON rounds(date);
CREATE INDEX IF NOT EXISTS idx_round_investors_investor ON round_investors(investor_key);
`;
