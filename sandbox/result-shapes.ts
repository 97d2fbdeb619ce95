/**
 * What the sandbox returns inside `data` and in each chart: one reading of the spec, where it
 * says "not shown". These shapes document the sandbox's OpenAPI document and its tests; the
 * runner never reads the service through them (it reads `data` with the tolerant accessors of
 * api/read.ts, so the real service may choose other names and forms).
 */
import { z } from 'zod';
import type { OperationName } from '../api/operations.js';

const num = z.number().nullable().optional();
const str = z.string().nullable().optional();
const strs = z.array(z.string()).nullable().optional();

export const InvestorRefSchema = z.looseObject({ key: z.string(), name: str, url: str });

export const InvestorSummarySchema = z.looseObject({
  key: z.string(),
  name: z.string(),
  investor_type: str,
  hq_city: str,
  hq_country: str,
  region: str,
  sectors: strs,
  score: num,
  investments_count: num,
  check_min_usd: num,
  check_max_usd: num,
  url: str,
});
export type InvestorSummary = z.infer<typeof InvestorSummarySchema>;

export const StartupSummarySchema = z.looseObject({
  key: z.string(),
  name: z.string(),
  description: str,
  website: str,
  hq_city: str,
  hq_country: str,
  sector: str,
  subsector: str,
  stage: str,
  status: str,
  total_raised_usd: num,
  last_round_date: str,
  last_round_amount_usd: num,
  url: str,
});
export type StartupSummary = z.infer<typeof StartupSummarySchema>;

const pageFields = {
  total: z.number().int().nullable().optional(),
  limit: num,
  offset: num,
  next_offset: z.number().int().nullable().optional(),
};

export const SearchInvestorsDataSchema = z.looseObject({
  investors: z.array(InvestorSummarySchema),
  ...pageFields,
});
export type SearchInvestorsData = z.infer<typeof SearchInvestorsDataSchema>;

export const SearchStartupsDataSchema = z.looseObject({
  startups: z.array(StartupSummarySchema),
  ...pageFields,
});
export type SearchStartupsData = z.infer<typeof SearchStartupsDataSchema>;

export const RoundSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).optional(),
  date: str,
  stage: str,
  amount_usd: num,
  lead_investors: z.array(InvestorRefSchema).nullable().optional(),
  investors: z.array(InvestorRefSchema).nullable().optional(),
});

export const GetInvestorDataSchema = z.looseObject({
  investor: InvestorSummarySchema.extend({
    thesis: str,
    team: z
      .array(z.looseObject({ name: z.string(), role: str }))
      .nullable()
      .optional(),
    scores: z.record(z.string(), z.unknown()).nullable().optional(),
    sector_mix: z
      .array(z.looseObject({ sector: z.string() }))
      .nullable()
      .optional(),
    stage_mix: z
      .array(z.looseObject({ stage: z.string() }))
      .nullable()
      .optional(),
    investments_by_year: z
      .array(z.looseObject({ year: z.number() }))
      .nullable()
      .optional(),
    recent_portfolio: z
      .array(z.looseObject({ key: z.string().optional(), name: z.string() }))
      .nullable()
      .optional(),
  }),
});
export type GetInvestorData = z.infer<typeof GetInvestorDataSchema>;

export const GetStartupDataSchema = z.looseObject({
  startup: StartupSummarySchema.extend({
    founders: z
      .array(z.looseObject({ name: z.string(), role: str }))
      .nullable()
      .optional(),
    rounds: z.array(RoundSchema).nullable().optional(),
    tags: strs,
    subsectors: strs,
    founded_year: num,
  }),
});
export type GetStartupData = z.infer<typeof GetStartupDataSchema>;

