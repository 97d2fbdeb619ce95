/**
 * The rules a merged prospect list goes through before it is delivered: the CRM's suppression
 * list (by domain, then by name), the companies earlier runs of the job delivered (left out for
 * "net new only", or marked), the enrichment of the top rows by get_startup, and the snapshot the
 * next run's net-new rule reads.
 */
import { readRecord } from '../../api/read.js';
import { readProfile, readStartupPeople, STARTUP_PROFILE_FIELDS } from '../../api/read-profiles.js';
import { formatDate } from '../../reports/format.js';
import type { ProspectListJob } from './job.js';
import { fill, type MergedRow } from './merge.js';
import { isSuppressed, type SuppressionList } from './suppression.js';
import type { ProspectRow, SuppressedRow } from './types.js';

/** What the earlier runs of a job delivered: each company's key and domain, with the first date. */
export interface DeliveredSnapshot {
  kind: 'prospect-list';
  jobId: string;
  /** Runs that added to it. */
  runs: number;
  updatedAt: string;
  keys: Record<string, string>;
  domains: Record<string, string>;
}

/** The date an earlier run delivered the company (by key, else domain), or null. */
export function deliveredOn(snapshot: DeliveredSnapshot | null, row: Pick<MergedRow, 'key' | 'domain'>) {
  if (snapshot === null) return null;
  return (
    (row.key !== null ? snapshot.keys[row.key] : undefined) ??
    (row.domain !== null ? snapshot.domains[row.domain] : undefined) ??
    null
  );
}

/** A snapshot of a job's earlier runs that reads as one (anything else: a first run). */
export function asDeliveredSnapshot(value: unknown, jobId: string): DeliveredSnapshot | null {
  const s = value as Partial<DeliveredSnapshot> | null;
  if (!s || s.kind !== 'prospect-list' || typeof s.keys !== 'object' || typeof s.domains !== 'object')
    return null;
  return {
    kind: 'prospect-list',
    jobId,
    runs: s.runs ?? 1,
    updatedAt: s.updatedAt ?? '',
    keys: s.keys,
    domains: s.domains,
  };
}

/** The snapshot after a run: the earlier runs' companies and this run's, each with its first date. */
export function nextSnapshot(
  previous: DeliveredSnapshot | null,
  jobId: string,
  date: string,
  listed: Iterable<Pick<ProspectRow, 'key' | 'domain'>>,
): DeliveredSnapshot {
  const keys: Record<string, string> = { ...(previous?.keys ?? {}) };
  const domains: Record<string, string> = { ...(previous?.domains ?? {}) };
  for (const row of listed) {
    if (row.key !== null) keys[row.key] ??= date;
    if (row.domain !== null) domains[row.domain] ??= date;
  }
  return { kind: 'prospect-list', jobId, runs: (previous?.runs ?? 0) + 1, updatedAt: date, keys, domains };
}

/**
 * Whether the service's status says the company can no longer buy: `closed` (also `dead`,
 * `defunct`, `shut down`, `inactive`, `out of business`), `acquired` (also `merged`), else null
 * (active, IPO, or no status given).
 *
 * @example closedStatus('Acquired') // 'acquired'; closedStatus('ipo') // null
 */
export function closedStatus(status: string | null): 'closed' | 'acquired' | null {
  if (status === null) return null;
  const s = status.trim().toLowerCase();
  if (/\b(closed|dead|defunct|shut\s*down|inactive|out of business|bankrupt|dissolved)\b/.test(s))
    return 'closed';
  if (/\b(acquired|merged)\b/.test(s)) return 'acquired';
  return null;
}

/** The rules of the job besides the suppression list and the net-new rule. */
export interface ListRules {
  /** Keep closed and acquired companies (flagged) instead of leaving them out. */
  keepClosed: boolean;
  /** Leave out companies whose last round is before this day (YYYY-MM-DD); null: no such rule. */
  raisedSince: string | null;
  /**
   * Keep a company without a last round date under `raisedSince` (the service gives no such date
   * at all, so the rule cannot tell; the report says it was not applied to them). Default: left out.
   */
  keepUndated?: boolean;
}

/** The list after the rules: rows in order (ranked), and what was left out and why. */
export interface RuledList {
  listed: ProspectRow[];
  suppressed: SuppressedRow[];
  counts: {
    suppressedByDomain: number;
    suppressedByName: number;
    suppressedDelivered: number;
    markedDelivered: number;
    /** Left out: the service says the company closed. */
    leftOutClosed: number;
    /** Left out: the service says the company was acquired. */
    leftOutAcquired: number;
    /** Left out: its last round is older than `raisedWithin`. */
    leftOutRaisedBefore: number;
    /** Left out under `raisedWithin`: the service gave no last round date. */
    leftOutNoRoundDate: number;
    /** Kept (`keepClosed`) and flagged: closed or acquired. */
    flaggedClosed: number;
  };
}

