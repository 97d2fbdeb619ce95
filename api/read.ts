/**
 * Tolerant readers of what the service returns inside `data` (the spec shows only
 * find_investors' fields; everything else is "not shown"). Each field the runner uses has the
 * names it is looked up under (the spec's name first, then plausible aliases, then the
 * sandbox's) and the forms it is read from (numbers given as numeric strings, a name given as
 * an object, a list missing or empty). Nothing here throws: what cannot be read is null, and
 * the caller names it "not provided by the service".
 *
 * @example
 * const page = readPage('search_investors', result.data);
 * // { items: [...], total: 1234 | null, nextOffset: 100 | null, listFound: true }
 * const inv = readRecord(page.items[0], INVESTOR_FIELDS);
 * // { key: 'sequoia-capital', name: 'Sequoia Capital', score: 97, ... }
 */
import type { OperationName } from './operations.js';

export type Obj = Record<string, unknown>;

/** The value as a plain object, or null. */
export function asObject(v: unknown): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;
}

/** The value at a dotted path (`paging.total`), or undefined. */
function at(obj: Obj, path: string): unknown {
  if (!path.includes('.')) return obj[path];
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (Array.isArray(cur) && /^\d+$/.test(part)) {
      cur = cur[Number(part)];
      continue;
    }
    const o = asObject(cur);
    if (o === null) return undefined;
    cur = o[part];
  }
  return cur;
}

/** Whether any of the names is present (even as null) in the object. */
export function hasAny(obj: unknown, names: readonly string[]): boolean {
  const o = asObject(obj);
  return o !== null && names.some((n) => at(o, n) !== undefined);
}

/** The first value under one of the names that is neither undefined nor null. */
export function pick(obj: unknown, names: readonly string[]): unknown {
  const o = asObject(obj);
  if (o === null) return undefined;
  for (const n of names) {
    const v = at(o, n);
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

const NUMERIC = /^[+-]?(\d{1,3}([,_ ]\d{3})+|\d+)(\.\d+)?([eE][+-]?\d+)?$/;
/** Names under which an object carries the number it stands for ({ amount: 5, currency: 'USD' }). */
const NUMBER_INSIDE = ['value', 'amount', 'balance', 'count', 'total', 'available', 'remaining'];

/** A finite number from a number, a numeric string ("1,234.5", " 12 ") or an object holding one. */
export function toNum(v: unknown, depth = 0): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') {
    const s = v.trim();
    if (!NUMERIC.test(s)) return null;
    const n = Number(s.replace(/[,_ ]/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  const o = asObject(v);
  if (o !== null && depth === 0) return toNum(pick(o, NUMBER_INSIDE), 1);
  return null;
}

/** Names under which an object carries the text it stands for ({ name: 'paid', id: 2 }). */
const TEXT_INSIDE = ['name', 'label', 'title', 'value', 'id', 'code', 'slug'];

/** A non-empty string from a string, a number or an object holding one. */
export function toStr(v: unknown, depth = 0): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  const o = asObject(v);
  if (o !== null && depth === 0) return toStr(pick(o, TEXT_INSIDE), 1);
  return null;
}

/** A list of strings from an array (of strings or named objects) or a comma-separated string. */
export function toStrings(v: unknown): string[] | null {
  if (typeof v === 'string') {
    const parts = v
      .split(/[,;]/)
      .map((s) => s.trim())
      .filter(Boolean);
    return parts;
  }
  if (!Array.isArray(v)) return null;
  return v.map((x) => toStr(x)).filter((x): x is string => x !== null);
}

/** The objects of a list (anything else in it is skipped); null when it is not a list. */
export function toObjects(v: unknown): Obj[] | null {
  if (!Array.isArray(v)) return null;
  return v.map((x) => asObject(x)).filter((x): x is Obj => x !== null);
}

/** A boolean from true/false, "true"/"false", "yes"/"no", 1/0. */
export function toBool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : null;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', 'yes', '1'].includes(s)) return true;
    if (['false', 'no', '0'].includes(s)) return false;
  }
  return null;
}

