/**
 * zod schemas of every operation's parameters, with every bound and enum of the spec.
 * Schemas are strict: an unknown parameter is an error naming it (typos never pass silently).
 */
import { z } from 'zod';
import { CATALOG } from './catalog.js';
import { INVESTOR_REGIONS, INVESTOR_SORTS, RAISING_STAGES, SECTORS } from './enums.js';

const nonEmpty = (what: string) =>
  z
    .string()
    .trim()
    .min(1, { message: `${what} must not be empty` });
const stringArray = (what: string) =>
  z.array(nonEmpty(what)).min(1, { message: `${what} must list at least one value` });

/** limit with the operation's range and default. */
export const limitSchema = (max: number, dflt: number) =>
  z
    .number({ message: `limit must be an integer from 1 to ${max}` })
    .int({ message: `limit must be an integer from 1 to ${max}` })
    .min(1, { message: `limit must be at least 1 (1 to ${max})` })
    .max(max, { message: `limit must be at most ${max} (1 to ${max})` })
    .default(dflt);

export const offsetSchema = z
  .number({ message: 'offset must be an integer >= 0' })
  .int({ message: 'offset must be an integer >= 0' })
  .min(0, { message: 'offset must be at least 0' })
  .default(0);

export const sectorSchema = z.enum(SECTORS, { message: `sector must be one of: ${SECTORS.join('; ')}` });

export const MyAccountParams = z.object({}).strict();

export const AskParams = z
  .object({
    query: z
      .string({ message: 'query is required (3 to 500 characters)' })
      .min(3, { message: 'query must be at least 3 characters (3 to 500)' })
      .max(500, { message: 'query must be at most 500 characters (3 to 500)' }),
  })
  .strict();

export const FindInvestorsParams = z
  .object({
    website: nonEmpty('website').optional(),
    description: nonEmpty('description').optional(),
    raising_stage: z
      .enum(RAISING_STAGES, { message: `raising_stage must be one of: ${RAISING_STAGES.join(', ')}` })
      .optional(),
    investor_region: z
      .enum(INVESTOR_REGIONS, { message: `investor_region must be one of: ${INVESTOR_REGIONS.join(', ')}` })
      .optional(),
    investor_countries: stringArray('investor_countries').optional(),
    sector: sectorSchema.optional(),
    subsectors: stringArray('subsectors').optional(),
    tags: stringArray('tags').optional(),
    limit: limitSchema(CATALOG.find_investors.maxLimit, 20),
  })
  .strict();

export const AnalyzeDeckParams = z
  .object({
    deck_url: z.string({ message: 'deck_url is required (a direct https link to a PDF or PPTX)' }).min(1, {
      message: 'deck_url is required (a direct https link to a PDF or PPTX)',
    }),
    startup_name: nonEmpty('startup_name').optional(),
  })
  .strict();

export const GetDeckAnalysisParams = z
  .object({
    room_id: z.string({ message: 'room_id is required' }).min(1, { message: 'room_id is required' }),
  })
  .strict();

export const FindStartupsForFundParams = z
  .object({ limit: limitSchema(CATALOG.find_startups_for_fund.maxLimit, 20) })
  .strict();

export const FindCustomersParams = z
  .object({
    brief: nonEmpty('brief').optional(),
    org_key: nonEmpty('org_key').optional(),
    regions: stringArray('regions').optional(),
    stages: stringArray('stages').optional(),
    limit: limitSchema(CATALOG.find_customers.maxLimit, 20),
  })
  .strict();

export const SearchInvestorsParams = z
  .object({
    query: nonEmpty('query').optional(),
    country: nonEmpty('country').optional(),
    region: nonEmpty('region').optional(),
    investor_type: nonEmpty('investor_type').optional(),
    sector: nonEmpty('sector').optional(),
    sort: z.enum(INVESTOR_SORTS, { message: 'sort must be one of: score, investments' }).default('score'),
    limit: limitSchema(CATALOG.search_investors.maxLimit, 25),
    offset: offsetSchema,
  })
  .strict();

export const GetInvestorParams = z
  .object({
    key: z.string({ message: 'key is required (an investor key)' }).min(1, { message: 'key is required' }),
  })
  .strict();

export const SearchStartupsParams = z
  .object({
    query: nonEmpty('query').optional(),
    sector: nonEmpty('sector').optional(),
    countries: stringArray('countries').optional(),
    stages: stringArray('stages').optional(),
    limit: limitSchema(CATALOG.search_startups.maxLimit, 25),
    offset: offsetSchema,
  })
  .strict();

export const GetStartupParams = z
  .object({
    key: z
      .string({ message: 'key is required (a startup key or exact name)' })
      .min(1, { message: 'key is required' }),
  })
  .strict();

export const CountryOverviewParams = z
  .object({
    country: z.string({ message: 'country is required (a country name)' }).trim().min(1, {
      message: 'country is required (a country name)',
    }),
  })
  .strict();
