/**
 * find_investors: from the parameters to the result (startup reading, places, ranking, free-plan
 * limit, charts, summary). The handler in operations/find_investors.ts only adds the plan rules.
 */
import type { InvestorRegion, ParamsOut } from '../../api/index.js';
import type { ChartSpec } from '../result-shapes.js';
import { countriesOfRegion } from '../data/countries.js';
import { SandboxError } from '../types.js';
import { barChart, comboChart, countRows } from './charts.js';
import { expandPlaces } from './geo.js';
import { readStartup, type StartupProfile } from './read-startup.js';
import { rankInvestors, type InvestorMatch } from './score-investors.js';
import type { Snapshot } from './snapshot.js';
import { stageLabel } from './stages.js';

const REGION_LABELS: Record<InvestorRegion, string> = {
  europe: 'Europe',
  eu: 'EU',
  cee: 'CEE',
  dach: 'DACH',
  nordics: 'Nordics',
  'north america': 'North America',
  'n america': 'North America',
  us: 'US',
  uk: 'UK',
  apac: 'APAC',
  asia: 'Asia',
  latam: 'LatAm',
  mena: 'MENA',
  africa: 'Africa',
  global: 'global',
};

/** The investor HQ countries a call asks for: investor_countries wins over investor_region; undefined = anywhere. */
export function requestedPlaces(params: ParamsOut<'find_investors'>): {
  countries?: Set<string>;
  label?: string;
} {
  if (params.investor_countries?.length) {
    const places = expandPlaces(params.investor_countries);
    if (places.unknown.length > 0) {
      throw new SandboxError(
        400,
        'invalid_input',
        `find_investors: investor_countries has unknown countries: ${places.unknown.map((u) => `'${u.slice(0, 40)}'`).join(', ')}; give country names such as Germany or United States`,
      );
    }
    if (places.global) return { label: 'global' };
    return { countries: places.countries, label: places.labels.join(', ') };
  }
  if (params.investor_region && params.investor_region !== 'global') {
    const list = countriesOfRegion(params.investor_region) ?? [];
    return { countries: new Set(list), label: REGION_LABELS[params.investor_region] };
  }
  return {};
}

/** data.investors item as returned (internal fields removed). */
export type InvestorItem = Omit<InvestorMatch, 'sectorStageCounts'>;

export interface FindInvestorsOutcome {
  profile: StartupProfile;
  items: InvestorItem[];
  total: number;
  charts: ChartSpec[];
  summary: string;
  placesLabel?: string;
}

/**
 * Runs find_investors on a snapshot: reads the startup, ranks the investors and returns the top
 * `count` with charts and a summary.
 */
export function findInvestors(
  snap: Snapshot,
  params: ParamsOut<'find_investors'>,
  count: number,
  baseUrl: string,
): FindInvestorsOutcome {
  const { profile, record } = readStartup(snap, params);
  const places = requestedPlaces(params);
  const ranked = rankInvestors(
    snap,
    {
      profile,
      ...(record ? { record } : {}),
      ...(places.countries ? { countries: places.countries } : {}),
      ...(places.label ? { placesLabel: places.label } : {}),
      baseUrl,
    },
    count,
  );
  const top = ranked.matches;
  const items: InvestorItem[] = top.map(({ sectorStageCounts: _c, ...rest }) => rest);
  return {
    profile,
    items,
    total: ranked.total,
    charts: charts(snap, profile, top),
    summary: summary(profile, items, ranked.total, places.label),
    ...(places.label ? { placesLabel: places.label } : {}),
  };
}

function charts(snap: Snapshot, profile: StartupProfile, top: InvestorMatch[]): ChartSpec[] {
  const years = [
    ...(snap.sectorYears.get(profile.sector) ?? new Map<number, { deals: number; capital_usd: number }>()),
  ]
    .filter(([y]) => y >= 2020)
    .sort((a, b) => a[0] - b[0])
    .map(([year, v]) => ({ year, deals: v.deals, capital_usd: v.capital_usd }));
  const stages = ['pre-seed', 'seed', 'series-a', 'series-b', 'series-c-plus'].map((s) => ({
    stage: stageLabel(s),
    deals: top.reduce((n, m) => n + (m.sectorStageCounts.get(s) ?? 0), 0),
  }));
  const countries = new Map<string, number>();
  for (const m of top) countries.set(m.hq_country, (countries.get(m.hq_country) ?? 0) + 1);
  return [
    comboChart(
      `Deal activity in ${profile.sector} by year`,
      'year',
      { key: 'deals', name: 'Deals', unit: 'deals' },
      { key: 'capital_usd', name: 'Capital (USD)', unit: 'USD' },
      years,
    ),
    barChart(
      `Stages of the matched investors' deals in ${profile.sector}`,
      'stage',
      [{ key: 'deals', name: 'Deals' }],
      stages,
      'deals',
    ),
    barChart(
      'Where the matched investors are (HQ country)',
      'country',
      [{ key: 'investors', name: 'Investors' }],
      countRows(countries, 'country', 'investors'),
      'investors',
    ),
  ];
}

function describeSource(p: StartupProfile): string {
  switch (p.source) {
    case 'database':
      return `read from the database (${p.domain})`;
    case 'website':
      return `read from the website name ${p.domain}${p.matched_keywords?.length ? ` (${p.matched_keywords.slice(0, 4).join(', ')})` : ''}`;
    case 'description':
      return `read from the description${p.matched_keywords?.length ? ` (${p.matched_keywords.slice(0, 4).join(', ')})` : ''}`;
    case 'parameters':
      return 'taken from the parameters';
  }
}

function summary(p: StartupProfile, items: InvestorItem[], total: number, placesLabel?: string): string {
  const who = p.name ?? 'the startup';
  const market = [p.sector, p.subsectors[0]].filter(Boolean).join(', ');
  const where = placesLabel ? `, investors in ${placesLabel}` : '';
  const head = `Top ${items.length} of ${total} investors for ${who} (${market}; raising ${stageLabel(p.stage)}${where})`;
  if (items.length === 0) {
    return `No investor${placesLabel ? ` headquartered in ${placesLabel}` : ''} has deals to rank for ${who} (${market}); the startup was ${describeSource(p)}.`;
  }
  const list = items
    .slice(0, 3)
    .map((m, i) => `${i + 1}. ${m.name} (${m.fit_pct}%)`)
    .join(', ');
  const overrides = p.overrides.length ? ` Overridden by parameters: ${p.overrides.join(', ')}.` : '';
  return `${head}: ${list}. The startup was ${describeSource(p)}.${overrides}`;
}
