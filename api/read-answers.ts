/**
 * The fields of answers that are neither lists of records nor profiles: the country overview
 * (country_overview), the data agent's answers (ask) and data rooms (analyze_deck,
 * get_deck_analysis).
 */
import { INVESTOR_FIELDS } from './read-records.js';
import { field as f } from './read.js';

/** One year of a country overview. */
export const YEAR_FIELDS = {
  year: f('number', 'year', 'period', 'fy'),
  deals: f('number', 'deals', 'deal_count', 'rounds', 'count', 'num_deals'),
  capital_usd: f('number', 'capital_usd', 'capital', 'amount_usd', 'total_usd', 'capital_raised_usd'),
  yoy_deals_pct: f('number', 'yoy_deals_pct', 'deals_yoy_pct', 'deals_change_pct'),
  yoy_capital_pct: f('number', 'yoy_capital_pct', 'capital_yoy_pct', 'capital_change_pct'),
} as const;

/** A stage or a sector of a country overview (the label field differs). */
export const MIX_FIELDS = {
  deals: YEAR_FIELDS.deals,
  capital_usd: YEAR_FIELDS.capital_usd,
} as const;
export const STAGE_LABEL = f('string', 'stage', 'name', 'label', 'round_stage');
export const SECTOR_LABEL = f('string', 'sector', 'name', 'label', 'industry', 'category');

/** An investor in a country overview's most active list. */
export const ACTIVE_INVESTOR_FIELDS = {
  key: INVESTOR_FIELDS.key,
  name: INVESTOR_FIELDS.name,
  deals: f('number', 'deals', 'deal_count', 'investments', 'count', 'num_deals'),
  lead_deals: f('number', 'lead_deals', 'leads', 'lead_count', 'deals_led'),
  url: INVESTOR_FIELDS.url,
} as const;

/** The sections of a country overview, each under the names it may have. */
export const OVERVIEW_SECTIONS = {
  by_year: f('objects', 'by_year', 'years', 'yearly', 'by_years', 'annual', 'timeline'),
  stage_mix: f('objects', 'stage_mix', 'stages', 'by_stage', 'stageMix'),
  top_sectors: f('objects', 'top_sectors', 'sectors', 'by_sector', 'topSectors'),
  most_active_investors: f(
    'objects',
    'most_active_investors',
    'top_investors',
    'active_investors',
    'investors',
    'mostActiveInvestors',
  ),
} as const;
export const OVERVIEW_FIELDS = {
  country: f('string', 'country', 'country_name', 'name'),
  region: f('string', 'region', 'continent'),
  as_of: f('string', 'as_of', 'asOf', 'as_of_date', 'updated_at', 'date'),
} as const;

/** What data agent answers carry (ask). */
export const ANSWER_FIELDS = {
  answer: f('string', 'answer', 'text', 'response', 'result'),
  mapped: f('boolean', 'mapped', 'answered', 'understood'),
  columns: f('strings', 'columns', 'fields', 'headers', 'column_names'),
  rows: f('objects', 'rows', 'results', 'records', 'items', 'table.rows'),
  sql: f('string', 'sql', 'query', 'sql_query'),
} as const;

/** A data room (analyze_deck, get_deck_analysis): room_id's position is not shown by the spec. */
export const DECK_FIELDS = {
  room_id: f(
    'string',
    'room_id',
    'roomId',
    'data_room.id',
    'data_room.room_id',
    'room.id',
    'room.room_id',
    'dataroom_id',
    'id',
  ),
  status: f('string', 'status', 'state', 'analysis.status', 'data_room.status', 'room.status'),
  analysis: f('string', 'analysis.verdict', 'verdict'),
  retry_after_seconds: f(
    'number',
    'retry_after_seconds',
    'retry_after',
    'retryAfterSeconds',
    'data_room.retry_after_seconds',
    'room.retry_after_seconds',
  ),
} as const;
