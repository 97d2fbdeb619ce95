/**
 * SQL helpers of the sandbox's read operations (search_investors, search_startups,
 * get_investor, get_startup, country_overview) and their HTML views.
 */
export { dataAsOf, FIRST_YEAR, trailingStart } from './as-of.js';
export {
  countryOverview,
  MEGA_ROUND_USD,
  RECENT_YEARS,
  type CountryOverview,
  type YearRow,
} from './country-overview.js';
export {
  byStageLadder,
  countryFilter,
  investorTypeFilter,
  matchSectors,
  regionFilter,
  sectorFilter,
  stagesFilter,
  suggestCountries,
} from './filters.js';
export {
  investorProfile,
  searchInvestors,
  type InvestorProfile,
  type InvestorSearchResult,
  type InvestorSummaryRow,
} from './investors.js';
export {
  searchStartups,
  startupProfile,
  STARTUP_ORDER,
  type InvestorRef,
  type StartupProfile,
  type StartupRound,
  type StartupSearchResult,
  type StartupSummaryRow,
} from './startups.js';
export { ensureStats, memoized } from './stats.js';
export { parseJson, prepared } from './statements.js';
export { accountUrl, countryUrl, investorUrl, searchUrl, startupUrl } from './urls.js';
export { pageFields, Where } from './where.js';
