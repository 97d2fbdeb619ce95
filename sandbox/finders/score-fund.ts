/**
 * find_startups_for_fund scoring: every active startup outside the portfolio against a fund
 * thesis (sectors, stages, countries, check size against the next round, momentum, portfolio
 * overlap), with reasons, conflicts and short analyst notes.
 */
import type { RaisingStage } from '../../api/index.js';
import { startupUrl } from '../queries/urls.js';
import type { FundThesis } from '../types.js';
import { areaOf, expandPlaces } from './geo.js';
import { logCloseness, pct, usd, usdRange } from './money.js';
import { momentumOf, type Momentum } from './momentum.js';
import { typicalRound, type Snapshot, type StartupRecord } from './snapshot.js';
import { bucketIndex, nextRaisingStage, parseStage, raisingBucket, stageLabel } from './stages.js';

/** Weights of the fund-fit components (sum 100). */
export const FUND_WEIGHTS = {
  sector: 25,
  stage: 20,
  geography: 20,
  check_size: 10,
  momentum: 15,
  portfolio: 10,
} as const;

export type FundComponent = keyof typeof FUND_WEIGHTS;

/** Points taken off the fit of a direct competitor of a portfolio company. */
export const CONFLICT_PENALTY = 15;

/** One scored startup of a batch. */
export interface FundMatch {
  key: string;
  name: string;
  fit_pct: number;
  why: string[];
  url: string;
  sector: string;
  subsector: string;
  stage: string;
  next_stage: RaisingStage;
  hq_city: string;
  hq_country: string;
  website: string;
  total_raised_usd: number;
  expected_next_round_usd: number;
  momentum: Momentum;
  /** A portfolio company this startup competes with directly (same subsector and country). */
  conflict: { key: string; name: string; subsector: string; country: string } | null;
  /** The most similar portfolio company, when any is similar. */
  similar_portfolio: { key: string; name: string } | null;
  fit_breakdown: Record<FundComponent, number>;
  note?: string;
  /** Internal: the record, for notes. */
  record: StartupRecord;
}

function tagOverlap(a: readonly string[], b: readonly string[]): number {
  const set = new Set(a);
  return b.filter((t) => set.has(t)).length;
}

interface Scored {
  s: StartupRecord;
  next: RaisingStage;
  m: Momentum;
  parts: Record<FundComponent, number>;
  fit: number;
  typical: number;
  expected: number;
  conflict: FundMatch['conflict'];
  similar: { p: StartupRecord; sim: number; shared: number } | null;
}

/** The outcome of a fund ranking: the explained top and how many startups were scored. */
export interface FundRanking {
  matches: FundMatch[];
  total: number;
}

/**
 * Scores every active startup outside the portfolio against the thesis and explains the top
 * `count`, best first (ties: more momentum, then key).
 */
