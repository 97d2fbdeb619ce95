/**
 * Every question pattern of the data agent, in the order they are tried (the most specific
 * first; the first that matches answers).
 */
import type { Pattern } from '../pattern.js';
import { coInvestors, investorActivityByYear, investorPortfolio, startupFunding } from './entities.js';
import {
  investorCount,
  investorList,
  investorsPerCountry,
  investorTypes,
  topInvestorsByDeals,
  topInvestorsByScore,
  topLeadInvestors,
} from './investors.js';
import {
  capitalByMonth,
  capitalByQuarter,
  capitalByYear,
  dealsByMonth,
  dealsByQuarter,
  dealsByYear,
  roundsByStage,
  roundSizeByStage,
} from './round-breakdowns.js';
import { fastestGrowingSectors, fundingChange } from './round-changes.js';
import {
  capitalByRegion,
  dealsByRegion,
  topCitiesCapital,
  topCitiesDeals,
  topCountriesCapital,
  topCountriesDeals,
  topSectorsCapital,
  topSectorsDeals,
} from './round-rankings.js';
import {
  averageRound,
  capitalTotal,
  largestRounds,
  latestRounds,
  medianRound,
  roundCount,
} from './rounds.js';
import {
  startupCount,
  startupsByStage,
  startupsByStatus,
  startupsFounded,
  startupsPerCity,
  startupsPerCountry,
  startupsPerSector,
  startupsThatRaised,
  topFundedStartups,
} from './startups.js';

export { findEntity } from './entities.js';

/** The patterns in matching order. */
export const PATTERNS: readonly Pattern[] = [
  // One named investor or startup.
  coInvestors,
  investorActivityByYear,
  investorPortfolio,
  startupFunding,
  // Comparisons between years.
  fastestGrowingSectors,
  fundingChange,
  // Investors.
  investorTypes,
  investorsPerCountry,
  topInvestorsByScore,
  topLeadInvestors,
  topInvestorsByDeals,
  investorCount,
  investorList,
  // Startups.
  startupsFounded,
  startupsByStatus,
  startupsPerCountry,
  startupsPerCity,
  startupsPerSector,
  startupsByStage,
  topFundedStartups,
  startupsThatRaised,
  startupCount,
  // Rounds: breakdowns, rankings, sizes, lists, totals.
  dealsByQuarter,
  capitalByQuarter,
  dealsByMonth,
  capitalByMonth,
  roundSizeByStage,
  roundsByStage,
  dealsByYear,
  capitalByYear,
  topCountriesDeals,
  topCountriesCapital,
  topSectorsDeals,
  topSectorsCapital,
  topCitiesDeals,
  topCitiesCapital,
  dealsByRegion,
  capitalByRegion,
  medianRound,
  averageRound,
  largestRounds,
  latestRounds,
  roundCount,
  capitalTotal,
];
