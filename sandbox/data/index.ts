/**
 * The sandbox's deterministic generated database and its reference data.
 *
 * - openSandboxDatabase: the database for a seed, as-of date and scale (cached on disk, private in-memory copy)
 * - datasetHash: content hash of a database
 * - COUNTRIES, resolveCountry, REGION_COUNTRIES: countries, aliases and investor regions
 * - TAXONOMY: the 8 sectors' subsectors, tags and description keywords
 */
export {
  DEFAULT_DATA_DIR,
  DEFAULT_SEED,
  SANDBOX_TEST_AS_OF,
  ensureSandboxDatabase,
  openSandboxDatabase,
  sandboxDatabasePath,
} from './open.js';
export type { OpenSandboxOptions, SandboxDatabase } from './open.js';
export { datasetHash } from './hash.js';
export {
  DATASET_SIZE,
  GENERATOR_VERSION,
  MAX_DATASET_SCALE,
  datasetSize,
  generateData,
  populateDatabase,
} from './generate.js';
export {
  COUNTRIES,
  COUNTRY_REGIONS,
  LEADING_COUNTRIES,
  REGION_COUNTRIES,
  countriesOfRegion,
  getCountry,
  resolveCountry,
} from './countries.js';
export type { Country, CountryRegion } from './countries.js';
export { ALL_TAGS, SUBSECTORS, TAXONOMY } from './taxonomy.js';
export type { SectorTaxonomy, Subsector } from './taxonomy.js';
export { ROUND_SIZE, YEAR_CAPITAL_INDEX, YEAR_DEAL_INDEX } from './market.js';
export type { Stage } from './market.js';
export { WINDOW_START, todayUtc } from './calendar.js';
export { slugify } from './names.js';
export { INVESTOR_TYPES, SCHEMA_SQL, STAGES, STARTUP_STATUSES } from './schema.js';