export const CountryOverviewDataSchema = z.looseObject({
  country: z.string(),
  region: str,
  as_of: str,
  by_year: z.array(z.looseObject({ year: z.number(), deals: z.number(), capital_usd: z.number() })),
  stage_mix: z
    .array(z.looseObject({ stage: z.string(), deals: z.number(), capital_usd: num }))
    .nullable()
    .optional(),
  top_sectors: z
    .array(z.looseObject({ sector: z.string(), deals: z.number(), capital_usd: num }))
    .nullable()
    .optional(),
  most_active_investors: z
    .array(
      z.looseObject({ key: z.string().optional(), name: z.string(), deals: z.number(), lead_deals: num }),
    )
    .nullable()
    .optional(),
});
export type CountryOverviewData = z.infer<typeof CountryOverviewDataSchema>;

export const AskDataSchema = z.looseObject({
  answer: z.string(),
  mapped: z.boolean().optional(),
  columns: strs,
  rows: z.array(z.record(z.string(), z.unknown())).nullable().optional(),
  sql: str,
});
export type AskData = z.infer<typeof AskDataSchema>;

export const MyAccountDataSchema = z.looseObject({
  plan: z.string(),
  credits_balance: z.number().nullable().optional(),
  tools: z.array(z.string()).nullable().optional(),
  scopes: strs,
  account_type: str,
  account_name: str,
  rate_limits: z.looseObject({ per_minute: num, per_day: num }).nullable().optional(),
});
export type MyAccountData = z.infer<typeof MyAccountDataSchema>;

export const FindInvestorsDataSchema = z.looseObject({
  startup: z.record(z.string(), z.unknown()),
  investors: z
    .array(
      z.looseObject({
        key: z.string().optional(),
        name: z.string(),
        fit_pct: z.number(),
        why: z.union([z.array(z.string()), z.string()]),
        url: z.string(),
      }),
    )
    .max(50),
});
export type FindInvestorsData = z.infer<typeof FindInvestorsDataSchema>;

const rankedStartup = z.looseObject({
  key: z.string(),
  name: z.string(),
  fit_pct: z.number(),
  why: z.union([z.array(z.string()), z.string()]).optional(),
  url: str,
});

export const FindStartupsForFundDataSchema = z.looseObject({
  startups: z.array(rankedStartup),
  batch_id: str,
});
export type FindStartupsForFundData = z.infer<typeof FindStartupsForFundDataSchema>;

export const FindCustomersDataSchema = z.looseObject({
  customers: z.array(rankedStartup.extend({ momentum: z.unknown().optional() })),
});
export type FindCustomersData = z.infer<typeof FindCustomersDataSchema>;

export const DeckAnalysisDataSchema = z.looseObject({
  room_id: z.string(),
  status: z.string(),
  analysis: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type DeckAnalysisData = z.infer<typeof DeckAnalysisDataSchema>;

/** A chart spec as the sandbox returns it (type, title, xKey, series, data, unit). */
export const ChartSpecSchema = z.looseObject({
  type: z.string(),
  title: z.string().optional(),
  xKey: z.string().optional(),
  /** Shape not shown by the spec: the sandbox gives objects ({ key, name?, type? }). */
  series: z.array(z.unknown()).optional(),
  data: z.array(z.record(z.string(), z.unknown())).optional(),
  unit: z.string().nullable().optional(),
});

/** The sandbox's `data` of each operation. */
export const RESULT_SHAPES: Record<OperationName, z.ZodType> = {
  my_account: MyAccountDataSchema,
  ask: AskDataSchema,
  find_investors: FindInvestorsDataSchema,
  analyze_deck: DeckAnalysisDataSchema,
  get_deck_analysis: DeckAnalysisDataSchema,
  find_startups_for_fund: FindStartupsForFundDataSchema,
  find_customers: FindCustomersDataSchema,
  search_investors: SearchInvestorsDataSchema,
  get_investor: GetInvestorDataSchema,
  search_startups: SearchStartupsDataSchema,
  get_startup: GetStartupDataSchema,
  country_overview: CountryOverviewDataSchema,
};
/** A chart as the sandbox builds it. */
export type ChartSpec = z.infer<typeof ChartSpecSchema>;
