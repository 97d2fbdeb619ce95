/**
 * The fund match's part of the service variants' test (test/jobs/service-variants.test.ts): a
 * smaller batch, and its digest's model, which is the same whatever the variant (it reads no
 * section a variant removes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { VariantCase } from '../../helpers/variant-cases.js';

export const variantCase: VariantCase = {
  smaller(j) {
    j.limit = 6;
    j.enrichNew = 3;
    j.outputs = ['xlsx'];
  },
  // The model the digest's files are drawn from.
  outcome: ({ runDir, mask }) => ({
    figures: mask(JSON.parse(readFileSync(join(runDir, 'digest', 'model.json'), 'utf8'))),
    digest: null,
  }),
  compare(plain, got) {
    expect(got.figures).toEqual(plain.figures);
  },
};
