/**
 * find_customers scoring: active startups as sales targets for a seller (sectors, focus tags,
 * regions, stages, funding momentum and how much the startup needs this kind of seller).
 */
import type { RaisingStage } from '../../api/index.js';
import { startupUrl } from '../queries/urls.js';
import { pct, usd } from './money.js';
import { momentumOf, type Momentum } from './momentum.js';
import { needOf, needScore, type SellerKind } from './needs.js';
import type { Snapshot, StartupRecord } from './snapshot.js';
import { bucketIndex, raisingBucket, stageLabel } from './stages.js';

/** Weights of the customer-fit components (sum 100); components without an input drop out. */
export const CUSTOMER_WEIGHTS = {
  sector: 25,
  focus: 10,
  region: 10,
  stage: 15,
  momentum: 25,
  need: 15,
} as const;

export type CustomerComponent = keyof typeof CUSTOMER_WEIGHTS;

/** Who the seller wants to reach, after merging the organisation profile, the brief and the parameters. */
export interface CustomerTarget {
  sectors: string[];
  tags: string[];
  stages: RaisingStage[];
  /** Target countries (empty: anywhere). */
  countries: Set<string>;
  regionsLabel: string;
  kind: SellerKind;
  offering: string;
  /** The brief asks for startups that just raised: momentum weighs 40 instead of 25. */
  recentRaise?: boolean;
}

/** One ranked customer (an item of data.customers). */
export interface CustomerMatch {
  key: string;
  name: string;
  fit_pct: number;
  momentum: Momentum;
  why: string[];
  url: string;
  hq_city: string;
  hq_country: string;
  stage: string;
  sector: string;
  subsector: string;
  website: string;
  domain: string;
  total_raised_usd: number;
  fit_breakdown: Record<CustomerComponent, number | null>;
}

/** The outcome of a ranking: the explained top and how many startups qualified. */
export interface CustomerRanking {
  customers: CustomerMatch[];
  total: number;
}

interface Scored {
  s: StartupRecord;
  m: Momentum;
  parts: Record<CustomerComponent, number | null>;
  fit: number;
  overlap: string[];
}

/**
 * Ranks active startups in the target countries (all countries when none are given) and
 * explains the top `count` (ties: momentum, then key).
 */
export function rankCustomers(
  snap: Snapshot,
  t: CustomerTarget,
  baseUrl: string,
  count: number,
): CustomerRanking {
  const sectors = new Set(t.sectors);
  const tags = new Set(t.tags);
  const stageIdx = t.stages.map(bucketIndex);
  const weightsOf: Record<CustomerComponent, number> = {
    ...CUSTOMER_WEIGHTS,
    ...(t.recentRaise ? { momentum: 40 } : {}),
  };
  const all: Scored[] = [];
  for (const s of snap.startups) {
    if (s.status !== 'active') continue;
    if (t.countries.size > 0 && !t.countries.has(s.hq_country)) continue;
    const m = momentumOf(s, snap.refDate);
    const bucket = raisingBucket(s.stage);
    const fSector = sectors.size > 0 ? (sectors.has(s.sector) ? 1 : 0) : null;
    const overlap = tags.size > 0 ? s.tags.filter((x) => tags.has(x)) : [];
    const fFocus = tags.size > 0 ? Math.min(1, overlap.length / 2) : null;
    const fRegion = t.countries.size > 0 ? 1 : null;
    let fStage: number | null = null;
    if (t.stages.length > 0) {
      const i = bucket ? bucketIndex(bucket) : -9;
      fStage =
        bucket && t.stages.includes(bucket) ? 1 : stageIdx.some((j) => Math.abs(j - i) === 1) ? 0.4 : 0;
    }
    const parts: Record<CustomerComponent, number | null> = {
      sector: fSector,
      focus: fFocus,
      region: fRegion,
      stage: fStage,
      momentum: m.score / 100,
      need: needScore(t.kind, s, m),
    };
    let sum = 0;
    let weights = 0;
    for (const [k, w] of Object.entries(weightsOf) as [CustomerComponent, number][]) {
      const f = parts[k];
      if (f === null) continue;
      sum += w * f;
      weights += w;
    }
    all.push({ s, m, parts, fit: pct(weights > 0 ? (100 * sum) / weights : 0), overlap });
  }
  all.sort(
    (a, b) => b.fit - a.fit || b.m.score - a.m.score || (a.s.key < b.s.key ? -1 : a.s.key > b.s.key ? 1 : 0),
  );
  return { customers: all.slice(0, count).map(explain), total: all.length };

  function explain({ s, m, parts, fit, overlap }: Scored): CustomerMatch {
    const why: string[] = [needOf(t.kind, s, m, t.offering).reason];
    const growth = m.growth.raised_vs_prior_year_pct;
    why.push(
      `momentum ${m.score}/100: ${m.rounds_last_12m} round${m.rounds_last_12m === 1 ? '' : 's'} and ${usd(m.capital_last_12m_usd)} in the last 12 months` +
        (growth !== null ? ` (${growth > 0 ? '+' : ''}${growth}% vs the year before)` : ''),
    );
    if (parts.sector !== null)
      why.push(parts.sector ? `${s.sector}: a target sector` : `${s.sector} is outside the target sectors`);
    if (overlap.length > 0) why.push(`works on ${overlap.join(', ')}`);
    if (parts.region !== null)
      why.push(
        `HQ in ${[s.hq_city, s.hq_country].filter(Boolean).join(', ')}: in the target regions (${t.regionsLabel})`,
      );
    if (parts.stage !== null) {
      why.push(
        `at ${stageLabel(s.stage)}: ${parts.stage === 1 ? 'a target stage' : parts.stage > 0 ? 'next to the target stages' : 'outside the target stages'}`,
      );
    }
    return {
      key: s.key,
      name: s.name,
      fit_pct: fit,
      momentum: m,
      why,
      url: startupUrl(baseUrl, s.key),
      hq_city: s.hq_city,
      hq_country: s.hq_country,
      stage: s.stage,
      sector: s.sector,
      subsector: s.subsector,
      website: s.website,
      domain: s.domain,
      total_raised_usd: s.total_raised_usd,
      fit_breakdown: Object.fromEntries(
        Object.entries(parts).map(([k, v]) => [k, v === null ? null : pct(100 * v)]),
      ) as Record<CustomerComponent, number | null>,
    };
  }
}
