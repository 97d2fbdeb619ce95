/**
 * Merging a prospect list: the records of every find_customers brief and every paged search
 * become one row per company, matched by the service's startup key and by normalised website
 * domain. A company a brief scored keeps its best fit, its momentum and the reasons of that
 * brief; fields one source left out are filled from another. The list is ordered scored rows
 * first (by fit, then momentum), then the searches' rows in the service's order.
 */
import { pick, readField, readRecord } from '../../api/read.js';
import { RANKED_FIELDS, readReasons, STARTUP_FIELDS } from '../../api/read-records.js';
import { normaliseDomain } from './suppression.js';
import type { ProspectRow } from './types.js';

/** A row before it has a rank. */
export type MergedRow = Omit<ProspectRow, 'rank'> & {
  /** Order of the first record of the company across the sources (ties of unscored rows). */
  seen: number;
};

/** A row of a company known only by its name: every other field empty. */
export const emptyRow = (name: string): Omit<ProspectRow, 'rank'> => ({
  key: null,
  name,
  domain: null,
  website: null,
  profileUrl: null,
  city: null,
  country: null,
  sector: null,
  subsector: null,
  stage: null,
  status: null,
  description: null,
  totalRaisedUsd: null,
  lastRoundDate: null,
  lastRoundStage: null,
  lastRoundAmountUsd: null,
  fitPct: null,
  momentum: null,
  why: [],
  sources: [],
  sourceIds: [],
  deliveredOn: null,
  enriched: false,
  foundedYear: null,
  founders: [],
  investors: [],
  roundsCount: null,
});

const SUBSECTOR = {
  kind: 'string',
  names: ['subsector', 'sub_sector', 'subcategory', 'subsectors.0'],
} as const;
const LAST_STAGE = {
  kind: 'string',
  names: ['last_round_stage', 'last_round.stage', 'momentum.last_round_stage'],
} as const;
/** A finder gives the last round inside its momentum. */
const LAST_DATE = {
  kind: 'string',
  names: ['momentum.last_round_date', 'momentum.last_round.date'],
} as const;
const LAST_AMOUNT = {
  kind: 'number',
  names: ['momentum.last_round_amount_usd', 'momentum.last_round.amount_usd'],
} as const;

/** A date as YYYY-MM-DD when it reads as one; other text as given. */
function isoDay(value: string | null): string | null {
  if (value === null) return null;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim());
  return m ? m[1]! : value;
}

/**
 * Fills the row's empty fields from a record: a search's, a finder's or a profile's (a field
 * another source gave is kept).
 */
export function fill(row: Omit<ProspectRow, 'rank'>, item: unknown): void {
  const s = readRecord(item, STARTUP_FIELDS);
  const r = readRecord(item, RANKED_FIELDS);
  const set = <K extends Exclude<keyof ProspectRow, 'rank'>>(field: K, value: ProspectRow[K] | null) => {
    if (row[field] === null && value !== null) row[field] = value;
  };
  set('key', s.key);
  set('website', s.website);
  set('domain', normaliseDomain(r.domain ?? '') ?? normaliseDomain(s.website ?? ''));
  set('profileUrl', s.url);
  set('city', s.hq_city);
  set('country', s.hq_country);
  set('sector', s.sector);
  set('subsector', readField(item, SUBSECTOR));
  set('stage', s.stage);
  set('status', s.status);
  set('description', s.description);
  set('totalRaisedUsd', s.total_raised_usd);
  set('lastRoundDate', isoDay(s.last_round_date ?? readField(item, LAST_DATE)));
  set('lastRoundStage', readField(item, LAST_STAGE));
  set('lastRoundAmountUsd', s.last_round_amount_usd ?? readField(item, LAST_AMOUNT));
}

/** Counts of what the merge saw. */
export interface MergeCounts {
  /** Records read from the sources. */
  records: number;
  /** Records without a name, key nor domain (left out). */
  unnamed: number;
}

/**
 * Merges records into companies, in the order they are added.
 *
 * @example
 * const m = new ProspectMerger();
 * m.add(customer, 'brief 1', true, 'S1');
 * m.add(searchRecord, 'search 1', false, 'S2');
 * const rows = m.ordered();
 */
