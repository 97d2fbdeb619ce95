/**
 * A simulated week of market news for a fund thesis, written into a running sandbox's database
 * so that a fund-match run after it has something to report (the demo's second run): a few new
 * startups that fit the thesis, a funding round that moves one matched startup past the thesis
 * stages, one matched startup acquired, and a round at the same stage for another matched
 * startup (its momentum, so its fit, moves). Deterministic for a database, a thesis and a seed.
 *
 * Only the in-process sandbox offers it (`RunningSandbox.simulateMarketWeek`): it is no part of
 * the service's interface and has no HTTP route.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Sector } from '../api/enums.js';
import { getCountry } from './data/countries.js';
import { slugify, startupNameCandidate } from './data/names.js';
import { Rng } from './data/prng.js';
import { TAXONOMY } from './data/taxonomy.js';
import { founders, startupDescription } from './data/texts.js';
import { daysBefore } from './finders/momentum.js';
import { rankForFund } from './finders/score-fund.js';
import { getSnapshot, type StartupRecord } from './finders/snapshot.js';
import { stageLabel } from './finders/stages.js';
import { insertStartup } from './insert-startup.js';
import type { FundThesis } from './types.js';

/** What {@link simulateMarketWeek} does, all optional. */
export interface MarketWeekOptions {
  /** The batch size the thesis's matches are read at (find_startups_for_fund's limit; default 20). */
  limit?: number;
  /** Seed of the week's choices (default 1): the same seed on the same data gives the same week. */
  seed?: number;
  /** New startups that fit the thesis (default 3). */
  newStartups?: number;
}

/** A startup the week's news is about. */
export interface WeekStartup {
  key: string;
  name: string;
}

/** What happened in the week, each item with the startup it is about. */
export interface MarketWeek {
  /** The week's first and last day (the last is the sandbox's "today"). */
  from: string;
  to: string;
  /** New startups that fit the thesis, each with its seed round of the week. */
  newStartups: (WeekStartup & { sector: string; country: string; stage: string; amountUsd: number })[];
  /** A matched startup whose new round moved it past the thesis stages. */
  pastThesisStage: (WeekStartup & { from: string; to: string; amountUsd: number; date: string }) | null;
  /** A matched startup that was acquired. */
  acquired: (WeekStartup & { date: string }) | null;
  /** A matched startup that raised another round at its stage (it stays matched; its fit moves). */
  sameStageRound: (WeekStartup & { stage: string; amountUsd: number; date: string }) | null;
}

const DEFAULTS = { limit: 20, seed: 1, newStartups: 3 } as const;

/** A round amount rounded to a plausible figure (100k steps). */
const roundUsd = (n: number) => Math.max(100_000, Math.round(n / 100_000) * 100_000);

/** The lead of the latest seed round in a sector and country, or of the sector anywhere. */
function seedLead(db: DatabaseSync, sector: string, country: string, rng: Rng): string | null {
  const rows = db
    .prepare(
      `SELECT r.lead_investor_key AS lead FROM rounds r JOIN startups s ON s.key = r.startup_key
       WHERE r.stage = 'seed' AND r.lead_investor_key IS NOT NULL AND s.sector = ? AND s.hq_country = ?
       ORDER BY r.date DESC, r.id DESC LIMIT 8`,
    )
    .all(sector, country) as { lead: string }[];
  return rows.length > 0 ? rng.pick(rows).lead : null;
}