export function rankForFund(snap: Snapshot, thesis: FundThesis, baseUrl: string, count: number): FundRanking {
  const sectors = new Set(thesis.sectors);
  const stageBuckets = new Set(
    thesis.stages.map((s) => parseStage(s)).filter((s): s is RaisingStage => s !== null),
  );
  const bucketIdx = [...stageBuckets].map(bucketIndex);
  const thesisCountries = expandPlaces(thesis.countries).countries;
  const thesisSubregions = new Set([...thesisCountries].map((c) => areaOf(c).subregion));
  const thesisRegions = new Set([...thesisCountries].map((c) => areaOf(c).region));
  const portfolio = thesis.portfolio
    .map((k) => snap.startupsByKey.get(k))
    .filter((s): s is StartupRecord => s !== undefined);
  const inPortfolio = new Set(thesis.portfolio);
  const stagesText = thesis.stages.map(stageLabel).join(', ');
  const checkText = usdRange(thesis.check_min_usd, thesis.check_max_usd);

  const all: Scored[] = [];
  for (const s of snap.startups) {
    if (s.status !== 'active' || inPortfolio.has(s.key)) continue;
    const next = nextRaisingStage(s.stage);
    const current = raisingBucket(s.stage);
    const fSector = sectors.has(s.sector) ? 1 : 0;
    let fStage = 0;
    if (stageBuckets.has(next)) fStage = 1;
    else if (current && stageBuckets.has(current)) fStage = 0.6;
    else if (bucketIdx.some((b) => Math.abs(b - bucketIndex(next)) === 1)) fStage = 0.3;
    let fGeo = 0;
    if (thesisCountries.has(s.hq_country)) fGeo = 1;
    else {
      const area = areaOf(s.hq_country);
      if (thesisSubregions.has(area.subregion)) fGeo = 0.5;
      else if (thesisRegions.has(area.region)) fGeo = 0.3;
    }
    const typical = typicalRound(snap, next, s.sector);
    let lastAmount = 0;
    for (const r of s.rounds) if (r.amount_usd > 0) lastAmount = r.amount_usd;
    const expected = Math.round(
      lastAmount > 0 && typical > 0 ? Math.sqrt(typical * lastAmount * 2.5) : typical || lastAmount * 2.5,
    );
    let fCheck = 0;
    if (expected > 0 && thesis.check_max_usd > 0) {
      // A fund's check is typically 15–50% of a round.
      const lo = expected * 0.15;
      const hi = expected * 0.5;
      if (thesis.check_max_usd >= lo && thesis.check_min_usd <= hi) fCheck = 1;
      else
        fCheck =
          thesis.check_max_usd < lo
            ? logCloseness(thesis.check_max_usd, lo, 4)
            : logCloseness(thesis.check_min_usd, hi, 4);
    }
    const m = momentumOf(s, snap.refDate);
    let conflict: FundMatch['conflict'] = null;
    let similar: Scored['similar'] = null;
    for (const p of portfolio) {
      if (p.sector === s.sector && p.subsector === s.subsector && p.hq_country === s.hq_country) {
        conflict ??= { key: p.key, name: p.name, subsector: p.subsector, country: p.hq_country };
        continue;
      }
      const shared = tagOverlap(p.tags, s.tags);
      let sim = 0;
      if (p.sector === s.sector) sim += 0.5;
      if (p.subsector === s.subsector) sim += 0.3;
      sim += Math.min(0.2, 0.1 * shared);
      if (sim >= 0.5 && (!similar || sim > similar.sim)) similar = { p, sim, shared };
    }
    const fPortfolio = conflict ? 0 : (similar?.sim ?? 0);
    const parts: Record<FundComponent, number> = {
      sector: fSector,
      stage: fStage,
      geography: fGeo,
      check_size: fCheck,
      momentum: m.score / 100,
      portfolio: fPortfolio,
    };
    let sum = 0;
    for (const [k, w] of Object.entries(FUND_WEIGHTS) as [FundComponent, number][]) sum += w * parts[k];
    all.push({
      s,
      next,
      m,
      parts,
      fit: pct(sum - (conflict ? CONFLICT_PENALTY : 0)),
      typical,
      expected,
      conflict,
      similar: conflict ? null : similar,
    });
  }
  all.sort(
    (a, b) => b.fit - a.fit || b.m.score - a.m.score || (a.s.key < b.s.key ? -1 : a.s.key > b.s.key ? 1 : 0),
  );
  return { matches: all.slice(0, count).map(explain), total: all.length };

  function explain(x: Scored): FundMatch {
    const { s, next, m, parts, conflict, similar, typical, expected } = x;
    const why: string[] = [];
    why.push(
      parts.sector
        ? `${s.sector}${s.subsector ? ` (${s.subsector})` : ''}: a thesis sector`
        : `${s.sector} is outside the thesis sectors (${thesis.sectors.length} listed)`,
    );
    why.push(
      `at ${stageLabel(s.stage)}, next round ${stageLabel(next)}: ` +
        (parts.stage === 1
          ? `in the thesis stages (${stagesText})`
          : parts.stage > 0
            ? `next to the thesis stages (${stagesText})`
            : `outside the thesis stages (${stagesText})`),
    );
    const area = areaOf(s.hq_country);
    why.push(
      `HQ in ${[s.hq_city, s.hq_country].filter(Boolean).join(', ')}: ` +
        (parts.geography === 1
          ? 'a thesis country'
          : parts.geography > 0
            ? `near the thesis countries (${parts.geography === 0.5 ? area.subregion : area.region})`
            : 'outside the thesis geography'),
    );
    if (expected > 0 && thesis.check_max_usd > 0) {
      const shareLo = Math.round((thesis.check_min_usd / expected) * 100);
      const shareHi = Math.round((thesis.check_max_usd / expected) * 100);
      why.push(
        `next round likely ~${usd(expected)} (${stageLabel(next)} median in the sector ${usd(typical)}): a ${checkText} check is ${shareLo}–${shareHi}% of it`,
      );
    }
    if (m.last_round_date) {
      why.push(
        `raised ${usd(m.capital_last_12m_usd)} in the last 12 months (${m.rounds_last_12m} round${m.rounds_last_12m === 1 ? '' : 's'}); ` +
          `last round ${stageLabel(m.last_round_stage ?? '')} ${usd(m.last_round_amount_usd ?? 0)} on ${m.last_round_date}`,
      );
    }
    if (conflict) {
      why.push(
        `CONFLICT: direct competitor of portfolio company ${conflict.name} (${conflict.subsector}, ${conflict.country})`,
      );
    } else if (similar) {
      const how =
        similar.p.subsector === s.subsector
          ? `same subsector (${s.subsector}) in another country (${similar.p.hq_country})`
          : `same sector (${s.sector})`;
      why.push(
        `similar to portfolio company ${similar.p.name}: ${how}${similar.shared ? `, ${similar.shared} shared tag${similar.shared === 1 ? '' : 's'}` : ''}`,
      );
    }
    return {
      key: s.key,
      name: s.name,
      fit_pct: x.fit,
      why,
      url: startupUrl(baseUrl, s.key),
      sector: s.sector,
      subsector: s.subsector,
      stage: s.stage,
      next_stage: next,
      hq_city: s.hq_city,
      hq_country: s.hq_country,
      website: s.website,
      total_raised_usd: s.total_raised_usd,
      expected_next_round_usd: expected,
      momentum: m,
      conflict,
      similar_portfolio: similar ? { key: similar.p.key, name: similar.p.name } : null,
      fit_breakdown: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, pct(100 * v)])) as Record<
        FundComponent,
        number
      >,
      record: s,
    };
  }
}

