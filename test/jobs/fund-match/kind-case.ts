/**
 * The fund match's part of the checks every registered kind gets on the time-skipping server
 * (test/workflows/skipping/kind-registry.test.ts): its activities as stubs answering plausibly
 * (every stub worker has them, test/helpers/stub-activities.ts), its phases, and its own
 * decisions.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { expect } from 'vitest';
import { ops, paramsOf, refOf, type KindCase } from '../../helpers/kind-cases.js';
import { outDirOf, rendered } from '../../helpers/stub-activities.js';

export const kindCase: KindCase = {
  activities: {
    planFundProfiles: () => ({ keys: ['fund-s-1', 'fund-s-2', 'fund-s-3'], batch: 3 }),
    buildFundDigest: (input: { runKey: string }) => ({
      digestRef: `${input.runKey}/digest.json`,
      snapshotRef: `${input.runKey}/history.json`,
      baseline: true,
      quiet: false,
      counts: { batch: 3, new: 3, changed: 0, dropped: 0, events: 0 },
    }),
    renderFundDigest: (input: { job: { id: string; outputs?: string[] }; date: string }) =>
      rendered(outDirOf(input), input.job.outputs ?? ['pdf']),
  },
  phases: ['matching', 'watching', 'building', 'rendering'],
  snapshot: 'history.json',
  check(kit, result, job) {
    expect(ops(kit)).toEqual([
      'my_account',
      'find_startups_for_fund',
      'get_startup',
      'get_startup',
      'get_startup',
    ]);
    expect(paramsOf(kit, 'find_startups_for_fund')).toEqual([{ limit: job.limit }]);
    const batchRef = refOf(kit, 'batch');
    expect(kit.inputsOf('planFundProfiles')[0]).toEqual({
      job: { id: job.id, watchlist: job.watchlist },
      batchRef,
    });
    // Free reads go at once, in any order; what reaches the build is in the batch's order.
    expect(
      paramsOf(kit, 'get_startup')
        .map((p) => p.key)
        .sort(),
    ).toEqual(['fund-s-1', 'fund-s-2', 'fund-s-3']);
    const digest = kit.inputsOf('buildFundDigest')[0];
    expect(digest.batchRef).toBe(batchRef);
    expect(digest.profiles).toEqual(
      ['fund-s-1', 'fund-s-2', 'fund-s-3'].map((key, i) => ({
        key,
        ref: refOf(kit, `profiles/startup-${i}`),
      })),
    );
    expect(kit.inputsOf('renderFundDigest')[0].digestRef).toBe(`${kit.calls()[0]!.input.runKey}/digest.json`);
    expect(result).toMatchObject({
      baseline: true,
      quiet: false,
      creditsSpent: 3,
      counts: { batch: 3, new: 3 },
    });
  },
  short: {
    // Without its batch the run has nothing to compare: it fails, saying why, and pays nothing.
    job: (job) => ({ ...job, budget: { credits: 2 } }),
    check(kit, { error }) {
      expect(error).toBeInstanceOf(WorkflowFailedError);
      expect(error!.cause).toMatchObject({
        type: 'no_batch',
        message: 'no batch this run (0 credits spent): credit budget of 2 reached (0 spent, 0 reserved)',
      });
      expect(ops(kit)).toEqual(['my_account']);
      expect(kit.names()).not.toContain('planFundProfiles');
      expect(kit.names().slice(-2)).toEqual(['releaseDayCalls', 'recordFailedRun']);
    },
  },
};
