/**
 * Enumerations of the Venture Intelligence Service, verbatim from the spec.
 */

/** The 8 sectors of the service's classification, verbatim. */
export const SECTORS = [
  'Artificial Intelligence & Data',
  'Commerce & Marketing',
  'Consumer, Lifestyle & Services',
  'Energy, Environment & Mobility',
  'Finance & Blockchain',
  'Healthcare & Life Sciences',
  'Industry & Hardware',
  'Software & Developer Tools',
] as const;
export type Sector = (typeof SECTORS)[number];

/** find_investors raising_stage values. */
export const RAISING_STAGES = ['pre-seed', 'seed', 'series-a', 'series-b', 'series-c-plus'] as const;
export type RaisingStage = (typeof RAISING_STAGES)[number];

/** find_investors investor_region values. */
export const INVESTOR_REGIONS = [
  'europe',
  'eu',
  'cee',
  'dach',
  'nordics',
  'north america',
  'n america',
  'us',
  'uk',
  'apac',
  'asia',
  'latam',
  'mena',
  'africa',
  'global',
] as const;
export type InvestorRegion = (typeof INVESTOR_REGIONS)[number];

/** Key scopes. */
export const SCOPES = ['read', 'ask', 'finder'] as const;
export type Scope = (typeof SCOPES)[number];

/** Plans. */
export const PLANS = ['free', 'paid'] as const;
export type Plan = (typeof PLANS)[number];

/** Account types the spec's summary table distinguishes. */
export const ACCOUNT_TYPES = ['startup', 'investor', 'service_provider', 'organisation'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** search_investors sort values. */
export const INVESTOR_SORTS = ['score', 'investments'] as const;
export type InvestorSort = (typeof INVESTOR_SORTS)[number];
