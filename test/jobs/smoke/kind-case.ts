/**
 * The smoke kind's part of the checks every registered kind gets on the time-skipping server
 * (test/workflows/skipping/kind-registry.test.ts): its activities as stubs answering plausibly
 * (every stub worker has them, test/helpers/stub-activities.ts), its phases, and its own
 * decisions.
 */
import { expect } from 'vitest';
import { ops, paramsOf, refOf, type KindCase } from '../../helpers/kind-cases.js';
import { rendered } from '../../helpers/stub-activities.js';

export const kindCase: KindCase = {
  activities: {
    writeSmokeSummary: (input: { outDir: string }) => rendered(input.outDir, ['json']),
  },
  phases: ['paging', 'enriching', 'writing'],
  snapshot: null,
  check(kit, result, job) {
    expect(ops(kit)).toEqual(['my_account', 'search_startups', 'get_startup']);
    expect(paramsOf(kit, 'search_startups')[0]).toEqual({
      countries: [job.country],
      limit: 100,
      offset: 0,
    });
    const summary = kit.inputsOf('writeSmokeSummary')[0];
    expect(summary).toMatchObject({
      pages: [refOf(kit, 'pages/startups-germany-0000')],
      total: 50,
      profile: refOf(kit, 'profiles/first'),
      job: { id: job.id, country: job.country },
    });
    expect(result).toMatchObject({ pages: 1, records: 50, creditsSpent: 0 });
  },
};