/** How a field is read. */
export type FieldKind = 'string' | 'number' | 'strings' | 'objects' | 'boolean';
export interface FieldSpec {
  kind: FieldKind;
  /** The spec's name first, then aliases, then the sandbox's; dotted paths reach into objects. */
  names: readonly string[];
}
export type FieldSpecs = Record<string, FieldSpec>;
type ValueOf<K extends FieldKind> = K extends 'string'
  ? string
  : K extends 'number'
    ? number
    : K extends 'strings'
      ? string[]
      : K extends 'objects'
        ? Obj[]
        : boolean;
/** A record read with a field table: each field its value or null. */
export type ReadRecord<F extends FieldSpecs> = { [K in keyof F]: ValueOf<F[K]['kind']> | null };

const CONVERT: Record<FieldKind, (v: unknown) => unknown> = {
  string: toStr,
  number: toNum,
  strings: toStrings,
  objects: toObjects,
  boolean: toBool,
};

/** The first value under the field's names that reads in the field's form. */
export function readField<K extends FieldKind>(obj: unknown, spec: { kind: K; names: readonly string[] }) {
  const o = asObject(obj);
  if (o === null) return null;
  for (const n of spec.names) {
    const v = at(o, n);
    if (v === undefined || v === null) continue;
    const out = CONVERT[spec.kind](v);
    if (out !== null) return out as ValueOf<K>;
  }
  return null;
}

/** Reads every field of a table from one object (anything not an object reads as all null). */
export function readRecord<F extends FieldSpecs>(obj: unknown, fields: F): ReadRecord<F> {
  const out = {} as Record<string, unknown>;
  for (const [name, spec] of Object.entries(fields)) out[name] = readField(obj, spec);
  return out as ReadRecord<F>;
}

/**
 * The fields of a table that none of the objects carries under any of its names: what the
 * service did not provide (a field present with null is provided, as "no value").
 */
export function absentFields<F extends FieldSpecs>(objs: readonly unknown[], fields: F): (keyof F)[] {
  if (objs.length === 0) return [];
  return Object.keys(fields).filter((name) => !objs.some((o) => hasAny(o, fields[name]!.names)));
}

const f = <K extends FieldKind>(kind: K, ...names: string[]) => ({ kind, names }) as const;

/** Keys of records: the spec calls an investor's key normalized_key, the sandbox calls it key. */
const KEY_NAMES = ['key', 'normalized_key', 'normalizedKey', 'slug', 'id', 'uuid'];
const INVESTOR_KEY_NAMES = ['normalized_key', 'normalizedKey', 'investor_key', ...KEY_NAMES];
const STARTUP_KEY_NAMES = ['key', 'startup_key', 'company_key', ...KEY_NAMES];
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

/** What a startup profile (get_startup) adds to a list row: founders, founding year, rounds. */
export const STARTUP_PROFILE_FIELDS = {
  founders: f('objects', 'founders', 'founding_team', 'team', 'people'),
  founded_year: f('number', 'founded_year', 'founded', 'year_founded', 'founding_year'),
  rounds: f('objects', 'rounds', 'funding_rounds', 'fundings', 'funding.rounds'),
  rounds_count: f('number', 'rounds_count', 'num_rounds', 'funding_rounds_count'),
} as const;

/** A round's investors, leads first, as the round lists them. */
export const ROUND_INVESTOR_FIELDS = {
  leads: f('objects', 'lead_investors', 'leads', 'lead_investor'),
  investors: f('objects', 'investors', 'participants', 'investor_list'),
  lead_names: f('strings', 'lead_investor_names', 'lead_investor', 'leads'),
  investor_names: f('strings', 'investor_names', 'investors'),
} as const;

/** Names of a list of people or investors (objects or texts). */
function namesOf(objs: readonly unknown[] | null): string[] {
  return (objs ?? [])
    .map((o) =>
      typeof o === 'string' ? o : readField(o, { kind: 'string', names: ['name', 'title', 'key'] }),
    )
    .filter((n): n is string => n !== null);
}

