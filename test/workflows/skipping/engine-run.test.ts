/**
 * The run engine's decisions (workflows/engine.ts, run-books.ts) on the time-skipping server,
 * every activity a plain function (test/helpers/stub-activities.ts). The engine is driven
 * through the smoke job, the smallest kind: its phases and progress as `progressQuery` tells
 * them, paging in children (pages and records reported to the run, the plan revised to the
 * pages the total needs), a failed paging child or read that makes the run partial, the job
 * check and the guard of a failed run, and paging resumed from the state continue-as-new hands
 * over. The credit budget is driven through the market report's data-agent questions (1 credit
 * each): a paid call the budget or the balance cannot pay for is refused before it is sent.
 */
import { describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { parseJob } from '../../../jobs/files.js';
import { smokeWorkflow } from '../../../jobs/smoke/workflow.js';
import { marketReportWorkflow } from '../../../jobs/market-report/workflow.js';
import type { MarketReportJob } from '../../../jobs/market-report/job.js';
import type { SmokeJob } from '../../../jobs/smoke/job.js';
import { pageSearchWorkflow } from '../../../workflows/paging.js';
import { progressQuery } from '../../../workflows/progress.js';
import { apiFailure, failure, stubBed, type StubOptions } from '../../helpers/stub-activities.js';

const smokeJob = (over: Record<string, unknown> = {}) =>
  parseJob({
    id: 'engine-smoke',
    kind: 'smoke',
    title: 'Engine',
    country: 'Germany',
    records: 250,
    ...over,
  }) as SmokeJob;

describe('the run engine on the time-skipping server', () => {
  const stubs = stubBed();

  /** Runs a smoke job with stub activities; gives the result, the final progress and the kit. */
  async function runSmoke(options: StubOptions, job = smokeJob()) {
    const kit = stubs.use(options);
    const handle = await kit.start(smokeWorkflow, job);
    const result = await handle.result();
    const progress = await handle.query(progressQuery);
    return { kit, result, progress, handle };
  }

  it('goes through its phases in order, the plan revised once paging knows the total', async () => {
    const { kit, result, progress } = await runSmoke({ total: 130 });
    // The job check first, the day's calls reserved for the plan, then my_account: all before paging.
    expect(kit.names().slice(0, 3)).toEqual(['checkJob', 'reserveDayCalls', 'callApi:my_account']);
    // 250 records at 100 a page: my_account + 3 pages + get_startup planned before the total is known.
    expect(kit.inputsOf('reserveDayCalls')[0]).toMatchObject({ calls: 5 });
    const phaseOf = (name: string) =>
      kit.log
        .filter((r) => (r.operation ? `callApi:${r.operation}` : r.activity) === name)
        .map((r) => r.phase);
    expect(phaseOf('checkJob')).toEqual(['starting']);
    expect(phaseOf('callApi:my_account')).toEqual(['starting']);
    expect(phaseOf('callApi:search_startups')).toEqual(['paging', 'paging']);
    // The startup to enrich is the first page's first record, known from the page itself.
    expect(phaseOf('selectTop')).toEqual([]);
    expect(kit.calls().find((r) => r.operation === 'get_startup')?.input.params).toEqual({
      key: 'search_startups-0',
    });
    expect(phaseOf('callApi:get_startup')).toEqual(['enriching']);
    expect(phaseOf('writeSmokeSummary')).toEqual(['writing']);
    // The day's calls are freed before the manifest, and the manifest is the last thing written.
    expect(kit.names().at(-1)).toBe('finalizeRun');
    expect(kit.inputsOf('finalizeRun')[0].releaseDayCalls).toBe(true);
    // 130 records: two pages, not the three the cap allowed (the progress below).
    expect(progress).toMatchObject({
      phase: 'done',
      callsMade: 4,
      callsPlanned: 4,
      pages: 2,
      records: 130,
      partial: false,
      reasons: [],
      waitingUntil: null,
    });
    expect(progress.attempts).toEqual({
      my_account: { attempted: 1, succeeded: 1, failed: 0 },
      search_startups: { attempted: 2, succeeded: 2, failed: 0 },
      get_startup: { attempted: 1, succeeded: 1, failed: 0 },
    });
    // The manifest got the run's own books and the render.
    const fin = kit.inputsOf('finalizeRun')[0];
    expect(fin.stats).toMatchObject({ callsMade: 4, pages: 2, records: 130, partial: false });
    expect(fin.stats.callsByOperation).toEqual({ my_account: 1, search_startups: 2, get_startup: 1 });
    expect(fin.render.files).toEqual({ json: `${fin.render.outDir}/report.json` });
    expect(result).toMatchObject({ partial: false, callsMade: 4, pages: 2, records: 130 });
    expect(result.manifestPath).toBe(`${fin.render.outDir}/manifest.json`);
    expect(result).not.toHaveProperty('delivery');
  });

  it('mid-paging, progress counts the pages reported and plans the pages the total needs', async () => {
    const seen: { offset: number; pages: number; records: number; planned: number }[] = [];
    let runId = '';
    const kit = stubs.use({
      total: 420,
      probe: false,
      api: {
        // Each page asks the run's progress before it answers: what the run had been told so far.
        search_startups: async (input) => {
          const p = await stubs.env.client.workflow.getHandle(runId).query(progressQuery);
          const offset = (input.params as { offset?: number }).offset ?? 0;
          seen.push({ offset, pages: p.pages, records: p.records, planned: p.callsPlanned });
          return {};
        },
      },
    });
    const handle = await kit.start(smokeWorkflow, smokeJob({ records: 1000 }));
    runId = handle.workflowId;
    const result = await handle.result();
    // Before the first page the run plans the cap's 10 pages; once the total (420) is known, 5.
    expect(seen[0]).toEqual({ offset: 0, pages: 0, records: 0, planned: 12 });
    const later = seen.filter((s) => s.offset > 0);
    expect(later).toHaveLength(4);
    for (const s of later) expect(s.planned).toBe(7);
    expect(result).toMatchObject({ pages: 5, records: 420, callsMade: 7 });
    // The child pages are named by the run: <run>/paging/<label>, stored under the run's key.
    const pageNames = kit
      .calls()
      .filter((c) => c.operation === 'search_startups')
      .map((c) => c.input.name);
    expect(pageNames.sort()).toEqual([0, 1, 2, 3, 4].map((i) => `pages/startups-germany-000${i}`));
    expect(kit.calls()[1]!.input.runKey).toBe(runId);
  });

  it('a paging child that fails makes the run partial, and the run still finishes', async () => {
    const { kit, result, progress } = await runSmoke({
      api: {
        search_startups: (input) => {
          if ((input.params as { offset?: number }).offset === 100)
            throw apiFailure('search is down', 'server_error');
          return {};
        },
      },
      // Two pages: the first, then the one that fails (no third page in flight whose answer
      // would race the failure).
      total: 200,
    });
    expect(result.partial).toBe(true);
    expect(result.reasons).toEqual(['search_startups Germany: search is down']);
    expect(progress).toMatchObject({ phase: 'done', partial: true, reasons: result.reasons });
    // Nothing of the failed stream reaches the summary; the run still enriches nothing and writes.
    expect(kit.inputsOf('writeSmokeSummary')[0]).toMatchObject({ pages: [], total: null, profile: null });
    expect(kit.operations()).not.toContain('get_startup');
    expect(kit.inputsOf('finalizeRun')[0].stats).toMatchObject({ partial: true, reasons: result.reasons });
    // The first page was reported as it came; the failed page's request counts as sent and failed.
    expect(progress).toMatchObject({ pages: 1, records: 100 });
    expect(progress.attempts?.search_startups).toEqual({ attempted: 2, succeeded: 1, failed: 1 });
  });

  it('a read that fails makes the run partial with its reason', async () => {
    const { kit, result } = await runSmoke({
      api: {
        get_startup: () => {
          throw apiFailure('no such startup', 'not_found');
        },
      },
    });
    expect(result).toMatchObject({
      partial: true,
      reasons: ['get_startup search_startups-0: no such startup'],
    });
    expect(kit.inputsOf('writeSmokeSummary')[0].profile).toBeNull();
    expect(kit.inputsOf('finalizeRun')[0].stats).toMatchObject({ partial: true, reasons: result.reasons });
  });

  /** Runs a smoke job that fails; gives its failure (the root cause the run reports), progress and kit. */
  async function failSmoke(options: StubOptions) {
    const kit = stubs.use(options);
    const handle = await kit.start(smokeWorkflow, smokeJob());
    const err: unknown = await handle.result().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    const progress = await handle.query(progressQuery);
    return { kit, cause: cause as ApplicationFailure, progress, runId: handle.workflowId };
  }

  it('a job its check refuses fails at once, not retried, before any call, with a failed-run manifest', async () => {
    const refusal = 'job "engine-smoke": country: the service knows no country "Atlantis"';
    const { kit, cause, progress, runId } = await failSmoke({
      overrides: {
        checkJob: () => {
          throw failure(refusal, 'job_check_failed');
        },
      },
    });
    expect(kit.calls()).toEqual([]);
    // Checked once (not retried), nothing reserved, the day's calls freed, the failure recorded.
    expect(kit.names()).toEqual(['checkJob', 'releaseDayCalls', 'recordFailedRun']);
    expect(cause.message).toBe(refusal);
    expect(cause.type).toBe('job_check_failed');
    expect(cause.nonRetryable).toBe(true);
    expect(cause.details).toEqual([{ manifestPath: `/stub/failed/${runId}/manifest.json` }]);
    const recorded = kit.inputsOf('recordFailedRun')[0];
    expect(recorded).toMatchObject({ failure: refusal, job: { id: 'engine-smoke', kind: 'smoke' } });
    expect(recorded.stats).toMatchObject({ workflowId: runId, callsMade: 0, creditsSpent: 0 });
    expect(recorded.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(progress.phase).toBe('done');
  });

  it('a run whose activity fails records why, delivers nothing, and fails with the root cause', async () => {
    const { kit, cause, progress, runId } = await failSmoke({
      overrides: {
        writeSmokeSummary: () => {
          throw failure('no space left on device', 'ENOSPC');
        },
      },
    });
    expect(cause.message).toBe('no space left on device');
    expect(cause.type).toBe('ENOSPC');
    expect(cause.nonRetryable).toBe(true);
    expect(cause.details).toEqual([{ manifestPath: `/stub/failed/${runId}/manifest.json` }]);
    expect(kit.names().slice(-3)).toEqual(['writeSmokeSummary', 'releaseDayCalls', 'recordFailedRun']);
    expect(kit.names()).not.toContain('finalizeRun');
    // The failed run's manifest has the run's books up to the failure.
    expect(kit.inputsOf('recordFailedRun')[0].stats).toMatchObject({ callsMade: 3, pages: 1, records: 50 });
    expect(progress.phase).toBe('done');
  });

  it('a refused key stops the run; a manifest that cannot be written does not hide the failure', async () => {
    const { kit, cause } = await failSmoke({
      api: {
        get_startup: () => {
          throw apiFailure('the API key was revoked', 'unauthorized');
        },
      },
      overrides: {
        recordFailedRun: () => {
          throw failure('the destination is gone', 'ENOENT');
        },
      },
    });
    expect(cause.message).toBe('the API key was revoked');
    expect(cause.type).toBe('unauthorized');
    expect(cause.details).toEqual([{ manifestPath: null }]);
    expect(kit.names()).not.toContain('writeSmokeSummary');
    expect(kit.names()).not.toContain('finalizeRun');
  });

  it('resumes paging from the state continue-as-new hands over, asking no page twice', async () => {
    // The Java test server never sets continueAsNewSuggested (no history-size suggestion: the
    // test server's sources never set it), so the decision to continue as new is proven on the
    // real dev server (its suggestion lowered to 20 events: test/jobs/market-report/run.test.ts).
    // Here: what the new run does with the state the old one carried over.
    const kit = stubs.use({ total: 730, probe: false });
    const carried = Array.from({ length: 3 }, (_, i) => `runs/r/pages/startups-000${i}.json`);
    const out = await stubs.env.client.workflow.execute(pageSearchWorkflow, {
      taskQueue: kit.taskQueue,
      workflowId: `${kit.taskQueue}-paging`,
      args: [
        {
          runKey: 'runs/r',
          operation: 'search_startups',
          params: { countries: ['Germany'] },
          cap: 10_000,
          label: 'startups',
          apiTaskQueue: kit.taskQueue,
          offset: 300,
          pageIndex: 3,
          refs: carried,
          records: 300,
          total: 730,
        },
      ],
    });
    const offsets = kit.calls().map((c) => (c.input.params as { offset: number }).offset);
    expect(offsets.sort((a, b) => a - b)).toEqual([300, 400, 500, 600, 700]);
    expect(
      kit
        .calls()
        .map((c) => c.input.name)
        .sort(),
    ).toEqual([3, 4, 5, 6, 7].map((i) => `pages/startups-000${i}`));
    expect(out).toMatchObject({ records: 730, pages: 8, total: 730, capped: false });
    expect(out.refs.slice(0, 3)).toEqual(carried);
    expect(out.refs).toHaveLength(8);
  });

  const marketJob = (credits: number) =>
    parseJob({
      id: 'engine-budget',
      kind: 'market-report',
      title: 'Budget',
      countries: ['France'],
      top: { investors: 5, startups: 5 },
      paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
      enrich: { investors: 1, startups: 1 },
      questions: ['first question', 'second question', 'third question'],
      budget: { credits },
    }) as MarketReportJob;

  /** The asks the fake service received, by their question. */
  const asked = (kit: ReturnType<typeof stubs.use>) =>
    kit
      .calls()
      .filter((c) => c.operation === 'ask')
      .map((c) => (c.input.params as { query: string }).query);

  it('a paid call the budget cannot pay for is refused before it is sent', async () => {
    const kit = stubs.use({ total: 20, probe: false });
    const result = await (await kit.start(marketReportWorkflow, marketJob(2))).result();
    // Two questions fit the 2 credits; the third was never sent.
    expect(asked(kit)).toEqual(['first question', 'second question']);
    expect(kit.balance()).toBe(998);
    expect(result).toMatchObject({ creditsSpent: 2, creditsBudget: 2, partial: true });
    expect(result.reasons).toEqual(['1 of 3 data-agent questions skipped: credit budget of 2 credits']);
    const answers = kit.inputsOf('buildMarketModel')[0].answers;
    expect(answers.map((a: { charged: number }) => a.charged)).toEqual([1, 1, 0]);
    expect(answers[2].ref).toBeNull();
    expect(answers[2].skipped).toBe('not asked: credit budget of 2 reached (0 spent, 2 reserved)');
    // Each paid call reserved its price in the account's ledger before it went out.
    const reservations = kit
      .calls()
      .filter((c) => c.operation === 'ask')
      .map((c) => c.input.account);
    expect(reservations.map((a) => a.credits)).toEqual([1, 1]);
    expect(reservations.map((a) => a.jobId)).toEqual(['engine-budget', 'engine-budget']);
  });

  it("the account's balance bounds the paid calls too; a failed paid call is a partial reason", async () => {
    const kit = stubs.use({ total: 20, probe: false, balance: 1 });
    const low = await (await kit.start(marketReportWorkflow, marketJob(10))).result();
    expect(asked(kit)).toEqual(['first question']);
    expect(low.creditsSpent).toBe(1);
    const answers = kit.inputsOf('buildMarketModel')[0].answers;
    expect(answers.slice(1).map((a: { skipped: string }) => a.skipped)).toEqual([
      'not asked: account balance too low (1 credits left)',
      'not asked: account balance too low (1 credits left)',
    ]);
    expect(low.reasons).toEqual(['2 of 3 data-agent questions skipped: credit budget of 10 credits']);

    const failing = stubs.use({
      total: 20,
      probe: false,
      api: {
        ask: (input) => {
          if ((input.params as { query: string }).query === 'second question')
            throw apiFailure('the data agent refused the question', 'bad_request');
          return {};
        },
      },
    });
    const partial = await (await failing.start(marketReportWorkflow, marketJob(10))).result();
    // The refused question was sent once (a known failure is not charged, not asked again).
    expect(asked(failing)).toEqual(['first question', 'second question', 'third question']);
    expect(partial).toMatchObject({ partial: true, creditsSpent: 2 });
    expect(partial.reasons).toEqual(['ask "second question": the data agent refused the question']);
    expect(failing.inputsOf('buildMarketModel')[0].answers[1]).toMatchObject({
      ref: null,
      charged: 0,
      skipped: 'the call failed (see methodology)',
    });
  });
});
