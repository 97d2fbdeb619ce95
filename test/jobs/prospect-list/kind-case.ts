/**
 * The prospect list's part of the checks every registered kind gets on the time-skipping server
 * (test/workflows/skipping/kind-registry.test.ts): its activities as stubs answering plausibly
 * (every stub worker has them, test/helpers/stub-activities.ts), its phases, and its own
 * decisions.
 */
import { expect } from 'vitest';
import { paramsOf, namesOf, refOf, type KindCase } from '../../helpers/kind-cases.js';
import { outDirOf, rendered } from '../../helpers/stub-activities.js';

export const kindCase: KindCase = {
  activities: {
    mergeProspects: (input: { job: { enrich: number; briefs: unknown[] }; runKey: string }) => ({
      rowChunks: [`${input.runKey}/rows-0.json`],
      suppressedChunks: [],
      enrichKeys: Array.from({ length: Math.min(input.job.enrich, 3) }, (_, i) => `prospect-${i}`),
      briefReturned: input.job.briefs.map(() => 5),
      counts: { merged: 12, listed: 10, sourceRecords: 20 },
      suppression: null,
      notProvided: [],
    }),
    finishProspectList: (input: { runKey: string }) => ({
      summaryRef: `${input.runKey}/summary.json`,
      rowChunks: [`${input.runKey}/rows-0.json`],
      suppressedChunks: [],
      snapshotRef: `${input.runKey}/snapshot.json`,
      listed: 10,
      netNew: 7,
    }),
    renderProspectList: (input: { job: { id: string; outputs?: string[] }; date: string }) =>
      rendered(outDirOf(input), input.job.outputs ?? ['csv']),
  },
  example: 'prospects.yaml', // two briefs, two searches, 15 credits
  // The searches' pages start with the briefs (in `finding`); `paging` is where the run waits
  // for what is left of them, so an activity may or may not start in it.
  phases: ['finding', 'paging?', 'merging', 'enriching', 'building', 'rendering'],
  snapshot: 'snapshot.json',
  check(kit, result, job) {
    // The briefs in the job's order, each with its own parameters.
    expect(paramsOf(kit, 'find_customers').map((p) => p.limit)).toEqual(job.briefs.map((b: any) => b.limit));
    expect(paramsOf(kit, 'find_customers')[1]).toMatchObject({ stages: ['seed', 'series-a'] });
    expect(
      namesOf(kit, 'search_startups')
        .map((n) => n.replace(/-\d+$/, ''))
        .sort(),
    ).toEqual(['pages/search-1', 'pages/search-2']);
    const merged = kit.inputsOf('mergeProspects')[0];
    expect(merged.briefs).toEqual([
      { label: 'brief 1', ref: refOf(kit, 'customers/brief-1') },
      { label: 'brief 2', ref: refOf(kit, 'customers/brief-2') },
    ]);
    expect(merged.searches.map((s: any) => [s.label, s.refs.length])).toEqual([
      ['search 1', 1],
      ['search 2', 1],
    ]);
    // The merged list's top keys enriched (after the merge), the rest of the list left as it is.
    expect(
      paramsOf(kit, 'get_startup')
        .map((p) => p.key)
        .sort(),
    ).toEqual(['prospect-0', 'prospect-1', 'prospect-2']);
    expect(kit.names().indexOf('callApi:get_startup')).toBeGreaterThan(kit.names().indexOf('mergeProspects'));
    const finished = kit.inputsOf('finishProspectList')[0];
    expect(finished.enrichment.map((e: any) => e.key)).toEqual(['prospect-0', 'prospect-1', 'prospect-2']);
    expect(finished.briefs.map((b: any) => [b.label, b.returned, b.charged, b.problem])).toEqual([
      ['brief 1', 5, 3, null],
      ['brief 2', 5, 3, null],
    ]);
    expect(finished.limits).toEqual(["the top 3 of 10 rows enriched (the job's enrich: 200)"]);
    expect(kit.inputsOf('renderProspectList')[0].refs.summaryRef).toBe(
      `${kit.calls()[0]!.input.runKey}/summary.json`,
    );
    expect(result).toMatchObject({ listed: 10, netNew: 7, creditsSpent: 6, partial: false });
  },
  short: {
    job: (job) => ({ ...job, budget: { credits: 3 } }),
    check(kit, { result }) {
      expect(paramsOf(kit, 'find_customers')).toHaveLength(1);
      const reason = '1 of 2 find_customers briefs not asked: credit budget of 3 credits';
      expect(result).toMatchObject({ partial: true, reasons: [reason], creditsSpent: 3 });
      expect(kit.inputsOf('mergeProspects')[0].briefs[1]).toEqual({ label: 'brief 2', ref: null });
      const finished = kit.inputsOf('finishProspectList')[0];
      expect(finished.briefs[1].problem).toMatch(/^not asked: credit budget of 3 reached/);
      expect(finished.limits[0]).toBe(reason);
      // The searches are free: paged all the same.
      expect(paramsOf(kit, 'search_startups')).toHaveLength(2);
    },
  },
};
