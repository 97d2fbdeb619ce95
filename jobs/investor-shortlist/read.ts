/**
 * Reading a find_investors answer and the get_investor profiles of its top investors, through
 * the tolerant readers (api/read.ts): the spec names the investors' name, fit_pct, why and url;
 * the key (normalized_key in the spec's words, key in the sandbox's), the type, the HQ and the
 * profile's thesis, check size and recent portfolio are read under plausible names and are null
 * when the service leaves them out.
 */
import type { ChartSpec } from '../../api/envelope.js';
import { pick, readField, readRecord, toStr } from '../../api/read.js';
import { readPage } from '../../api/read-page.js';
import { INVESTOR_PROFILE_FIELDS, readProfile } from '../../api/read-profiles.js';
import { INVESTOR_FIELDS, RANKED_FIELDS, readReasons } from '../../api/read-records.js';
import type { ShortlistRow } from './types.js';

/** A company's list as read: the rows (not enriched yet) and how the service read the startup. */
export function readInvestorList(data: unknown): { rows: ShortlistRow[]; readAs: string | null } {
  const rows: ShortlistRow[] = [];
  for (const item of readPage('find_investors', data).items) {
    const i = readRecord(item, INVESTOR_FIELDS);
    const key = i.key ?? i.name;
    if (key === null) continue;
    rows.push({
      rank: rows.length + 1,
      key,
      name: i.name ?? key,
      fitPct: readField(item, RANKED_FIELDS.fit_pct),
      why: readReasons(item),
      url: i.url,
      isNew: false,
      investorType: i.investor_type,
      hqCity: i.hq_city,
      hqCountry: i.hq_country,
      enriched: false,
      thesis: null,
      checkMinUsd: null,
      checkMaxUsd: null,
      recentPortfolio: [],
      website: readField(item, WEBSITE),
      partner: null,
    });
  }
  const startup = pick(data, ['startup', 'company', 'read_as']);
  // Its name when the service knew the startup; else the market it read (sector, stage).
  const named = toStr(pick(startup, ['name', 'summary', 'description']));
  const market = [
    toStr(pick(startup, ['sector', 'primary_sector'])),
    toStr(pick(startup, ['stage', 'raising_stage'])),
  ]
    .filter((x): x is string => x !== null)
    .join(', ');
  return { rows, readAs: named ?? (market !== '' ? market : toStr(startup)) };
}

const CHECK_MIN = {
  kind: 'number',
  names: ['check_min_usd', 'check_size.min_usd', 'check_size.min', 'min_check_usd'],
} as const;
const CHECK_MAX = {
  kind: 'number',
  names: ['check_max_usd', 'check_size.max_usd', 'check_size.max', 'max_check_usd'],
} as const;

/** The investor's own website, under the names a profile may give it. */
const WEBSITE = {
  kind: 'string',
  names: ['website', 'website_url', 'homepage', 'web', 'site', 'domain'],
} as const;

const TEAM_NAMES = ['team', 'people', 'partners', 'members', 'team_members'];
const PERSON_NAME = { kind: 'string', names: ['name', 'full_name', 'person', 'title'] } as const;
const PERSON_ROLE = { kind: 'string', names: ['role', 'title', 'position', 'job_title'] } as const;

/**
 * The partner to name for an investor: the first member of its team whose role says partner
 * (Managing, General, Venture Partner), else the first member named. Members may be objects
 * (`{ name, role }`) or plain names; null when the profile names nobody.
 *
 * @example readPartner({ team: [{ name: 'Ana Ruiz', role: 'Principal' }, { name: 'Jon Lee', role: 'General Partner' }] })
 * // { name: 'Jon Lee', role: 'General Partner' }
 */
export function readPartner(profile: unknown): { name: string; role: string | null } | null {
  const raw = pick(profile, TEAM_NAMES);
  const members = (Array.isArray(raw) ? (raw as unknown[]) : [])
    .map((m) => {
      if (typeof m === 'string') return m.trim() ? { name: m.trim(), role: null } : null;
      const name = readField(m, PERSON_NAME);
      if (name === null || name.trim() === '') return null;
      const role = readField(m, PERSON_ROLE);
      return { name: name.trim(), role: role !== null && role !== name && role.trim() ? role.trim() : null };
    })
    .filter((m): m is { name: string; role: string | null } => m !== null);
  return members.find((m) => m.role !== null && /partner/i.test(m.role)) ?? members[0] ?? null;
}

/**
 * A row enriched from the investor's profile (get_investor): thesis, check size, recent
 * portfolio, its website and a partner from its team.
 */
export function enrichInvestor(row: ShortlistRow, data: unknown): ShortlistRow {
  const profile = readProfile('investor', data);
  if (profile === null) return row;
  const p = readRecord(profile, INVESTOR_PROFILE_FIELDS);
  const i = readRecord(profile, INVESTOR_FIELDS);
  const portfolio = (p.recent_portfolio ?? [])
    .map((c) => readField(c, { kind: 'string', names: ['name', 'startup', 'company', 'key'] }))
    .filter((n): n is string => n !== null);
  return {
    ...row,
    enriched: true,
    thesis: p.thesis ?? row.thesis,
    investorType: row.investorType ?? i.investor_type,
    hqCity: row.hqCity ?? i.hq_city,
    hqCountry: row.hqCountry ?? i.hq_country,
    checkMinUsd: readField(profile, CHECK_MIN),
    checkMaxUsd: readField(profile, CHECK_MAX),
    recentPortfolio: portfolio.slice(0, 8),
    website: readField(profile, WEBSITE) ?? row.website ?? null,
    partner: readPartner(profile),
  };
}

/** The charts of an answer that look like charts (an object with a type). */
export function chartsOf(charts: unknown): ChartSpec[] {
  return Array.isArray(charts)
    ? charts.filter(
        (c): c is ChartSpec =>
          typeof c === 'object' && c !== null && typeof (c as { type?: unknown }).type === 'string',
      )
    : [];
}
