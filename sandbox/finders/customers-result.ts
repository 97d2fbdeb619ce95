/**
 * find_customers: picks the organisation, merges its profile with the brief and the parameters,
 * ranks the customers, decides the free repeat within 24 hours and builds charts and summary.
 */
import type { ParamsOut, RaisingStage, Sector } from '../../api/index.js';
import type { ChartSpec } from '../result-shapes.js';
import { SandboxError, type Account, type Organisation, type SandboxState } from '../types.js';
import { readBrief, type BriefReading } from './brief.js';
import { barChart, countRows } from './charts.js';
import { expandPlaces } from './geo.js';
import { usd } from './money.js';
import { sellerKind } from './needs.js';
import { rankCustomers, type CustomerMatch, type CustomerTarget } from './score-customers.js';
import type { Snapshot } from './snapshot.js';
import { parseStage, stageLabel } from './stages.js';

/** How long a repeat call with the same parameters is free. */
export const REPEAT_FREE_MS = 24 * 60 * 60 * 1000;

/**
 * The organisation a call sells for: the org_key given, else the default organisation, else the
 * only one. Throws 404 for an unknown org_key and 400 when several exist and none is chosen.
 */
export function pickOrganisation(
  account: Pick<Account, 'organisations'>,
  orgKey: string | undefined,
): Organisation | null {
  const orgs = account.organisations ?? [];
  const keys = orgs.map((o) => o.org_key).join(', ');
  if (orgKey !== undefined) {
    const org = orgs.find((o) => o.org_key === orgKey);
    if (!org) {
      throw new SandboxError(
        404,
        'not_found',
        orgs.length
          ? `find_customers: unknown org_key '${orgKey.slice(0, 60)}'; this account's organisations: ${keys}`
          : `find_customers: unknown org_key '${orgKey.slice(0, 60)}'; this account has no organisations`,
      );
    }
    return org;
  }
  const dflt = orgs.find((o) => o.is_default) ?? (orgs.length === 1 ? orgs[0] : undefined);
  if (dflt) return dflt;
  if (orgs.length > 1) {
    throw new SandboxError(
      400,
      'invalid_input',
      `find_customers: this account manages ${orgs.length} organisations and none is the default; give org_key, one of: ${keys}`,
    );
  }
  return null;
}

/** Where each part of the target came from. */
export interface TargetSources {
  sectors: 'brief' | 'organisation' | 'none';
  stages: 'parameters' | 'brief' | 'organisation' | 'none';
  regions: 'parameters' | 'brief' | 'organisation' | 'none';
}

/** Merges organisation profile, brief and parameters: parameters win, then the brief, then the profile. */
export function buildTarget(
  org: Organisation | null,
  params: ParamsOut<'find_customers'>,
): { target: CustomerTarget; sources: TargetSources; brief: BriefReading | null } {
  const brief = params.brief ? readBrief(params.brief) : null;
  const sectors: Sector[] | string[] = brief?.sectors.length ? brief.sectors : (org?.target_sectors ?? []);
  const sources: TargetSources = {
    sectors: brief?.sectors.length ? 'brief' : org?.target_sectors.length ? 'organisation' : 'none',
    stages: 'none',
    regions: 'none',
  };

  let stages: RaisingStage[] = [];
  if (params.stages?.length) {
    const bad = params.stages.filter((s) => parseStage(s) === null);
    if (bad.length) {
      throw new SandboxError(
        400,
        'invalid_input',
        `find_customers: unknown stages: ${bad.map((b) => `'${b.slice(0, 30)}'`).join(', ')}; use pre-seed, seed, series-a, series-b or series-c-plus`,
      );
    }
    stages = params.stages.map((s) => parseStage(s) as RaisingStage);
    sources.stages = 'parameters';
  } else if (brief?.stages.length) {
    stages = brief.stages;
    sources.stages = 'brief';
  } else if (org?.target_stages.length) {
    stages = org.target_stages.map(parseStage).filter((s): s is RaisingStage => s !== null);
    sources.stages = 'organisation';
  }

  let regionNames: string[] = [];
  if (params.regions?.length) {
    regionNames = params.regions;
    sources.regions = 'parameters';
  } else if (brief?.regions.length) {
    regionNames = brief.regions;
    sources.regions = 'brief';
  } else if (org?.target_regions.length) {
    regionNames = org.target_regions;
    sources.regions = 'organisation';
  }
  const places = expandPlaces(regionNames);
  if (sources.regions === 'parameters' && places.unknown.length) {
    throw new SandboxError(
      400,
      'invalid_input',
      `find_customers: unknown regions: ${places.unknown.map((u) => `'${u.slice(0, 40)}'`).join(', ')}; use a region (europe, dach, nordics, north america, uk, ...) or a country name`,
    );
  }
  const offering = [org?.offering ?? '', params.brief ?? ''].filter(Boolean).join(' ');
  const kindText =
    params.brief && sellerKind(params.brief) !== 'general'
      ? params.brief
      : (org?.offering ?? params.brief ?? '');
  return {
    target: {
      sectors: [...new Set<string>(sectors)],
      tags: brief?.tags ?? [],
      stages: [...new Set(stages)],
      countries: places.global ? new Set() : places.countries,
      regionsLabel: places.global ? 'global' : places.labels.join(', '),
      kind: sellerKind(kindText),
      offering: org?.offering || params.brief || offering,
      recentRaise: brief?.recent_raise ?? false,
    },
    sources,
    brief,
  };
}