/**
 * The people of a startup profile (get_startup): founders as `Name (Role)`, and the investors of
 * its rounds, leads first, each once.
 *
 * @example
 * readStartupPeople(readProfile('startup', data)); // { founders: ['Ada (CEO)'], investors: ['Lead Capital', ...] }
 */
export function readStartupPeople(profile: unknown): { founders: string[]; investors: string[] } {
  const p = readRecord(profile, STARTUP_PROFILE_FIELDS);
  const founders = (p.founders ?? [])
    .map((f) => {
      const name = readField(f, { kind: 'string', names: ['name', 'full_name'] });
      const role = readField(f, { kind: 'string', names: ['role', 'title', 'position'] });
      return name === null ? null : role === null ? name : `${name} (${role})`;
    })
    .filter((f): f is string => f !== null);
  const leads = new Set<string>();
  const others = new Set<string>();
  for (const round of p.rounds ?? []) {
    const r = readRecord(round, ROUND_INVESTOR_FIELDS);
    for (const n of r.leads ? namesOf(r.leads) : (r.lead_names ?? [])) leads.add(n);
    for (const n of r.investors ? namesOf(r.investors) : (r.investor_names ?? [])) others.add(n);
  }
  return { founders, investors: [...leads, ...[...others].filter((n) => !leads.has(n))] };
}

/** An investor profile's extra content (get_investor). */
export const INVESTOR_PROFILE_FIELDS = {
  thesis: f('string', 'thesis', 'investment_thesis', 'focus', 'about', 'description'),
  recent_portfolio: f(
    'objects',
    'recent_portfolio',
    'recent_investments',
    'portfolio',
    'recentPortfolio',
    'portfolio_companies',
  ),
} as const;

/** A company in an investor's recent portfolio. */
export const PORTFOLIO_FIELDS = {
  name: f('string', 'name', 'startup', 'company', 'startup_name', 'company_name'),
  date: f('string', 'date', 'round_date', 'invested_at', 'announced_on'),
  stage: f('string', 'stage', 'round_stage', 'round'),
  amount_usd: f('number', 'amount_usd', 'round_amount_usd', 'amount'),
} as const;

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

/** The account (my_account). */
export const ACCOUNT_FIELDS = {
  plan: f('string', 'plan', 'plan_name', 'subscription.plan', 'tier', 'account.plan'),
  credits_balance: f(
    'number',
    'credits_balance',
    'credits.balance',
    'credits.remaining',
    'credits',
    'balance',
    'credit_balance',
    'creditsBalance',
    'account.credits_balance',
  ),
  tools: f('strings', 'tools', 'operations', 'available_tools', 'enabled_tools'),
  account_type: f('string', 'account_type', 'accountType', 'type', 'account.type'),
  // The spec does not name the account's rate limits: the sandbox's `rate_limits.per_minute`
  // first, then plausible shapes and names.
  rate_limit_per_minute: f(
    'number',
    'rate_limits.per_minute',
    'rate_limits.perMinute',
    'rate_limits.minute',
    'rate_limits.requests_per_minute',
    'rateLimits.perMinute',
    'rate_limit.per_minute',
    'rate_limit.minute',
    'limits.per_minute',
    'limits.requests_per_minute',
    'rate_limit_per_minute',
    'requests_per_minute',
    'calls_per_minute',
  ),
  rate_limit_per_day: f(
    'number',
    'rate_limits.per_day',
    'rate_limits.perDay',
    'rate_limits.day',
    'rate_limits.daily',
    'rate_limits.requests_per_day',
    'rateLimits.perDay',
    'rate_limit.per_day',
    'rate_limit.day',
    'limits.per_day',
    'limits.requests_per_day',
    'rate_limit_per_day',
    'daily_limit',
    'requests_per_day',
    'calls_per_day',
  ),
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
} as const;

