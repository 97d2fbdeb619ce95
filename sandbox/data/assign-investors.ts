/**
 * Picks the lead and the other investors of every round, with preference for the investors'
 * sectors, stage mix, geography (home country, then region, then global reach) and check size,
 * so each investor's history matches its profile. Then scores investors by that history.
 */
import type { Calendar } from './calendar.js';
import { COUNTRY_REGIONS } from './countries.js';
import type { InvestorRec } from './generate-investors.js';
import type { RoundRec, StartupRec } from './generate-startups.js';
import type { Stage } from './market.js';
import type { Rng } from './prng.js';
import { WeightedTable } from './prng.js';
import { STAGES } from './schema.js';

const N_STAGES = STAGES.length;
const N_SECTORS = 8;
const BUCKETS = N_SECTORS * N_STAGES;

type Level = 'country' | 'region' | 'global';

class InvestorIndex {
  private readonly tables = new Map<string, WeightedTable<number>>();

  constructor(investors: InvestorRec[]) {
    const lists = new Map<string, { items: number[]; weights: number[] }>();
    const add = (k: string, i: number, w: number) => {
      let l = lists.get(k);
      if (!l) lists.set(k, (l = { items: [], weights: [] }));
      l.items.push(i);
      l.weights.push(w);
    };
    investors.forEach((inv, i) => {
      const regionIdx = COUNTRY_REGIONS.indexOf(inv.country.region);
      const generalist = inv.sectorIdx.length >= 5;
      inv.sectorIdx.forEach((sectorIdx, rank) => {
        const sectorWeight = generalist ? 0.45 : rank === 0 ? 1 : 0.5;
        STAGES.forEach((stage, stageIdx) => {
          const share = inv.stageMix[stage] ?? 0;
          if (share <= 0) return;
          const w = inv.activity * share * sectorWeight;
          const b = sectorIdx * N_STAGES + stageIdx;
          add(`c${inv.countryIdx}:${b}`, i, w);
          add(`r${regionIdx}:${b}`, i, w * (inv.reach === 'local' ? 0.5 : 1.5));
          add(`g:${b}`, i, w * (inv.reach === 'global' ? 4 : inv.reach === 'regional' ? 0.6 : 0.1));
        });
      });
    });
    for (const [k, l] of lists) this.tables.set(k, new WeightedTable(l.items, l.weights));
  }

  table(
    level: Level,
    countryIdx: number,
    regionIdx: number,
    bucket: number,
  ): WeightedTable<number> | undefined {
    const k =
      level === 'country'
        ? `c${countryIdx}:${bucket}`
        : level === 'region'
          ? `r${regionIdx}:${bucket}`
          : `g:${bucket}`;
    return this.tables.get(k);
  }
}

function homeShare(weight: number, isUs: boolean): number {
  if (isUs) return 0.8;
  if (weight >= 2.5) return 0.6;
  if (weight >= 1) return 0.5;
  if (weight >= 0.4) return 0.4;
  return 0.3;
}

function draw(
  rng: Rng,
  index: InvestorIndex,
  pHome: number,
  countryIdx: number,
  regionIdx: number,
  bucket: number,
): number | undefined {
  const r = rng.next();
  const order: Level[] =
    r < pHome ? ['country', 'region', 'global'] : r < pHome + 0.22 ? ['region', 'global'] : ['global'];
  for (const level of order) {
    const t = index.table(level, countryIdx, regionIdx, bucket);
    if (t && t.total > 0) return t.draw(rng);
  }
  return undefined;
}

const OTHERS_RANGE: [number, number][] = [
  [0, 3], // pre-seed
  [1, 4], // seed
  [1, 5], // series-a
  [2, 5], // series-b
  [2, 5], // series-c
  [2, 5], // series-d-plus
  [1, 5], // growth
];