function firstSentence(text: string): string {
  const s = text.trim().split(/(?<=[.!?])\s/)[0] ?? '';
  return s.length > 180 ? `${s.slice(0, 177)}…` : s;
}

/**
 * A 2–3 sentence analyst note with numbers: what the startup does and where, its funding so
 * far, and why it fits (or what to watch).
 */
export function analystNote(
  m: FundMatch,
  thesis: FundThesis,
  investorName: (key: string) => string | undefined,
): string {
  const s = m.record;
  const rounds = s.rounds.filter((r) => r.amount_usd > 0);
  const last = rounds.at(-1);
  const what = firstSentence(s.description) || `${s.name} is a ${s.subsector || s.sector} company`;
  const lead = last?.lead_investor_key ? investorName(last.lead_investor_key) : undefined;
  const funding = last
    ? `It has raised ${usd(s.total_raised_usd)} over ${rounds.length} round${rounds.length === 1 ? '' : 's'}, most recently ${usd(last.amount_usd)} at ${stageLabel(last.stage)} on ${last.date}${lead ? ` led by ${lead}` : ''}.`
    : `It has no recorded rounds yet.`;
  const strongest = (Object.entries(m.fit_breakdown) as [FundComponent, number][])
    .filter(([, v]) => v >= 60)
    .sort((a, b) => b[1] * FUND_WEIGHTS[b[0]] - a[1] * FUND_WEIGHTS[a[0]])
    .slice(0, 3)
    .map(([k]) => k.replace('_', ' '));
  const fitText = `Fit ${m.fit_pct}% for ${thesis.fund_name}${strongest.length ? `, strongest on ${strongest.join(', ')}` : ''}; a ${stageLabel(m.next_stage)} of about ${usd(m.expected_next_round_usd)} is next`;
  const watch = m.conflict ? `, but it competes with portfolio company ${m.conflict.name}.` : '.';
  const place = what.includes(s.hq_city) ? '' : ` (based in ${s.hq_city}, ${s.hq_country})`;
  return `${what.replace(/[.!?…]$/, '')}${place}. ${funding} ${fitText}${watch}`;
}
