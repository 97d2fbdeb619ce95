/**
 * The investor shortlist's part of the checks every registered kind gets on the time-skipping server
 * (test/workflows/skipping/kind-registry.test.ts): its activities as stubs answering plausibly
 * (every stub worker has them, test/helpers/stub-activities.ts), its phases, and its own
 * decisions.
 */
import { expect } from 'vitest';
import { paramsOf, namesOf, refOf, type KindCase } from '../../helpers/kind-cases.js';
import { outDirOf, rendered } from '../../helpers/stub-activities.js';

export const kindCase: KindCase = {
  activities: {
    readAccountPlan: () => 'pro',
    buildShortlist: (input: { runKey: string }) => ({
      reportRef: `${input.runKey}/shortlist.json`,
      snapshotRef: `${input.runKey}/snapshot.json`,
      baseline: true,
    }),
    renderShortlist: (input: { job: { id: string; outputs?: string[] }; date: string }) =>
      rendered(outDirOf(input), input.job.outputs ?? ['pdf']),
  },
  phases: ['finding', 'enriching', 'building', 'rendering'],
  snapshot: 'snapshot.json',
  check(kit, result, job) {
    // The plan is read from a second my_account before anything is paid.
    expect(namesOf(kit, 'my_account')).toEqual(['account', 'account/plan']);
    expect(kit.inputsOf('readAccountPlan')).toEqual([{ ref: refOf(kit, 'account/plan') }]);
    expect(paramsOf(kit, 'find_investors').map((p) => p.limit)).toEqual(
      job.companies.map((c: any) => c.limit),
    );
    expect(namesOf(kit, 'find_investors')).toEqual(['investors/company-1', 'investors/company-2']);
    expect(paramsOf(kit, 'find_investors')[1]).toMatchObject({
      investor_countries: ['United Kingdom', 'Germany', 'France'],
    });
    // Each company's top investors enriched (selectTop of its own list).
    expect(
      kit
        .inputsOf('selectTop')
        .map((i) => i.refs.join())
        .sort(),
    ).toEqual([refOf(kit, 'investors/company-1'), refOf(kit, 'investors/company-2')].sort());
    expect(paramsOf(kit, 'get_investor')).toHaveLength(2 * 3);
    const built = kit.inputsOf('buildShortlist')[0];
    expect(built.companies).toEqual([
      { name: 'Stackwise', ref: refOf(kit, 'investors/company-1'), charged: 3, problem: null },
      { name: 'Ledgerly', ref: refOf(kit, 'investors/company-2'), charged: 3, problem: null },
    ]);
    expect(built).toMatchObject({ creditsSpent: 6, planNote: null });
    expect(built.profiles).toHaveLength(6);
    expect(result).toMatchObject({ baseline: true, creditsSpent: 6, partial: false });
  },
  short: {
    // A free plan: the first company only, at the free plan's top 5 (the budget would pay for both).
    job: (job) => job,
    stubs: { overrides: { readAccountPlan: () => 'free' } },
    check(kit, { result }) {
      expect(paramsOf(kit, 'find_investors')).toEqual([expect.objectContaining({ limit: 5 })]);
      expect(result).toMatchObject({
        partial: true,
        creditsSpent: 3,
        reasons: ['1 of 2 companies not asked: the free plan'],
      });
      const built = kit.inputsOf('buildShortlist')[0];
      expect(built.companies[1]).toMatchObject({
        ref: null,
        problem: 'not asked: the free plan allows one run of find_investors',
      });
      expect(built.planNote).toMatch(/^A free plan: .* only Stackwise was asked\.$/);
    },
  },
};