/** The list of records of each operation that returns one, under the names it may have. */
const LIST_NAMES: Partial<Record<OperationName, readonly string[]>> = {
  search_investors: ['investors', 'results', 'items', 'records', 'data'],
  search_startups: ['startups', 'results', 'items', 'records', 'companies', 'data'],
  find_investors: ['investors', 'matches', 'results', 'items'],
  find_startups_for_fund: ['startups', 'matches', 'results', 'items', 'batch.startups'],
  find_customers: ['customers', 'startups', 'prospects', 'matches', 'results', 'items'],
  ask: ANSWER_FIELDS.rows.names,
};

/** Where a paged answer says how many records there are in all, and where the next page starts. */
const TOTAL = f(
  'number',
  'total',
  'total_count',
  'totalCount',
  'total_results',
  'totalResults',
  'hits',
  'paging.total',
  'pagination.total',
  'page.total',
  'meta.total',
  'paging.total_count',
  'pagination.total_count',
);
const NEXT_OFFSET = f(
  'number',
  'next_offset',
  'nextOffset',
  'paging.next_offset',
  'pagination.next_offset',
  'page.next_offset',
  'meta.next_offset',
  'paging.nextOffset',
  'pagination.nextOffset',
);

export interface PageRead {
  /** The records (objects only), in the service's order. */
  items: Obj[];
  /** Whether a list was found at all (a page without one reads as empty). */
  listFound: boolean;
  /** All matching records, when the service says; null when it does not. */
  total: number | null;
  /** The offset of the next page, when the service says; null otherwise. */
  nextOffset: number | null;
}

/** Reads one page (or one batch) of an operation that returns a list of records. */
export function readPage(operation: OperationName, data: unknown): PageRead {
  const names = LIST_NAMES[operation] ?? [];
  let items: Obj[] | null = null;
  for (const n of names) {
    const o = asObject(data);
    const list = o === null ? null : toObjects(at(o, n));
    if (list !== null) {
      items = list;
      break;
    }
  }
  const total = readField(data, TOTAL);
  const next = readField(data, NEXT_OFFSET);
  return {
    items: items ?? [],
    listFound: items !== null,
    total: total !== null && total >= 0 ? Math.floor(total) : null,
    nextOffset: next !== null && next >= 0 ? Math.floor(next) : null,
  };
}

/** The key a record is fetched by (get_investor, get_startup), or null. */
export function recordKey(operation: OperationName, item: unknown): string | null {
  const names =
    operation === 'search_investors' || operation === 'find_investors'
      ? INVESTOR_KEY_NAMES
      : STARTUP_KEY_NAMES;
  return readField(item, { kind: 'string', names });
}

/** The profile object of get_investor / get_startup: under its own name, or the data itself. */
export function readProfile(kind: 'investor' | 'startup', data: unknown): Obj | null {
  const inner = asObject(pick(data, [kind, 'profile', 'result', 'record']));
  if (inner !== null) return inner;
  const o = asObject(data);
  return o !== null && Object.keys(o).length > 0 ? o : null;
}

export interface AccountRead {
  plan: string | null;
  /** The envelope's credits.remaining (the spec's field) or, without it, the balance in data. */
  balance: number | null;
  tools: string[] | null;
  accountType: string | null;
  /** The key's rate limits as the account reports them (null: not reported, or not a positive number). */
  rateLimits: { perMinute: number | null; perDay: number | null };
}

/** A limit as a whole number of calls, or null when it is not a positive one. */
function positiveLimit(n: number | null): number | null {
  return n !== null && Number.isFinite(n) && n >= 1 ? Math.floor(n) : null;
}

/** Reads a my_account answer. */
export function readAccount(result: {
  data?: unknown;
  credits?: { remaining?: number | null } | null;
}): AccountRead {
  const a = readRecord(result.data, ACCOUNT_FIELDS);
  return {
    plan: a.plan,
    balance: result.credits?.remaining ?? a.credits_balance,
    tools: a.tools,
    accountType: a.account_type,
    rateLimits: {
      perMinute: positiveLimit(a.rate_limit_per_minute),
      perDay: positiveLimit(a.rate_limit_per_day),
    },
  };
}
