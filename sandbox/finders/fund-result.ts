/**
 * find_startups_for_fund: ranks the batch, writes analyst notes for the top 5, saves the batch
 * to the account's match list and builds the charts and summary.
 */
import { randomUUID } from 'node:crypto';
import type { ChartSpec } from '../result-shapes.js';
import type { Account, FundThesis, SandboxState } from '../types.js';
import { barChart, countRows, fitBuckets } from './charts.js';
import { usd } from './money.js';
import { analystNote, rankForFund, type FundMatch } from './score-fund.js';
import type { Snapshot } from './snapshot.js';
import { stageLabel } from './stages.js';

/** Analyst notes are written for this many top matches. */
export const NOTED_MATCHES = 5;

/** An entry of a saved batch (and an item of data.startups). */
export type FundEntry = Omit<FundMatch, 'record'> & { new_since_last_batch: boolean };

/** A batch saved to state.matchLists (entries and startups are the same list). */
export interface MatchBatch {
  batch_id: string;
  created_at: string;
  fund_name: string;
  limit: number;
  entries: FundEntry[];
  startups: FundEntry[];
}

export interface FundOutcome {
  batch: MatchBatch;
  previousBatchId: string | null;
  candidates: number;
  charts: ChartSpec[];
  summary: string;
}

/** The account's saved batches (state.matchLists holds them as unknown). */
export function savedBatches(state: SandboxState, accountId: string): MatchBatch[] {
  return (state.matchLists.get(accountId) ?? []).filter(
    (b): b is MatchBatch =>
      typeof b === 'object' && b !== null && typeof (b as MatchBatch).batch_id === 'string',
  );
}

/** The pure part of a fund match: the explained top (notes written, records dropped) and the count scored. */
export interface FundScores {
  entries: (Omit<FundMatch, 'record'> & { note?: string })[];
  total: number;
}

/**
 * Scores a thesis against a snapshot: no state read or written, so a scoring thread can run it.
 *
 * @example
 * const { entries, total } = scoreFund(snap, account.thesis, 20, baseUrl);
 */
export function scoreFund(snap: Snapshot, thesis: FundThesis, limit: number, baseUrl: string): FundScores {
  const ranked = rankForFund(snap, thesis, baseUrl, limit);
  const investorName = (key: string) => snap.investorsByKey.get(key)?.name;
  const entries = ranked.matches.map((m, i) => {
    const { record: _r, ...rest } = m;
    return { ...rest, ...(i < NOTED_MATCHES ? { note: analystNote(m, thesis, investorName) } : {}) };
  });
  return { entries, total: ranked.total };
}

/**
 * Runs find_startups_for_fund for an investor account with a thesis and saves the batch.
 *
 * @example
 * const { batch } = runFundMatch(snap, account, state, 20, baseUrl, new Date());
 * state.matchLists.get(account.id)?.at(-1) === batch;
 */
export function runFundMatch(
  snap: Snapshot,
  account: Account & { thesis: NonNullable<Account['thesis']> },
  state: SandboxState,
  limit: number,
  baseUrl: string,
  now: Date,
): FundOutcome {
  return saveFundBatch(scoreFund(snap, account.thesis, limit, baseUrl), account, state, limit, now);
}

/**
 * The stateful part of a fund match, on the main thread: marks what is new since the account's
 * last batch, saves the batch to its match list and builds charts and summary.
 */
export function saveFundBatch(
  scores: FundScores,
  account: Account & { thesis: NonNullable<Account['thesis']> },
  state: SandboxState,
  limit: number,
  now: Date,
): FundOutcome {
  const thesis = account.thesis;
  const ranked = scores;
  const previous = savedBatches(state, account.id).at(-1);
  const previousKeys = new Set(previous?.entries.map((e) => e.key) ?? []);
  const entries: FundEntry[] = scores.entries.map((m) => ({
    ...m,
    new_since_last_batch: previous !== undefined && !previousKeys.has(m.key),
  }));
  const batch: MatchBatch = {
    batch_id: `mb_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    created_at: now.toISOString(),
    fund_name: thesis.fund_name,
    limit,
    entries,
    startups: entries,
  };
  const list = state.matchLists.get(account.id) ?? [];
  list.push(batch);
  state.matchLists.set(account.id, list);

  const sectors = new Map<string, number>();
  const stages = new Map<string, number>();
  for (const e of entries) {
    sectors.set(e.sector, (sectors.get(e.sector) ?? 0) + 1);
    stages.set(stageLabel(e.stage), (stages.get(stageLabel(e.stage)) ?? 0) + 1);
  }
  const charts: ChartSpec[] = [
    barChart(
      'Fit distribution of the batch',
      'fit',
      [{ key: 'count', name: 'Startups' }],
      fitBuckets(entries.map((e) => e.fit_pct)),
      'startups',
    ),
    barChart(
      'Sector mix of the batch',
      'sector',
      [{ key: 'startups', name: 'Startups' }],
      countRows(sectors, 'sector', 'startups'),
      'startups',
    ),
    barChart(
      'Stage mix of the batch',
      'stage',
      [{ key: 'startups', name: 'Startups' }],
      countRows(stages, 'stage', 'startups'),
      'startups',
    ),
  ];

  const conflicts = entries.filter((e) => e.conflict).length;
  const fresh = entries.filter((e) => e.new_since_last_batch).length;
  const best = entries
    .slice(0, 3)
    .map((e, i) => `${i + 1}. ${e.name} (${e.fit_pct}%, ${e.hq_country}, raised ${usd(e.total_raised_usd)})`)
    .join(', ');
  const summary =
    entries.length === 0
      ? `No active startup outside the portfolio to score for ${thesis.fund_name}; batch ${batch.batch_id} saved empty.`
      : `${entries.length} best fits of ${ranked.total} active startups for ${thesis.fund_name}: ${best}.` +
        ` Batch ${batch.batch_id} saved to the match list` +
        (previous ? ` (${fresh} new since batch ${previous.batch_id})` : '') +
        `.${conflicts ? ` ${conflicts} flagged as a portfolio conflict.` : ''}`;
  return { batch, previousBatchId: previous?.batch_id ?? null, candidates: ranked.total, charts, summary };
}
