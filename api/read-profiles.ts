/**
 * Profiles (get_investor, get_startup): the profile object of an answer, what a startup profile
 * adds to a list row (founders, founding year, rounds and their investors) and an investor
 * profile's thesis and recent portfolio.
 */
import { asObject, field as f, pick, readField, readRecord, type Obj } from './read.js';

/** The profile object of get_investor / get_startup: under its own name, or the data itself. */
export function readProfile(kind: 'investor' | 'startup', data: unknown): Obj | null {
  const inner = asObject(pick(data, [kind, 'profile', 'result', 'record']));
  if (inner !== null) return inner;
  const o = asObject(data);
  return o !== null && Object.keys(o).length > 0 ? o : null;
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
