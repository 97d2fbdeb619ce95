/**
 * find_investors scoring: ranks investors by their real deals in the database against the
 * startup as read (sector, subsectors and tags, stage, geography, check size, portfolio twins).
 */
import type { RaisingStage } from '../../api/index.js';
import { investorUrl } from '../queries/urls.js';
import { proximity } from './geo.js';
import { logCloseness, median, pct, quantile, usd, usdRange } from './money.js';
import type { StartupProfile } from './read-startup.js';
import {
  typicalRound,
  type Deal,
  type InvestorRecord,
  type Snapshot,
  type StartupRecord,
} from './snapshot.js';
import { bucketIndex, raisingBucket, stageLabel } from './stages.js';

/** Weights of the fit components (sum 100). Components without an input drop out and the rest are rescaled. */
export const INVESTOR_WEIGHTS = {
  sector: 30,
  focus: 15,
  stage: 20,
  geography: 15,
  check_size: 10,
  portfolio_twins: 10,
} as const;

export type InvestorComponent = keyof typeof INVESTOR_WEIGHTS;

/** One comparable deal of an investor. */
export interface ComparableDeal {
  startup: string;
  startup_key: string;
  stage: string;
  amount_usd: number;
  date: string;
}

/** One ranked investor (an item of data.investors). */
export interface InvestorMatch {
  key: string;
  name: string;
  investor_type: string;
  hq_city: string;
  hq_country: string;
  /** The service's investor score (0..100). */
  score: number;
  fit_pct: number;
  why: string[];
  url: string;
  deals_total: number;
  deals_in_sector: number;
  deals_at_stage: number;
  /** Each component's fit, 0..100 (null when it had no input). */
  fit_breakdown: Record<InvestorComponent, number | null>;
  recent_comparable_deals: ComparableDeal[];
  /** Internal: deals in the sector by stage, for the stage chart. */
  sectorStageCounts: Map<string, number>;
}

/** What to rank investors against. */
export interface InvestorQuery {
  profile: StartupProfile;
  /** The startup's own record (excluded from the twins). */
  record?: StartupRecord;
  /** Requested investor HQ countries (investor_countries or investor_region); only these qualify. */
  countries?: Set<string>;
  /** How the requested places read, e.g. 'DACH' or 'Germany, France'. */
  placesLabel?: string;
  baseUrl: string;
}

/** A look-alike of the startup, with its similarity (0..1). */
export interface Twin {
  startup: StartupRecord;
  similarity: number;
}

const lower = (xs: readonly string[]) => new Set(xs.map((x) => x.toLowerCase()));

/**
 * The startups most similar to the profile (same sector; subsector, tags, stage and country
 * add to it), most similar first.
 */
export function findTwins(snap: Snapshot, profile: StartupProfile, exclude?: string, max = 25): Twin[] {
  const subs = lower(profile.subsectors);
  const tags = new Set(profile.tags);
  const stageIdx = bucketIndex(profile.stage);
  const out: Twin[] = [];
  for (const s of snap.startups) {
    if (s.sector !== profile.sector || s.key === exclude) continue;
    let sim = 0.3;
    if (subs.has(s.subsector.toLowerCase())) sim += 0.3;
    if (tags.size > 0 && s.tags.length > 0) {
      const inter = s.tags.filter((t) => tags.has(t)).length;
      sim += (0.3 * inter) / (tags.size + s.tags.length - inter);
    }
    const b = raisingBucket(s.stage);
    if (b && Math.abs(bucketIndex(b) - stageIdx) <= 1) sim += 0.1;
    if (profile.country && s.hq_country === profile.country) sim += 0.05;
    if (sim >= 0.55) out.push({ startup: s, similarity: Math.min(1, sim) });
  }
  out.sort(
    (a, b) =>
      b.similarity - a.similarity ||
      b.startup.rounds.length - a.startup.rounds.length ||
      (a.startup.key < b.startup.key ? -1 : 1),
  );
  return out.slice(0, max);
}

function topBy<K>(counts: Map<K, number>): [K, number] | undefined {
  let best: [K, number] | undefined;
  for (const e of counts) if (!best || e[1] > best[1]) best = e;
  return best;
}

function inc<K>(m: Map<K, number>, k: K, n = 1): void {
  m.set(k, (m.get(k) ?? 0) + n);
}

