/**
 * The investor shortlist's part of the service variants' test (test/jobs/service-variants.test.ts):
 * shorter lists, and its report's model, which is the same whatever the variant, its sections'
 * charts aside: they are the service's own, kept as it gave them (their drawing is the charts
 * variant's business).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { VariantCase } from '../../helpers/variant-cases.js';

type Figures = Record<string, unknown>;

export const variantCase: VariantCase = {
  smaller(j) {
    j.companies = (j.companies as Record<string, unknown>[]).map((c) => ({ ...c, limit: 8 }));
    j.enrich = 2;
    j.outputs = ['xlsx'];
  },
  // The model the report's files are drawn from.
  outcome: ({ runDir, mask }) => ({
    figures: mask(JSON.parse(readFileSync(join(runDir, 'shortlist', 'report.json'), 'utf8'))),
    digest: null,
  }),
  compare(plain, got) {
    const strip = (f: Figures) => {
      const r = structuredClone(f) as { companies: { charts: unknown[] }[] };
      r.companies.forEach((c) => (c.charts = []));
      return r;
    };
    expect(strip(got.figures)).toEqual(strip(plain.figures));
  },
};
