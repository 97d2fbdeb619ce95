/**
 * The market report's part of the checks every registered kind gets on the time-skipping server
 * (test/workflows/skipping/kind-registry.test.ts): its activities as stubs answering plausibly
 * (every stub worker has them, test/helpers/stub-activities.ts), its phases, and its own
 * decisions.
 */
import { expect } from 'vitest';
import { ops, paramsOf, refOf, type KindCase } from '../../helpers/kind-cases.js';
import { outDirOf, rendered } from '../../helpers/stub-activities.js';

export const kindCase: KindCase = {
  activities: {
    buildMarketModel: (input: { runKey: string }) => ({
      modelRef: `${input.runKey}/model.json`,
      snapshotRef: `${input.runKey}/snapshot.json`,
      asOf: '2026-11-26',
    }),
    renderMarketReport: (input: { job: { id: string; outputs?: string[] }; date: string }) =>
      rendered(outDirOf(input), input.job.outputs ?? ['xlsx', 'pdf']),
  },
  example: 'demo.yaml', // three countries, three questions, 10 credits
  phases: ['paging', 'enriching', 'asking', 'building', 'rendering'],
  snapshot: 'snapshot.json',
  check(kit, result, job) {
    const countries: string[] = job.countries;
    // Per country: its overview and three paged searches; the top records enriched.
    expect(
      paramsOf(kit, 'country_overview')
        .map((p) => p.country)
        .sort(),
    ).toEqual([...countries].sort());
    expect(paramsOf(kit, 'search_investors')).toHaveLength(2 * countries.length);
    expect(paramsOf(kit, 'search_startups')).toHaveLength(countries.length);
    expect(new Set(paramsOf(kit, 'search_investors').map((p) => `${p.country} ${p.sort}`)).size).toBe(
      2 * countries.length,
    );
    expect(paramsOf(kit, 'get_investor')).toHaveLength(countries.length * job.enrich.investors);
    expect(paramsOf(kit, 'get_startup')).toHaveLength(countries.length * job.enrich.startups);
    // Reads first, then the questions, in the job's order ({country} expanded per country).
    const asks = paramsOf(kit, 'ask').map((p) => p.query);
    expect(asks).toEqual([
      ...countries.map((c) => `largest rounds of the last 7 days in ${c}`),
      'which countries raised the most in 2025',
      'how did AI funding change from 2021 to 2023',
    ]);
    const order = ops(kit);
    expect(order.indexOf('ask')).toBeGreaterThan(order.lastIndexOf('get_startup'));
    expect(order.indexOf('ask')).toBeGreaterThan(order.lastIndexOf('get_investor'));
    // What reaches the model: every country's references, every answer with what it cost.
    const built = kit.inputsOf('buildMarketModel')[0];
    expect(built.countries.map((c: any) => c.country)).toEqual(countries);
    for (const c of built.countries) {
      expect(c.overview).toBe(refOf(kit, `overview/${c.country.toLowerCase().replace(/ /g, '-')}`));
      expect(c).toMatchObject({ investorsTotal: 50, startupsTotal: 50, investorsCapped: false });
      expect(c.investorsByScore).toHaveLength(1);
      expect(c.investorProfiles).toHaveLength(job.enrich.investors);
      expect(c.startupProfiles).toHaveLength(job.enrich.startups);
    }
    expect(built.answers.map((a: any) => [a.ref, a.charged, a.skipped])).toEqual(
      asks.map((_, i) => [refOf(kit, `answers/q-${String(i).padStart(3, '0')}`), 1, null]),
    );
    expect(built.stats.finishedAt).toBeDefined(); // the clock stopped before the model
    expect(kit.inputsOf('renderMarketReport')[0].modelRef).toBe(`${kit.calls()[0]!.input.runKey}/model.json`);
    expect(result).toMatchObject({ creditsSpent: asks.length, partial: false });
  },
  short: {
    job: (job) => ({ ...job, budget: { credits: 2 } }),
    check(kit, { result }) {
      expect(paramsOf(kit, 'ask')).toHaveLength(2);
      expect(result).toMatchObject({ partial: true, creditsSpent: 2 });
      expect(result!.reasons).toEqual(['3 of 5 data-agent questions skipped: credit budget of 2 credits']);
      const skipped = kit.inputsOf('buildMarketModel')[0].answers.map((a: any) => a.skipped);
      expect(skipped.slice(0, 2)).toEqual([null, null]);
      for (const s of skipped.slice(2)) expect(s).toMatch(/^not asked: credit budget of 2 reached/);
    },
  },
};
