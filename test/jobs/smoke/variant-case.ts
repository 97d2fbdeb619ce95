/**
 * The smoke kind's part of the service variants' test (test/jobs/service-variants.test.ts): its
 * JSON summary, the same whatever the variant but for a search that gives no total.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { VariantCase } from '../../helpers/variant-cases.js';

export const variantCase: VariantCase = {
  outcome: ({ result, mask }) => ({
    figures: mask(JSON.parse(readFileSync(Object.values(result.files)[0]!, 'utf8'))),
    digest: null,
  }),
  compare(plain, got, v) {
    const want = structuredClone(plain.figures);
    if (v.noTotals) {
      want.total = null;
      want.notProvided = ['total of the search (paged until a short page)'];
    }
    expect(got.figures).toEqual(want);
  },
};