/** Light per-investor numbers of the first pass (every investor). */
interface Features {
  inv: InvestorRecord;
  total: number;
  nSector: number;
  nSectorRecent: number;
  focusHits: number;
  nStage: number;
  nLead: number;
  nAdj: number;
  nInCountries: number;
  nInStartupCountry: number;
  /** Geometric mean of the investor's round amounts at the stage (0 when none). */
  stageGeoMean: number;
  parts: Record<InvestorComponent, number | null>;
  fit: number;
  geoRelation: ReturnType<typeof proximity>['relation'] | null;
}

/** The outcome of a ranking: the explained top and how many investors qualified. */
export interface InvestorRanking {
  matches: InvestorMatch[];
  total: number;
}

/**
 * Ranks investors for a startup and explains the top `count`. Every qualifying investor with at
 * least one deal is scored (first pass: numbers only); the top ones get reasons, comparable
 * deals and breakdowns (second pass). Order: fit, then deals in the sector, investor score, key.
 */
export function rankInvestors(snap: Snapshot, q: InvestorQuery, count: number): InvestorRanking {
  const { profile } = q;
  const stage: RaisingStage = profile.stage;
  const stageIdx = bucketIndex(stage);
  const subs = lower(profile.subsectors);
  const tags = new Set(profile.tags);
  const hasFocus = subs.size > 0 || tags.size > 0;
  const refYear = Number(snap.refDate.slice(0, 4));
  const recentSince = refYear - 2;
  const firstYear = 2020;
  const typical = typicalRound(snap, stage, profile.sector);

  const twins = findTwins(snap, profile, q.record?.key);
  const twinsByInvestor = new Map<string, StartupRecord[]>();
  for (const t of twins) {
    for (const k of t.startup.investor_keys) {
      const list = twinsByInvestor.get(k);
      if (list) list.push(t.startup);
      else twinsByInvestor.set(k, [t.startup]);
    }
  }

  // Per-startup flags, computed once per call: 1 in the sector, 2 in the requested countries,
  // 4 in the startup's country; focus weight 1 (subsector) or 0.6 (tag only).
  const IN_SECTOR = 1;
  const IN_COUNTRIES = 2;
  const IN_HOME = 4;
  const flags = new Uint8Array(snap.startups.length);
  const focus = new Float32Array(snap.startups.length);
  for (const s of snap.startups) {
    let f = 0;
    if (s.sector === profile.sector) f |= IN_SECTOR;
    if (q.countries?.has(s.hq_country)) f |= IN_COUNTRIES;
    if (profile.country && s.hq_country === profile.country) f |= IN_HOME;
    flags[s.idx] = f;
    if (f & IN_SECTOR && subs.size > 0 && subs.has(s.subsector.toLowerCase())) focus[s.idx] = 1;
    else if (tags.size > 0 && s.tags.some((t) => tags.has(t))) focus[s.idx] = 0.6;
  }

  const all: Features[] = [];
  for (const inv of snap.investors) {
    if (inv.deals.length === 0) continue;
    if (q.countries && !q.countries.has(inv.hq_country)) continue;
    all.push(features(inv));
  }
  all.sort(
    (a, b) =>
      b.fit - a.fit ||
      b.nSector - a.nSector ||
      b.inv.score - a.inv.score ||
      (a.inv.key < b.inv.key ? -1 : a.inv.key > b.inv.key ? 1 : 0),
  );
  return { matches: all.slice(0, count).map(explain), total: all.length };

  function features(inv: InvestorRecord): Features {
    const total = inv.deals.length;
    let nSector = 0;
    let nSectorRecent = 0;
    let focusHits = 0;
    let nStage = 0;
    let nLead = 0;
    let nAdj = 0;
    let nInCountries = 0;
    let nInStartupCountry = 0;
    let logSum = 0;
    let nAmounts = 0;
    for (const d of inv.deals) {
      const i = d.startup.idx;
      const f = flags[i] ?? 0;
      if (f & IN_SECTOR) {
        nSector++;
        if (d.year >= recentSince) nSectorRecent++;
      }
      focusHits += focus[i] ?? 0;
      if (d.bucket_idx === stageIdx) {
        nStage++;
        if (d.amount_usd > 0) {
          logSum += Math.log(d.amount_usd);
          nAmounts++;
          if (d.is_lead) nLead++;
        }
      } else if (d.bucket_idx >= 0 && Math.abs(d.bucket_idx - stageIdx) === 1) {
        nAdj++;
      }
      if (f & IN_COUNTRIES) nInCountries++;
      if (f & IN_HOME) nInStartupCountry++;
    }
    const stageGeoMean = nAmounts > 0 ? Math.exp(logSum / nAmounts) : 0;

    const weighted = nSectorRecent + 0.6 * (nSector - nSectorRecent);
    const fSector = 0.55 * Math.min(1, weighted / 8) + 0.45 * (nSector / total);
    const fFocus = hasFocus ? Math.min(1, focusHits / 4) : null;
    const fStage = Math.min(
      1,
      0.45 * Math.min(1, nStage / 6) +
        0.35 * (nStage / total) +
        0.2 * Math.min(1, nLead / 2) +
        0.15 * Math.min(1, nAdj / 6),
    );
    let fGeo: number | null = null;
    let geoRelation: Features['geoRelation'] = null;
    if (q.countries) {
      fGeo = 0.7 + 0.3 * Math.min(1, nInCountries / 4);
    } else if (profile.country) {
      const p = proximity(inv.hq_country, profile.country);
      geoRelation = p.relation;
      fGeo = 0.6 * p.score + 0.4 * Math.min(1, nInStartupCountry / 3);
    }
    let fCheck: number | null = null;
    if (typical > 0) {
      if (stageGeoMean > 0) fCheck = logCloseness(stageGeoMean, typical, 4);
      else if (inv.check_max_usd > 0) fCheck = 0.5 * logCloseness(inv.check_max_usd * 4, typical, 4);
      else fCheck = 0;
    }
    const backed = twinsByInvestor.get(inv.key)?.length ?? 0;
    const fTwins = twins.length > 0 ? Math.min(1, backed / 3) : null;
    const parts: Record<InvestorComponent, number | null> = {
      sector: fSector,
      focus: fFocus,
      stage: fStage,
      geography: fGeo,
      check_size: fCheck,
      portfolio_twins: fTwins,
    };
    let sum = 0;
    let weights = 0;
    for (const [k, w] of Object.entries(INVESTOR_WEIGHTS) as [InvestorComponent, number][]) {
      const f = parts[k];
      if (f === null) continue;
      sum += w * f;
      weights += w;
    }
    return {
      inv,
      total,
      nSector,
      nSectorRecent,
      focusHits,
      nStage,
      nLead,
      nAdj,
      nInCountries,
      nInStartupCountry,
      stageGeoMean,
      parts,
      fit: pct(weights > 0 ? (100 * sum) / weights : 0),
      geoRelation,
    };
  }

  function explain(f: Features): InvestorMatch {
    const { inv, total, nSector, nSectorRecent, nStage, nInCountries, nInStartupCountry } = f;
    const stageAmounts: number[] = [];
    const leadAmounts: number[] = [];
    const tagCounts = new Map<string, number>();
    const subCounts = new Map<string, number>();
    const sectorCounts = new Map<string, number>();
    const stageCounts = new Map<string, number>();
    const sectorStageCounts = new Map<string, number>();
    const sectorDeals: Deal[] = [];
    let nTag = 0;
    for (const d of inv.deals) {
      const s = d.startup;
      inc(sectorCounts, s.sector);
      if (d.bucket) inc(stageCounts, d.bucket);
      if (s.sector === profile.sector) {
        sectorDeals.push(d);
        if (d.bucket) inc(sectorStageCounts, d.bucket);
        if (subs.has(s.subsector.toLowerCase())) inc(subCounts, s.subsector);
      }
      let tagHit = false;
      for (const t of s.tags) {
        if (tags.has(t)) {
          inc(tagCounts, t);
          tagHit = true;
        }
      }
      if (tagHit) nTag++;
      if (d.bucket === stage && d.amount_usd > 0) {
        stageAmounts.push(d.amount_usd);
        if (d.is_lead) leadAmounts.push(d.amount_usd);
      }
    }
    const nLead = leadAmounts.length;
    const why: string[] = [];
    if (nSector > 0) {
      const top = topBy(subCounts);
      why.push(
        `${nSector} deal${nSector === 1 ? '' : 's'} in ${profile.sector} since ${firstYear} (${nSectorRecent} since ${recentSince})` +
          (top ? `, ${top[1]} in ${top[0]}` : ''),
      );
    } else {
      const top = topBy(sectorCounts);
      why.push(
        `no deals in ${profile.sector} yet: ${total} deal${total === 1 ? '' : 's'} in all, most in ${top?.[0] ?? 'other sectors'} (${top?.[1] ?? 0})`,
      );
    }
    if (nTag > 0) {
      const topTags = [...tagCounts].sort((a, b) => b[1] - a[1]).slice(0, 3);
      why.push(
        `${nTag} deal${nTag === 1 ? '' : 's'} tagged ${topTags.map(([t, n]) => `${t} (${n})`).join(', ')}`,
      );
    }
    const sl = stageLabel(stage);
    if (nLead > 0) {
      why.push(
        `led ${nLead} ${sl} round${nLead === 1 ? '' : 's'} of ${usdRange(quantile(leadAmounts, 0.25), quantile(leadAmounts, 0.75))}` +
          (nStage > nLead ? `, joined ${nStage - nLead} more` : ''),
      );
    } else if (nStage > 0) {
      why.push(
        `joined ${nStage} ${sl} round${nStage === 1 ? '' : 's'} of ${usdRange(quantile(stageAmounts, 0.25), quantile(stageAmounts, 0.75))}`,
      );
    } else {
      const top = topBy(stageCounts);
      why.push(
        `no ${sl} deals: most active at ${top ? stageLabel(top[0]) : 'other stages'} (${top?.[1] ?? 0} deals)`,
      );
    }
    if (stageAmounts.length > 0 && typical > 0) {
      why.push(
        `its ${sl} rounds: median ${usd(median(stageAmounts))} vs ${usd(typical)} typical for ${sl} in ${profile.sector}`,
      );
    }
    const where = [inv.hq_city, inv.hq_country].filter(Boolean).join(', ');
    if (q.countries) {
      why.push(
        `HQ in ${where} (requested: ${q.placesLabel ?? 'the given countries'})` +
          `; ${nInCountries} deal${nInCountries === 1 ? '' : 's'} in startups there`,
      );
    } else if (profile.country && f.geoRelation) {
      const rel =
        f.geoRelation === 'same country'
          ? 'same country as the startup'
          : f.geoRelation === 'far'
            ? `the startup is in ${profile.country}`
            : `${f.geoRelation} as the startup in ${profile.country}`;
      why.push(
        `HQ in ${where}, ${rel}` +
          `; ${nInStartupCountry} deal${nInStartupCountry === 1 ? '' : 's'} in ${profile.country}-based startups`,
      );
    }
    const backed = [...new Set((twinsByInvestor.get(inv.key) ?? []).map((s) => s.name))];
    if (backed.length > 0) {
      why.push(
        `backed ${backed.length} look-alike${backed.length === 1 ? '' : 's'}: ${backed.slice(0, 3).join(', ')}${backed.length > 3 ? ', …' : ''}`,
      );
    }

    return {
      key: inv.key,
      name: inv.name,
      investor_type: inv.investor_type,
      hq_city: inv.hq_city,
      hq_country: inv.hq_country,
      score: inv.score,
      fit_pct: f.fit,
      why,
      url: investorUrl(q.baseUrl, inv.key),
      deals_total: total,
      deals_in_sector: nSector,
      deals_at_stage: nStage,
      fit_breakdown: Object.fromEntries(
        Object.entries(f.parts).map(([k, v]) => [k, v === null ? null : pct(100 * v)]),
      ) as Record<InvestorComponent, number | null>,
      recent_comparable_deals: comparableDeals(sectorDeals, subs, tags),
      sectorStageCounts,
    };
  }
}

/** The three most recent deals in the sector, preferring the same subsector or tags; one per startup. */
function comparableDeals(sectorDeals: Deal[], subs: Set<string>, tags: Set<string>): ComparableDeal[] {
  const close = (d: Deal) =>
    subs.has(d.startup.subsector.toLowerCase()) || d.startup.tags.some((t) => tags.has(t));
  const ordered = [...sectorDeals.filter(close), ...sectorDeals.filter((d) => !close(d))];
  const seen = new Set<string>();
  const out: ComparableDeal[] = [];
  for (const d of ordered) {
    if (seen.has(d.startup.key)) continue;
    seen.add(d.startup.key);
    out.push({
      startup: d.startup.name,
      startup_key: d.startup.key,
      stage: d.stage,
      amount_usd: d.amount_usd,
      date: d.date,
    });
    if (out.length === 3) break;
  }
  return out;
}
