/**
 * The field tables of investors and startups as the lists, the profiles and the finders give
 * them, and the reasons a finder gives for a match.
 */
import { INVESTOR_KEY_NAMES, STARTUP_KEY_NAMES } from './read-keys.js';
import { field as f, pick, TEXT_INSIDE, toStr } from './read.js';

const NAME_NAMES = ['name', 'display_name', 'displayName', 'title', 'label'];
const URL_NAMES = ['url', 'link', 'href', 'profile_url', 'permalink'];
const CITY = ['hq_city', 'hq.city', 'headquarters.city', 'location.city', 'city'];
const COUNTRY = ['hq_country', 'hq.country', 'headquarters.country', 'location.country', 'country'];

/** An investor as search_investors, get_investor and find_investors give it. */
export const INVESTOR_FIELDS = {
  key: f('string', ...INVESTOR_KEY_NAMES),
  name: f('string', 'name', 'investor_name', ...NAME_NAMES),
  investor_type: f('string', 'investor_type', 'investorType', 'type', 'kind', 'category'),
  hq_city: f('string', ...CITY),
  hq_country: f('string', ...COUNTRY),
  region: f('string', 'region', 'hq_region', 'hq.region', 'location.region'),
  sectors: f('strings', 'sectors', 'sector_focus', 'focus_sectors', 'sector'),
  score: f('number', 'score', 'investor_score', 'rating', 'scores.overall', 'scores.total'),
  investments_count: f(
    'number',
    'investments_count',
    'investments',
    'investment_count',
    'num_investments',
    'deals',
    'deal_count',
  ),
  url: f('string', ...URL_NAMES),
} as const;

/** A startup as search_startups, get_startup and the finders give it. */
export const STARTUP_FIELDS = {
  key: f('string', ...STARTUP_KEY_NAMES),
  name: f('string', 'name', 'startup_name', 'company_name', ...NAME_NAMES),
  description: f('string', 'description', 'what_it_does', 'summary', 'tagline', 'about'),
  website: f('string', 'website', 'website_url', 'homepage', 'domain', 'web'),
  hq_city: f('string', ...CITY),
  hq_country: f('string', ...COUNTRY),
  sector: f('string', 'sector', 'primary_sector', 'category', 'industry', 'sectors.0'),
  stage: f('string', 'stage', 'funding_stage', 'last_round_stage', 'last_round.stage'),
  status: f('string', 'status', 'operating_status', 'company_status'),
  total_raised_usd: f('number', 'total_raised_usd', 'total_raised', 'funding_total_usd', 'total_funding_usd'),
  last_round_date: f('string', 'last_round_date', 'last_round.date', 'last_funding_date'),
  last_round_amount_usd: f('number', 'last_round_amount_usd', 'last_round.amount_usd', 'last_round.amount'),
  url: f('string', ...URL_NAMES),
} as const;

/**
 * A startup ranked by a finder (find_customers, find_startups_for_fund): its fit, momentum and
 * domain beside the startup's own fields ({@link STARTUP_FIELDS}); its reasons are read by
 * {@link readReasons}.
 */
export const RANKED_FIELDS = {
  fit_pct: f('number', 'fit_pct', 'fit', 'fit_score', 'match_pct', 'match_score', 'score'),
  momentum: f('number', 'momentum.score', 'momentum_score', 'momentum.value', 'momentum'),
  domain: f('string', 'domain', 'website_domain', 'company_domain'),
} as const;

/** Names under which a finder gives the reasons for a match. */
const REASON_NAMES = ['why', 'reasons', 'rationale', 'why_fit', 'explanation'];

/**
 * The reasons of a ranked record: a list of texts, or one text (kept whole: a reason may hold
 * commas), or objects carrying a text.
 */
export function readReasons(item: unknown): string[] {
  const v = pick(item, REASON_NAMES);
  if (typeof v === 'string') return v.trim() === '' ? [] : [v.trim()];
  if (!Array.isArray(v)) return [];
  return v
    .map((x) => (typeof x === 'string' ? x : toStr(pick(x, ['text', 'reason', ...TEXT_INSIDE]))))
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .map((x) => x.trim());
}
