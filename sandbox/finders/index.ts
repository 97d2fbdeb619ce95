/**
 * The sandbox's finders: find_investors, find_startups_for_fund and find_customers scoring,
 * and the readers they share (startup snapshot, text and taxonomy, places, stages, momentum).
 */
export { getSnapshot, typicalRound } from './snapshot.js';
export type { Snapshot, StartupRecord, InvestorRecord, Deal, RoundLite, CountryRecord } from './snapshot.js';
export {
  classifyText,
  canonicalSubsector,
  canonicalTag,
  sectorOfSubsector,
  sectorOfTag,
  subsectorsOfTag,
} from './classify.js';
export type { Classification } from './classify.js';
export { readStartup } from './read-startup.js';
export type { StartupProfile, ReadStartup } from './read-startup.js';
export { readBrief } from './brief.js';
export type { BriefReading } from './brief.js';
export { expandPlaces, proximity, areaOf, countriesInText, countryInText } from './geo.js';
export type { Places } from './geo.js';
export {
  stageIndex,
  raisingBucket,
  bucketIndex,
  nextRaisingStage,
  stageLabel,
  parseStage,
} from './stages.js';
export { usd, usdRange, median, quantile, pct, logCloseness } from './money.js';
export { momentumOf, daysBefore, monthsBetween } from './momentum.js';
export type { Momentum } from './momentum.js';
export { sellerKind, needOf, needScore } from './needs.js';
export type { SellerKind } from './needs.js';
export { normaliseDomain, words, hostWords, titleCase } from './text.js';
export { barChart, comboChart, countRows, fitBuckets } from './charts.js';
export type { SeriesItem } from './charts.js';
export { rankInvestors, findTwins, INVESTOR_WEIGHTS } from './score-investors.js';
export type {
  InvestorMatch,
  InvestorQuery,
  InvestorRanking,
  ComparableDeal,
  Twin,
} from './score-investors.js';
export { findInvestors, requestedPlaces } from './investors-result.js';
export type { FindInvestorsOutcome, InvestorItem } from './investors-result.js';
export { rankForFund, analystNote, FUND_WEIGHTS, CONFLICT_PENALTY } from './score-fund.js';
export type { FundMatch, FundRanking } from './score-fund.js';
export { runFundMatch, savedBatches, NOTED_MATCHES } from './fund-result.js';
export type { MatchBatch, FundEntry, FundOutcome } from './fund-result.js';
export { rankCustomers, CUSTOMER_WEIGHTS } from './score-customers.js';
export type { CustomerMatch, CustomerTarget, CustomerRanking } from './score-customers.js';
export {
  findCustomers,
  pickOrganisation,
  buildTarget,
  repeatKey,
  decideRepeat,
  REPEAT_FREE_MS,
} from './customers-result.js';
export type { CustomersOutcome, TargetSources } from './customers-result.js';