/** Assigns a lead and 0-5 other investors to every round (mutates rounds). */
export function assignInvestors(
  rng: Rng,
  investors: InvestorRec[],
  startups: StartupRec[],
  rounds: RoundRec[],
): void {
  const index = new InvestorIndex(investors);
  for (const startup of startups) {
    const countryIdx = startup.countryIdx;
    const regionIdx = COUNTRY_REGIONS.indexOf(startup.country.region);
    const pHome = homeShare(startup.country.weight, startup.country.name === 'United States');
    const previous: number[] = [];
    for (const ri of startup.rounds) {
      const round = rounds[ri] as RoundRec;
      const bucket = startup.sectorIdx * N_STAGES + round.stageIdx;
      const stage = STAGES[round.stageIdx] as Stage;
      // Lead: the check (30-60 % of the round) must fit the investor's check range.
      let lead = -1;
      for (let attempt = 0; attempt < 8; attempt++) {
        const cand = draw(rng, index, pHome, countryIdx, regionIdx, bucket);
        if (cand === undefined) continue;
        const inv = investors[cand] as InvestorRec;
        const check = round.amount * rng.float(0.3, 0.6);
        lead = cand;
        if (inv.type !== 'Angel' && check >= inv.checkMin * 0.5 && check <= inv.checkMax * 2) break;
      }
      for (let k = 0; lead < 0 && k < N_SECTORS; k++) {
        lead = draw(rng, index, 0, countryIdx, regionIdx, k * N_STAGES + round.stageIdx) ?? -1;
      }
      if (lead < 0) lead = 0;
      const members = [lead];
      // Insiders follow on.
      for (const p of previous) {
        if (members.length >= 6) break;
        const inv = investors[p] as InvestorRec;
        if (!members.includes(p) && (inv.stageMix[stage] ?? 0) > 0 && rng.chance(0.3)) members.push(p);
      }
      const [lo, hi] = OTHERS_RANGE[round.stageIdx] ?? [1, 4];
      const target = Math.min(6, members.length + rng.int(lo, hi));
      for (let attempt = 0; members.length < target && attempt < target * 4; attempt++) {
        const cand = draw(rng, index, pHome * 0.9, countryIdx, regionIdx, bucket);
        if (cand === undefined || members.includes(cand)) continue;
        const inv = investors[cand] as InvestorRec;
        if (inv.checkMin > round.amount * 0.6) continue;
        members.push(cand);
      }
      round.lead = lead;
      round.investors = members;
      for (const m of members) if (!previous.includes(m)) previous.push(m);
    }
  }
  fillIdleInvestors(rng, investors, startups, rounds);
}

/** Investors the draw never picked join a few rounds that fit their profile as participants. */
function fillIdleInvestors(
  rng: Rng,
  investors: InvestorRec[],
  startups: StartupRec[],
  rounds: RoundRec[],
): void {
  const deals = new Int32Array(investors.length);
  for (const r of rounds) for (const m of r.investors) deals[m] = (deals[m] ?? 0) + 1;
  const byBucket: number[][] = Array.from({ length: BUCKETS }, () => []);
  rounds.forEach((r, i) => {
    const s = startups[r.startup] as StartupRec;
    byBucket[s.sectorIdx * N_STAGES + r.stageIdx]?.push(i);
  });
  investors.forEach((inv, i) => {
    if ((deals[i] ?? 0) > 0) return;
    const stages = STAGES.map((s, k) => [inv.stageMix[s] ?? 0, k] as const)
      .filter(([share]) => share > 0)
      .sort((a, b) => b[0] - a[0]);
    const wanted = rng.int(1, 3);
    let joined = 0;
    for (const [, stageIdx] of stages) {
      for (const sectorIdx of inv.sectorIdx) {
        const list = byBucket[sectorIdx * N_STAGES + stageIdx] ?? [];
        if (!list.length) continue;
        // Prefer rounds in the home country: look at a sample of rounds in the bucket.
        let chosen = -1;
        for (let k = 0; k < 60; k++) {
          const ri = rng.pick(list);
          const r = rounds[ri] as RoundRec;
          if (r.investors.length >= 6 || r.investors.includes(i)) continue;
          if (chosen < 0) chosen = ri;
          if ((startups[r.startup] as StartupRec).countryIdx === inv.countryIdx) {
            chosen = ri;
            break;
          }
        }
        if (chosen >= 0) {
          (rounds[chosen] as RoundRec).investors.push(i);
          if (++joined >= wanted) return;
        }
      }
    }
  });
}

/** Investor score 0-100 from deal count, leads and recent activity (percentile, with noise). */
export function scoreInvestors(rng: Rng, cal: Calendar, investors: InvestorRec[], rounds: RoundRec[]): void {
  const deals = new Float64Array(investors.length);
  const leads = new Float64Array(investors.length);
  const recent = new Float64Array(investors.length);
  const recentFrom = cal.lastDay - 730;
  for (const r of rounds) {
    for (const m of r.investors) {
      deals[m] = (deals[m] ?? 0) + 1;
      if (r.day >= recentFrom) recent[m] = (recent[m] ?? 0) + 1;
    }
    leads[r.lead] = (leads[r.lead] ?? 0) + 1;
  }
  const raw = investors.map(
    (_, i) =>
      Math.log1p(deals[i] ?? 0) +
      0.6 * Math.log1p(leads[i] ?? 0) +
      0.8 * Math.log1p(recent[i] ?? 0) +
      0.35 * rng.normal(),
  );
  const order = raw.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const n = Math.max(1, investors.length - 1);
  order.forEach(([, i], rank) => {
    (investors[i] as InvestorRec).score = Math.round((2 + (97 * rank) / n) * 10) / 10;
  });
}