/**
 * Applies the suppression list and the net-new rule to the merged rows (in list order) and ranks
 * what is left.
 */
export function applyRules(
  rows: readonly MergedRow[],
  suppression: Pick<SuppressionList, 'domains' | 'names'> | null,
  previous: DeliveredSnapshot | null,
  mode: ProspectListJob['delivered'],
  rules: ListRules = { keepClosed: true, raisedSince: null },
): RuledList {
  const out: RuledList = {
    listed: [],
    suppressed: [],
    counts: {
      suppressedByDomain: 0,
      suppressedByName: 0,
      suppressedDelivered: 0,
      markedDelivered: 0,
      leftOutClosed: 0,
      leftOutAcquired: 0,
      leftOutRaisedBefore: 0,
      leftOutNoRoundDate: 0,
      flaggedClosed: 0,
    },
  };
  const leave = (row: Omit<ProspectRow, 'rank'>, reason: SuppressedRow['reason'], detail: string) =>
    out.suppressed.push({
      name: row.name,
      domain: row.domain,
      key: row.key,
      reason,
      detail,
      ...(row.sourceIds ? { sourceIds: row.sourceIds } : {}),
    });
  for (const merged of rows) {
    const { seen: _seen, ...row } = merged;
    const crm = suppression ? isSuppressed(suppression, row) : null;
    if (crm !== null) {
      out.counts[crm === 'domain' ? 'suppressedByDomain' : 'suppressedByName'] += 1;
      leave(
        row,
        crm === 'domain' ? 'crm-domain' : 'crm-name',
        crm === 'domain'
          ? `in the CRM export (domain ${row.domain ?? ''})`
          : `in the CRM export (name "${row.name}")`,
      );
      continue;
    }
    const gone = closedStatus(row.status);
    if (gone !== null && !rules.keepClosed) {
      out.counts[gone === 'closed' ? 'leftOutClosed' : 'leftOutAcquired'] += 1;
      leave(row, gone, `the service's status: ${row.status ?? gone}`);
      continue;
    }
    if (rules.raisedSince !== null) {
      const last = /^\d{4}-\d{2}-\d{2}$/.test(row.lastRoundDate ?? '') ? row.lastRoundDate : null;
      // Without a date there is nothing to judge by: left out, unless the service gives no such
      // date at all (kept; the report says the rule could not apply).
      if (last === null && !rules.keepUndated) {
        out.counts.leftOutNoRoundDate += 1;
        leave(row, 'no-round-date', 'the service gave no last round date');
        continue;
      }
      if (last !== null && last < rules.raisedSince) {
        out.counts.leftOutRaisedBefore += 1;
        leave(
          row,
          'raised-before',
          `last round on ${formatDate(last)}, before ${formatDate(rules.raisedSince)}`,
        );
        continue;
      }
    }
    if (gone !== null) out.counts.flaggedClosed += 1;
    const before = deliveredOn(previous, row);
    if (before !== null && mode === 'exclude') {
      out.counts.suppressedDelivered += 1;
      leave(row, 'delivered', `delivered on ${formatDate(before)} (net new only)`);
      continue;
    }
    if (before !== null) out.counts.markedDelivered += 1;
    out.listed.push({ ...row, deliveredOn: before, rank: out.listed.length + 1 });
  }
  return out;
}

/**
 * Fills a row from its get_startup profile: founders, founding year, rounds and their investors,
 * and whatever the sources left empty (a description, a status, the last round).
 */
export function enrichRow(row: ProspectRow, data: unknown): ProspectRow {
  const profile = readProfile('startup', data);
  if (profile === null) return row;
  const p = readRecord(profile, STARTUP_PROFILE_FIELDS);
  const { founders, investors } = readStartupPeople(profile);
  const filled = { ...row };
  fill(filled, profile);
  return {
    ...filled,
    enriched: true,
    founders: founders.length > 0 ? founders : row.founders,
    foundedYear: p.founded_year ?? row.foundedYear,
    investors: investors.length > 0 ? investors : row.investors,
    roundsCount: p.rounds_count ?? (p.rounds ? p.rounds.length : row.roundsCount),
  };
}