/** The fingerprint of a call for the 24-hour free repeat: account, organisation and normalised parameters. */
export function repeatKey(
  accountId: string,
  org: Organisation | null,
  params: ParamsOut<'find_customers'>,
): string {
  const norm = (xs: string[] | undefined) =>
    xs ? [...new Set(xs.map((x) => x.trim().toLowerCase()))].sort() : null;
  return `${accountId}|${JSON.stringify({
    org: org?.org_key ?? null,
    brief: params.brief ? params.brief.trim().replace(/\s+/g, ' ').toLowerCase() : null,
    regions: norm(params.regions),
    stages: norm(params.stages?.map((s) => parseStage(s) ?? s)),
    limit: params.limit,
  })}`;
}

/**
 * Decides the charge of a call: free (0) when the same call was charged less than 24 hours
 * before `now`; otherwise the price, and the window starts again at `now`.
 */
export function decideRepeat(
  state: SandboxState,
  key: string,
  now: Date,
): { free: boolean; chargedAt: number } {
  const at = state.customerCalls.get(key);
  if (at !== undefined && now.getTime() - at >= 0 && now.getTime() - at < REPEAT_FREE_MS)
    return { free: true, chargedAt: at };
  return { free: false, chargedAt: now.getTime() };
}

export interface CustomersOutcome {
  org: Organisation | null;
  target: CustomerTarget;
  sources: TargetSources;
  customers: CustomerMatch[];
  total: number;
  charts: ChartSpec[];
  summary: string;
}

/** What a find_customers call asks for: the organisation and the merged target (no snapshot needed). */
export interface CustomersRequest {
  org: Organisation | null;
  target: CustomerTarget;
  sources: TargetSources;
}

/**
 * Reads a find_customers call without scoring it: picks the organisation and merges the target;
 * throws the call's 400/404 errors, so the main thread refuses a bad call before anything is recorded.
 */
export function customersRequest(
  account: Pick<Account, 'organisations'>,
  params: ParamsOut<'find_customers'>,
): CustomersRequest {
  const org = pickOrganisation(account, params.org_key);
  if (!org && !params.brief) {
    throw new SandboxError(
      400,
      'invalid_input',
      'find_customers needs an organisation profile or a brief: this account has no organisation, so describe who to reach in brief',
    );
  }
  const { target, sources } = buildTarget(org, params);
  return { org, target, sources };
}

/** Ranks the customers of a call (no charging decisions). */
export function findCustomers(
  snap: Snapshot,
  account: Pick<Account, 'organisations'>,
  params: ParamsOut<'find_customers'>,
  baseUrl: string,
): CustomersOutcome {
  return rankCustomersFor(snap, customersRequest(account, params), params.limit, baseUrl);
}

/** The pure part of find_customers: ranks a read request on a snapshot (a scoring thread can run it). */
export function rankCustomersFor(
  snap: Snapshot,
  request: CustomersRequest,
  limit: number,
  baseUrl: string,
): CustomersOutcome {
  const { org, target, sources } = request;
  const ranked = rankCustomers(snap, target, baseUrl, limit);
  const customers = ranked.customers;

  const countries = new Map<string, number>();
  const stages = new Map<string, number>();
  for (const c of customers) {
    countries.set(c.hq_country, (countries.get(c.hq_country) ?? 0) + 1);
    stages.set(stageLabel(c.stage), (stages.get(stageLabel(c.stage)) ?? 0) + 1);
  }
  const charts: ChartSpec[] = [
    barChart(
      'Capital raised in the last 12 months by the top customers',
      'startup',
      [{ key: 'capital_last_12m_usd', name: 'Capital, last 12 months (USD)' }],
      customers
        .slice(0, 10)
        .map((c) => ({ startup: c.name, capital_last_12m_usd: c.momentum.capital_last_12m_usd })),
      'USD',
    ),
    barChart(
      'Customers by country',
      'country',
      [{ key: 'customers', name: 'Customers' }],
      countRows(countries, 'country', 'customers'),
      'customers',
    ),
    barChart(
      'Customers by stage',
      'stage',
      [{ key: 'customers', name: 'Customers' }],
      countRows(stages, 'stage', 'customers'),
      'customers',
    ),
  ];

  const seller = org?.name ?? 'the brief';
  const best = customers
    .slice(0, 3)
    .map(
      (c, i) =>
        `${i + 1}. ${c.name} (${c.fit_pct}%, ${c.hq_country}, ${usd(c.momentum.capital_last_12m_usd)} raised in 12 months)`,
    )
    .join(', ');
  const scope = [
    target.sectors.length ? `${target.sectors.length} sector${target.sectors.length === 1 ? '' : 's'}` : null,
    target.stages.length ? target.stages.map(stageLabel).join('/') : null,
    target.regionsLabel ? `in ${target.regionsLabel}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const summary =
    customers.length === 0
      ? `No active startup matches ${seller}${scope ? ` (${scope})` : ''}.`
      : `Top ${customers.length} of ${ranked.total} sales targets for ${seller}${scope ? ` (${scope})` : ''}: ${best}.`;
  return { org, target, sources, customers, total: ranked.total, charts, summary };
}