/** Adds a round to a startup already in the database; its stage and total raised follow. */
function addRound(
  db: DatabaseSync,
  s: StartupRecord,
  round: { date: string; stage: string; amountUsd: number; lead: string | null },
): void {
  db.exec('BEGIN');
  try {
    const info = db
      .prepare(
        'INSERT INTO rounds (startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(s.key, round.date, Number(round.date.slice(0, 4)), round.stage, round.amountUsd, round.lead);
    if (round.lead) {
      db.prepare('INSERT INTO round_investors (round_id, investor_key, is_lead) VALUES (?, ?, 1)').run(
        Number(info.lastInsertRowid),
        round.lead,
      );
    }
    db.prepare('UPDATE startups SET stage = ?, total_raised_usd = total_raised_usd + ? WHERE key = ?').run(
      round.stage,
      round.amountUsd,
      s.key,
    );
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Writes a week of market news about a thesis's matches into the database (see the module's
 * note). The week ends on the data's "today" (the later of its as-of date and its latest round),
 * so nothing is dated in the future and the other startups' momentum does not move.
 *
 * @example
 * const week = simulateMarketWeek(sandbox.db, account.thesis, { limit: 20, seed: 7 });
 * week.acquired?.name; // a startup of the last batch, now acquired
 */
export function simulateMarketWeek(
  db: DatabaseSync,
  thesis: FundThesis,
  options: MarketWeekOptions = {},
): MarketWeek {
  const { limit, seed, newStartups } = { ...DEFAULTS, ...options };
  const rng = new Rng(seed, 0x3eec);
  const snap = getSnapshot(db);
  const to = snap.refDate;
  const from = daysBefore(to, 6);
  const dayOfWeek = () => daysBefore(to, rng.int(0, 6));
  const matched = rankForFund(snap, thesis, '', limit).matches.map((m) => m.record);
  const stages = new Set(thesis.stages);

  // Three matched startups the news is about: one raises past the thesis stages, one is
  // acquired, and the one whose last round is oldest (among the upper ranks, so it stays in the
  // batch after the new startups come in) raises again at its stage.
  const pool = [...matched];
  const take = (i: number) => pool.splice(i, 1)[0];
  const sameStage = pool
    .slice(0, Math.max(1, limit - newStartups - 1))
    .filter((s) => s.rounds.length > 0)
    .sort((a, b) => (a.rounds.at(-1)!.date < b.rounds.at(-1)!.date ? -1 : 1))[0];
  if (sameStage) pool.splice(pool.indexOf(sameStage), 1);
  // Past the thesis stages from one of them (not from pre-seed, a jump no one would believe).
  const atStage = pool.filter((s) => stages.has(s.stage) && s.stage !== 'pre-seed');
  const pastStage =
    atStage.length > 0
      ? take(pool.indexOf(rng.pick(atStage)))
      : pool.length > 0
        ? take(rng.int(0, pool.length - 1))
        : undefined;
  const acquiredOne = pool.length > 0 ? take(rng.int(0, pool.length - 1)) : undefined;

  const week: MarketWeek = {
    from,
    to,
    newStartups: [],
    pastThesisStage: null,
    acquired: null,
    sameStageRound: null,
  };

  if (pastStage) {
    const stage = stages.has('series-b') ? 'series-c' : 'series-b';
    const date = dayOfWeek();
    const amountUsd = roundUsd(rng.float(18, 32) * 1e6);
    addRound(db, pastStage, {
      date,
      stage,
      amountUsd,
      lead: seedLead(db, pastStage.sector, pastStage.hq_country, rng),
    });
    week.pastThesisStage = {
      key: pastStage.key,
      name: pastStage.name,
      from: pastStage.stage,
      to: stage,
      amountUsd,
      date,
    };
  }
  if (acquiredOne) {
    db.prepare("UPDATE startups SET status = 'acquired' WHERE key = ?").run(acquiredOne.key);
    week.acquired = { key: acquiredOne.key, name: acquiredOne.name, date: dayOfWeek() };
  }
  if (sameStage) {
    const last = sameStage.rounds.at(-1)!;
    const date = dayOfWeek();
    const amountUsd = roundUsd(Math.max(last.amount_usd, 1e6) * rng.float(1.2, 1.8));
    addRound(db, sameStage, {
      date,
      stage: sameStage.stage,
      amountUsd,
      lead: seedLead(db, sameStage.sector, sameStage.hq_country, rng),
    });
    week.sameStageRound = {
      key: sameStage.key,
      name: sameStage.name,
      stage: sameStage.stage,
      amountUsd,
      date,
    };
  }

  // New startups: each like a portfolio company (same sector and subsector, shared tags) in
  // another thesis country (not a direct competitor), at seed after a pre-seed a year before.
  const portfolio = thesis.portfolio
    .map((k) => snap.startupsByKey.get(k))
    .filter((p): p is StartupRecord => p !== undefined && thesis.sectors.includes(p.sector));
  const names = db.prepare('SELECT 1 FROM startups WHERE lower(name) = lower(?) OR key = ?');
  for (let i = 0; i < newStartups; i++) {
    const like = portfolio.length > 0 ? portfolio[i % portfolio.length]! : null;
    const sector = (like?.sector ??
      thesis.sectors[i % thesis.sectors.length] ??
      'Software & Developer Tools') as Sector;
    const taxonomy = TAXONOMY[sector];
    const subsector =
      taxonomy.subsectors.find((s) => s.name === like?.subsector) ?? rng.pick(taxonomy.subsectors);
    const competitors = new Set(
      thesis.portfolio
        .map((k) => snap.startupsByKey.get(k))
        .filter((p) => p?.sector === sector && p.subsector === subsector.name)
        .map((p) => p!.hq_country),
    );
    const countries = thesis.countries.filter((c) => !competitors.has(c) && getCountry(c));
    const country = getCountry(rng.pick(countries.length > 0 ? countries : thesis.countries))!;
    let name = startupNameCandidate(rng, sector);
    for (let n = 0; n < 50 && names.get(name, slugify(name)); n++) name = startupNameCandidate(rng, sector);
    const city = rng.pick(country.cities);
    const year = Number(to.slice(0, 4));
    const tags = like ? like.tags.slice(0, 2) : rng.sample(subsector.tags, 2);
    const date = dayOfWeek();
    const amountUsd = roundUsd(rng.float(2.5, 6) * 1e6);
    const key = insertStartup(
      db,
      {
        name,
        hq_country: country.name,
        hq_city: city,
        sector,
        subsector: subsector.name,
        tags: JSON.stringify(tags),
        description: startupDescription(rng, { name, sector, subsector, city, foundedYear: year - 2 }),
        founders: JSON.stringify(founders(rng, country, subsector.name)),
        founded_year: year - 2,
        stage: 'seed',
      },
      [
        {
          date: daysBefore(to, rng.int(380, 460)),
          stage: 'pre-seed',
          amount_usd: roundUsd(rng.float(0.6, 1.4) * 1e6),
          lead_investor_key: seedLead(db, sector, country.name, rng),
        },
        {
          date,
          stage: 'seed',
          amount_usd: amountUsd,
          lead_investor_key: seedLead(db, sector, country.name, rng),
        },
      ],
    );
    week.newStartups.push({ key, name, sector, country: country.name, stage: 'seed', amountUsd });
  }
  return week;
}

/** A round's amount in words: `$4.2M`. */
function usdShort(n: number): string {
  return n >= 1e9 ? `$${(n / 1e9).toFixed(1)}B` : `$${(n / 1e6).toFixed(1).replace(/\.0$/, '')}M`;
}

/**
 * The week in one line a person reads.
 *
 * @example
 * describeMarketWeek(week);
 * // '3 new startups that fit the thesis (Aster Labs, ...); Koala Security raised a $24M Series B (was seed); ...'
 */
export function describeMarketWeek(week: MarketWeek): string {
  const parts: string[] = [];
  const n = week.newStartups.length;
  if (n > 0) {
    parts.push(
      `${n} new startup${n === 1 ? '' : 's'} that fit the thesis (${week.newStartups.map((s) => s.name).join(', ')})`,
    );
  }
  const past = week.pastThesisStage;
  if (past) {
    parts.push(
      `${past.name} raised a ${usdShort(past.amountUsd)} ${stageLabel(past.to)} (was ${stageLabel(past.from)})`,
    );
  }
  if (week.acquired) parts.push(`${week.acquired.name} was acquired`);
  const same = week.sameStageRound;
  if (same)
    parts.push(`${same.name} raised another ${stageLabel(same.stage)} round (${usdShort(same.amountUsd)})`);
  return parts.length > 0 ? parts.join('; ') : 'no news';
}