export class ProspectMerger {
  private readonly rows: MergedRow[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly byDomain = new Map<string, number>();
  readonly counts: MergeCounts = { records: 0, unnamed: 0 };

  /** Companies so far. */
  get size(): number {
    return this.rows.length;
  }

  /**
   * Adds one record from a source (`brief 1`, `search 2`); `scored` when it comes from
   * find_customers (fit, momentum, why); `sourceId` the id of the stored answer it was read from.
   */
  add(item: unknown, source: string, scored: boolean, sourceId?: string): void {
    this.counts.records += 1;
    const s = readRecord(item, STARTUP_FIELDS);
    const domain =
      normaliseDomain(readField(item, RANKED_FIELDS.domain) ?? '') ?? normaliseDomain(s.website ?? '');
    const name = s.name ?? s.key ?? domain;
    if (name === null) {
      this.counts.unnamed += 1;
      return;
    }
    let at = s.key !== null ? this.byKey.get(s.key) : undefined;
    if (at === undefined && domain !== null) at = this.byDomain.get(domain);
    let row: MergedRow;
    if (at === undefined) {
      row = { ...emptyRow(name), seen: this.rows.length };
      at = this.rows.length;
      this.rows.push(row);
    } else {
      row = this.rows[at]!;
    }
    fill(row, item);
    if (!row.sources.includes(source)) row.sources.push(source);
    if (sourceId !== undefined) {
      row.sourceIds ??= [];
      if (!row.sourceIds.includes(sourceId)) row.sourceIds.push(sourceId);
    }
    if (scored) {
      const r = readRecord(item, RANKED_FIELDS);
      if (r.fit_pct !== null && (row.fitPct === null || r.fit_pct > row.fitPct)) {
        row.fitPct = r.fit_pct;
        row.why = readReasons(item);
        if (r.momentum !== null) row.momentum = r.momentum;
      }
      if (row.momentum === null && r.momentum !== null) row.momentum = r.momentum;
    }
    if (s.key !== null && !this.byKey.has(s.key)) this.byKey.set(s.key, at);
    if (row.key !== null && !this.byKey.has(row.key)) this.byKey.set(row.key, at);
    if (row.domain !== null && !this.byDomain.has(row.domain)) this.byDomain.set(row.domain, at);
    if (domain !== null && !this.byDomain.has(domain)) this.byDomain.set(domain, at);
  }

  /** The companies in list order: scored by fit (then momentum), then the rest as first seen. */
  ordered(): MergedRow[] {
    return [...this.rows].sort((a, b) => {
      if (a.fitPct !== null || b.fitPct !== null) {
        if (a.fitPct === null) return 1;
        if (b.fitPct === null) return -1;
        if (b.fitPct !== a.fitPct) return b.fitPct - a.fitPct;
        if ((b.momentum ?? -1) !== (a.momentum ?? -1)) return (b.momentum ?? -1) - (a.momentum ?? -1);
      }
      return a.seen - b.seen;
    });
  }
}

/** Names under which a search answer may say how its rows are sorted. */
const ORDER_NAMES = ['order', 'sort', 'sorted_by', 'order_by'];

/**
 * How a search's rows were ordered, read from its pages: the order the service states in its
 * answer (`order`, `sort`...), else `total-raised-desc` when every row the search returned raised
 * no more than the row before (what a cap then keeps: the largest), else null.
 *
 * @example
 * const o = new SearchOrder();
 * o.page(call.result.data, items);
 * o.result(); // 'total raised descending, then key ascending'
 */
export class SearchOrder {
  private stated: string | null = null;
  private last: number | null = null;
  private descending = true;
  private seen = 0;

  /** Reads one page: the answer's data and its records. */
  page(data: unknown, items: readonly unknown[]): void {
    const v = pick(data, ORDER_NAMES);
    if (this.stated === null && typeof v === 'string' && v.trim() !== '') this.stated = v.trim();
    for (const item of items) {
      const raised = readRecord(item, STARTUP_FIELDS).total_raised_usd;
      if (raised === null) {
        this.descending = false;
        continue;
      }
      if (this.last !== null && raised > this.last) this.descending = false;
      this.last = raised;
      this.seen += 1;
    }
  }

  /** The order in words as the service states it, `total-raised-desc` as seen, or null. */
  result(): string | null {
    if (this.stated !== null) return this.stated;
    return this.descending && this.seen > 1 ? 'total-raised-desc' : null;
  }
}
