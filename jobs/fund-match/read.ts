/**
 * Reading a fund-match batch and the profiles the watchlist follows, through the tolerant
 * readers (api/read.ts): the spec names only the batch's startups and their fit; the thesis,
 * the analyst notes, the portfolio conflicts and the profiles' fields are read under the
 * sandbox's names and plausible others, and are null when the service leaves them out.
 */
import { asObject, pick, readField, readRecord, toStr, toStrings } from '../../api/read.js';
import { readPage } from '../../api/read-page.js';
import { readProfile, ROUND_INVESTOR_FIELDS, STARTUP_PROFILE_FIELDS } from '../../api/read-profiles.js';
import { RANKED_FIELDS, readReasons, STARTUP_FIELDS } from '../../api/read-records.js';
import type { BatchMatch, ProfileState } from './history.js';

/** A startup of the batch with what the digest shows of it. */
export interface BatchStartup extends BatchMatch {
  why: string[];
  /** The service's short analyst note (the top 5 of a batch). */
  note: string | null;
  /** A conflict with a portfolio company the service marks (shown, never hidden). */
  conflict: string | null;
  sector: string | null;
  stage: string | null;
  country: string | null;
  momentum: number | null;
  /** The service's view of the startup. */
  url: string | null;
  /** The startup's own website, when the service gives one. */
  website?: string | null;
  /** The id of the answer it was read from (S1, the batch; absent in digests stored before sources were kept). */
  source?: string;
}

/** A batch as read. */
export interface ReadBatch {
  startups: BatchStartup[];
  /** The thesis stages (what a drop past them is measured against); empty when not given. */
  thesisStages: string[];
  fundName: string | null;
  batchId: string | null;
}

const NOTE = {
  kind: 'string',
  names: ['note', 'analyst_note', 'analysis', 'notes', 'summary_note'],
} as const;

/** A conflict as text: a string, or an object naming the portfolio company and why. */
function conflictOf(item: unknown): string | null {
  const v = pick(item, ['conflict', 'portfolio_conflict', 'conflicts']);
  if (v === undefined || v === false) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (Array.isArray(v)) {
    const parts = v.map((x) => conflictOf({ conflict: x })).filter((x): x is string => x !== null);
    return parts.length > 0 ? parts.join('; ') : null;
  }
  const o = asObject(v);
  if (o === null) return null;
  const who = toStr(pick(o, ['name', 'company', 'portfolio_company', 'key']));
  const why = toStr(pick(o, ['reason', 'why', 'detail', 'type']));
  return [who, why].filter((x) => x !== null).join(': ') || 'marked by the service';
}

/** Reads a find_startups_for_fund answer's data. */
export function readBatch(data: unknown): ReadBatch {
  const items = readPage('find_startups_for_fund', data).items;
  const startups: BatchStartup[] = [];
  items.forEach((item) => {
    const s = readRecord(item, STARTUP_FIELDS);
    const r = readRecord(item, RANKED_FIELDS);
    const key = s.key ?? s.name;
    if (key === null) return;
    startups.push({
      key,
      name: s.name ?? key,
      fitPct: r.fit_pct,
      rank: startups.length + 1,
      why: readReasons(item),
      note: readField(item, NOTE),
      conflict: conflictOf(item),
      sector: s.sector,
      stage: s.stage,
      country: s.hq_country,
      momentum: r.momentum,
      url: s.url,
      website: s.website,
    });
  });
  const thesis = pick(data, ['thesis', 'fund', 'fund_thesis']);
  return {
    startups,
    thesisStages: toStrings(pick(thesis, ['stages', 'stage', 'target_stages'])) ?? [],
    fundName: toStr(pick(data, ['fund_name', 'thesis.fund_name', 'fund.name'])),
    batchId: toStr(pick(data, ['batch_id', 'batchId', 'id'])),
  };
}

/** The names of a round's lead investors (objects or texts). */
function leadNames(leads: readonly unknown[]): string[] {
  return leads
    .map((o) =>
      typeof o === 'string' ? o : readField(o, { kind: 'string', names: ['name', 'title', 'key'] }),
    )
    .filter((n): n is string => n !== null && n.trim() !== '');
}

/** What a get_startup answer says of the fields the watchlist follows. */
export function readProfileState(data: unknown): ProfileState | null {
  const profile = readProfile('startup', data);
  if (profile === null) return null;
  const s = readRecord(profile, STARTUP_FIELDS);
  const p = readRecord(profile, STARTUP_PROFILE_FIELDS);
  const rounds = p.rounds ?? [];
  const latest = [...rounds]
    .map((r) => {
      const inv = readRecord(r, ROUND_INVESTOR_FIELDS);
      return {
        date: readField(r, { kind: 'string', names: ['date', 'announced_on', 'closed_on'] }),
        stage: readField(r, { kind: 'string', names: ['stage', 'round_stage', 'type'] }),
        amount: readField(r, { kind: 'number', names: ['amount_usd', 'amount', 'raised_usd', 'size_usd'] }),
        leads: inv.leads ? leadNames(inv.leads) : (inv.lead_names ?? []),
      };
    })
    .filter((r) => r.date !== null)
    .sort((a, b) => a.date!.localeCompare(b.date!))
    .at(-1);
  return {
    stage: s.stage,
    status: s.status,
    lastRoundDate: (s.last_round_date ?? latest?.date ?? null)?.slice(0, 10) ?? null,
    lastRoundStage:
      readField(profile, { kind: 'string', names: ['last_round_stage', 'last_round.stage'] }) ??
      latest?.stage ??
      null,
    roundsCount: p.rounds_count ?? (p.rounds ? p.rounds.length : null),
    totalRaisedUsd: s.total_raised_usd,
    lastRoundAmountUsd: s.last_round_amount_usd ?? latest?.amount ?? null,
    lastRoundLeads: latest?.leads ?? [],
  };
}
