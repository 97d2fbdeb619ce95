/**
 * Each registered job kind's workflow once, on the time-skipping server, its activities plain
 * functions answering plausibly (test/helpers/stub-activities.ts), its job the kind's own example
 * file. The kinds come from the registry (jobs/registry.ts): a kind added there fails the first
 * test until it has a row in CASES, and then gets every check every kind gets:
 *
 * - the job is checked first, the day's calls reserved for the kind's estimate, then my_account;
 * - no more calls than the estimate, no more paid calls than the budget pays for, no more credits;
 * - the kind's phases in order, as `progressQuery` tells them, ending in `done`;
 * - what its last activity rendered is what the manifest records and the run returns, with the
 *   snapshot its build made.
 *
 * Each row then checks the kind's own decisions: which calls, in which order, and what reaches
 * its build and render activities; and, where the kind pays, a budget too small for all of it
 * (the partial flags and reasons).
 */
import { describe, expect, it } from 'vitest';
import { WorkflowFailedError } from '@temporalio/client';
import { creditsOf, type PaidOperation } from '../../../api/catalog.js';
import { loadJobFile } from '../../../jobs/files.js';
import { JOB_KINDS, type AnyJob } from '../../../jobs/registry.js';
import type { AnyJobKind } from '../../../jobs/kind.js';
import type { JobRunResult } from '../../../workflows/engine.js';
import { progressQuery, type RunProgress } from '../../../workflows/progress.js';
import { paged, stubBed, type StubKit, type StubOptions } from '../../helpers/stub-activities.js';

type Job = AnyJob & Record<string, any>;

interface KindCase {
  /** Which of the kind's example files, by its name (default the first). */
  example?: string;
  stubs?: StubOptions;
  /** The kind's phases after `starting`, in order (`?`: no activity need start in it). */
  phases: string[];
  /** The snapshot its build made (under the run's key), which the manifest commits; null: none. */
  snapshot: string | null;
  /** The kind's own decisions. */
  check(kit: StubKit, result: JobRunResult & Record<string, any>, job: Job): void;
  /** A budget too small for every paid call: the job changed, and what the run must say. */
  short?: {
    job(job: Job): Job;
    stubs?: StubOptions;
    check(kit: StubKit, outcome: { result?: JobRunResult; error?: WorkflowFailedError }, job: Job): void;
  };
}

const ops = (kit: StubKit) => kit.operations();
const paramsOf = (kit: StubKit, operation: string) =>
  kit
    .calls()
    .filter((c) => c.operation === operation)
    .map((c) => c.input.params as Record<string, any>);
const namesOf = (kit: StubKit, operation: string) =>
  kit
    .calls()
    .filter((c) => c.operation === operation)
    .map((c) => c.input.name as string);
const refOf = (kit: StubKit, name: string) => `${kit.calls()[0]!.input.runKey}/${name}.json`;

