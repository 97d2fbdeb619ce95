/**
 * The prospect list's part of the service variants' test (test/jobs/service-variants.test.ts):
 * one brief and capped searches, and the list compared with the plain run's: the same companies
 * in the same order with the same counts, sources and charts; a search without totals says
 * none; the search records' last round removed is named, and only those cells differ. What a
 * brief cost is left out (the plain run pays, the repeats within 24 hours are free).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { VariantCase } from '../../helpers/variant-cases.js';

export const variantCase: VariantCase = {
  smaller(j) {
    const [brief] = j.briefs as Record<string, unknown>[];
    j.briefs = [{ ...brief, limit: 10 }];
    j.searches = (j.searches as Record<string, unknown>[]).map((x) => ({ ...x, cap: 150 }));
    // The summary's top rows are the enriched ones (their last round from get_startup).
    j.outputs = ['csv'];
    // The prospect demo keeps companies that raised within 12 months: a rule on the very field
    // one variant removes (the last round date), so that variant would list other companies by
    // design (the rule cannot judge; see list.test.ts). The companies must be the same here:
    // the example runs without the rule, which worth-calling.test.ts proves against the sandbox.
    delete j.raisedWithin;
  },
  outcome({ result, runDir, mask }) {
    // The stored answers the list was read from, and each row's, brief's and search's ids of
    // them, are the run's own (its times, its credits, how many pages its search took):
    // provenance.test.ts follows them to the answers.
    const {
      stats: _s,
      sources: _sources,
      ...summary
    } = JSON.parse(readFileSync(join(runDir, 'list', 'summary.json'), 'utf8'), (key, value: unknown) =>
      key === 'sourceIds' ? undefined : value,
    ) as Record<string, unknown>;
    const rows: Record<string, string>[] = parse(readFileSync(result.files['csv-generic']!), {
      bom: true,
      columns: true,
    });
    // The list itself: the same companies in the same order, and every cell.
    const list = rows.map((r) => [r.service_key, r.name, r.domain]);
    return { figures: mask({ ...summary, list, rows }), digest: null };
  },
  compare(plain, got, v) {
    type Summary = {
      briefs: { charged: number }[];
      searches: { total: number | null }[];
      limits: string[];
      notProvided: string[];
      rows?: unknown;
      top: { lastRoundDate?: unknown; lastRoundAmountUsd?: unknown }[];
    };
    const want = structuredClone(plain.figures) as unknown as Summary;
    const have = structuredClone(got.figures) as unknown as Summary;
    for (const s of [want, have]) s.briefs.forEach((b) => (b.charged = 0));
    if (v.noTotals) {
      want.searches.forEach((s) => (s.total = null));
      want.limits = want.limits.map((l) => l.replace(/ of \d+ matching startups/, ''));
    }
    if (v.removes.some((r) => r.startsWith('startup last round'))) {
      want.notProvided = ['search_startups: last_round_date', 'search_startups: last_round_amount_usd'];
      // The rows' last round cells of the searched companies are what the variant removed: in the
      // CSV rows and in the summary's first rows alike (the enriched ones get theirs from get_startup).
      delete want.rows;
      delete have.rows;
      for (const s of [want, have])
        for (const row of s.top) {
          delete row.lastRoundDate;
          delete row.lastRoundAmountUsd;
        }
    }
    expect(have).toEqual(want);
  },
};