const CASES: Record<string, KindCase> = {
  smoke: {
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
  },

  'market-report': {
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
      expect(kit.inputsOf('renderMarketReport')[0].modelRef).toBe(
        `${kit.calls()[0]!.input.runKey}/model.json`,
      );
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
  },

  'prospect-list': {
    example: 'prospects.yaml', // two briefs, two searches, 15 credits
    // The searches' pages start with the briefs (in `finding`); `paging` is where the run waits
    // for what is left of them, so an activity may or may not start in it.
    phases: ['finding', 'paging?', 'merging', 'enriching', 'building', 'rendering'],
    snapshot: 'snapshot.json',
    check(kit, result, job) {
      // The briefs in the job's order, each with its own parameters.
      expect(paramsOf(kit, 'find_customers').map((p) => p.limit)).toEqual(
        job.briefs.map((b: any) => b.limit),
      );
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
      expect(kit.names().indexOf('callApi:get_startup')).toBeGreaterThan(
        kit.names().indexOf('mergeProspects'),
      );
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
  },

  'fund-match': {
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
      expect(kit.inputsOf('renderFundDigest')[0].digestRef).toBe(
        `${kit.calls()[0]!.input.runKey}/digest.json`,
      );
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
  },

  'investor-shortlist': {
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
  },
};

/** The kind's example job (its file from the registry). */
async function exampleJob(kind: AnyJobKind): Promise<Job> {
  const wanted = CASES[kind.kind]?.example;
  const file = wanted ? kind.examples.find((f) => f.endsWith(`/${wanted}`)) : kind.examples[0];
  if (!file) throw new Error(`${kind.kind}: no example ${wanted} in the registry`);
  return (await loadJobFile(file)).jobs[0] as Job;
}

describe('every registered kind on the time-skipping server', () => {
  const stubs = stubBed();

  it('every kind of the registry has a case here', () => {
    expect(Object.keys(CASES).sort()).toEqual(JOB_KINDS.map((k) => k.kind).sort());
  });

  describe.each(JOB_KINDS.map((k) => [k.kind, k] as const))('%s', (name, kind: AnyJobKind) => {
    const c = CASES[name]!;

    it("runs its example: the engine's checks, then the kind's own decisions", async () => {
      const job = await exampleJob(kind);
      const kit = stubs.use(c.stubs ?? {});
      const handle = await kit.start(kind.workflow, job);
      const result = (await handle.result()) as JobRunResult & Record<string, any>;
      const progress: RunProgress = await handle.query(progressQuery);
      const estimate = kind.estimate(job);

      // The job is checked before anything, the day's calls reserved for the plan, then the balance.
      expect(kit.names().slice(0, 3)).toEqual(['checkJob', 'reserveDayCalls', 'callApi:my_account']);
      expect(kit.inputsOf('checkJob')[0].job).toMatchObject({ id: job.id, kind: name });
      expect(kit.inputsOf('reserveDayCalls')[0].calls).toBe(estimate.maxCalls);
      // Within the estimate and the budget.
      const calls = kit.calls();
      expect(calls.length).toBeLessThanOrEqual(estimate.maxCalls);
      const paid = calls.filter((r) => creditsOf(r.operation!) > 0);
      expect(paid.length).toBeLessThanOrEqual(estimate.paidCallsInBudget);
      const credits = paid.reduce((n, r) => n + creditsOf(r.operation as PaidOperation), 0);
      expect(credits).toBeLessThanOrEqual(job.budget.credits);
      expect(result.creditsSpent).toBe(credits);
      expect(result.callsMade).toBe(calls.length);
      expect(result.pages).toBe(calls.filter((r) => paged(r.operation!)).length);
      // The kind's phases, in order, then done.
      const seen: string[] = [];
      for (const r of kit.log) if (r.phase !== null && !seen.includes(r.phase)) seen.push(r.phase);
      const phases = c.phases.filter((p) => !p.endsWith('?') || seen.includes(p.slice(0, -1)));
      expect(seen).toEqual(['starting', ...phases.map((p) => p.replace(/\?$/, ''))]);
      expect(progress).toMatchObject({ phase: 'done', callsMade: calls.length, callsPlanned: calls.length });
      // The render reaches the manifest and the result; the build's snapshot is committed.
      const names = kit.names();
      // The manifest's activity ends the run and frees its day's calls (no activity of their own).
      expect(names.at(-1)).toBe('finalizeRun');
      expect(names).not.toContain('releaseDayCalls');
      const fin = kit.inputsOf('finalizeRun')[0];
      expect(fin.releaseDayCalls).toBe(true);
      expect(fin.job).toMatchObject({ id: job.id, kind: name });
      expect(result.files).toEqual(fin.render.files);
      expect(result.outDir).toBe(fin.render.outDir);
      expect(fin.stats).toMatchObject({
        partial: false,
        reasons: [],
        callsMade: calls.length,
        creditsSpent: credits,
      });
      expect(fin.snapshotRef).toBe(c.snapshot === null ? null : `${handle.workflowId}/${c.snapshot}`);
      expect(result).toMatchObject({ partial: false, reasons: [] });
      c.check(kit, result, job);
    });

    if (c.short) {
      const short = c.short;
      it('with a budget too small for all its paid calls: refused before sending, and said', async () => {
        const job = short.job(await exampleJob(kind));
        const kit = stubs.use({ probe: false, ...short.stubs });
        const handle = await kit.start(kind.workflow, job);
        const outcome = await handle.result().then(
          (result) => ({ result: result }),
          (error: unknown) => ({ error: error as WorkflowFailedError }),
        );
        const paid = kit.calls().filter((r) => creditsOf(r.operation!) > 0);
        expect(paid.reduce((n, r) => n + creditsOf(r.operation as PaidOperation), 0)).toBeLessThanOrEqual(
          job.budget.credits,
        );
        short.check(kit, outcome, job);
      });
    }
  });
});
