/**
 * Runs in flight survive deploys: fresh runs of every job kind replay through the current
 * workflow code without nondeterminism (the frozen sets do too: replay-frozen.test.ts). A change
 * to a workflow's commands goes behind `patched()` and adds its own frozen set:
 * VIR_FREEZE_HISTORIES=<label> saves this run's fresh histories as a new set (see the README's
 * "Changing a workflow safely").
 *
 * The kinds come from the registry: a kind no test below runs has its first example file run
 * (with its sandbox key), so a new kind needs no change here, only a new frozen set recorded
 * with it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { loadJobFile } from '../../jobs/files.js';
import { JOB_KINDS } from '../../jobs/registry.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { parseFundMatchJob } from '../../jobs/fund-match/index.js';
import { parseInvestorShortlistJob } from '../../jobs/investor-shortlist/index.js';
import { parseProspectListJob } from '../../jobs/prospect-list/index.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import { parseDeckTriageJob } from '../../jobs/deck-triage/index.js';
import { EXAMPLE_DECKS } from '../../jobs/deck-triage/examples/deck-slides.js';
import { serveExampleDecks } from '../fixtures/decks/example-host.js';
import { sharedTestCert } from '../fixtures/decks/tls-server.js';
import { accountIdOf } from '../../activities/account.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { freezeHistories, runHistories, workflowTypeOf, type RecordedHistory } from '../helpers/histories.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { startDeliveryBed } from '../helpers/delivery-bed.js';
import { redeliverRunWorkflow } from '../../workflows/delivery.js';
import { startRerender } from '../../cli/commands/runs-rerender.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { expectClean, replay } from '../helpers/replay.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  // Deck analyses answer 'running' at first (polled on timers); deck links served with the
  // test process' certificate, which the sandbox and the workers trust.
  const deckCa = sharedTestCert();
  sandbox = await startTestSandbox({
    rateLimitPerMinute: 10_000,
    trustedCa: [deckCa.cert],
    deckWaitMs: 0,
    deckAnalysisMs: 1500,
  });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: 'vis_live_sandbox_vc',
    name: 'replay',
    env: { VIR_DECK_CA_FILE: deckCa.caFile },
  });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe('fresh runs', () => {
  const fresh: RecordedHistory[] = [];

  test('a market report (budget skips, comparisons, paging inline and in children) replays', async () => {
    const job = parseMarketReportJob({
      id: 'replay-test',
      title: 'Replay test',
      countries: ['Germany', 'Israel'],
      top: { investors: 3, startups: 3 },
      // Five pages of investors: paged in children; two of startups: in the run itself.
      paging: { maxInvestorsPerCountry: 500, maxStartupsPerCountry: 150 },
      enrich: { investors: 1, startups: 1 },
      questions: [
        'largest rounds of the last 7 days in {country}',
        'which countries raised the most in 2025',
      ],
      budget: { credits: 2 },
      destination: `${h.dir}/reports`,
    });
    const handle = await startJobRun(h.client, h.settings, job);
    const result = await followRun(handle, QUIET);
    expect(result.partial).toBe(true);
    const histories = await runHistories(h.client, handle.workflowId);
    expect(histories.length).toBeGreaterThan(3);
    expectClean(await replay(histories), histories.length);
    fresh.push(...histories);
  });

  test('a market report whose paid call lost its answer after the charge (reconciled, asked again) replays', async () => {
    const job = parseMarketReportJob({
      id: 'replay-paid',
      title: 'Replay paid calls',
      countries: ['Germany'],
      top: { investors: 3, startups: 3 },
      paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
      enrich: { investors: 0, startups: 0 },
      questions: ['which countries raised the most in 2025', 'median series A size in Germany'],
      budget: { credits: 3 },
      outputs: ['xlsx'],
      destination: `${h.dir}/reports`,
    });
    sandbox.setFaults({ afterCharge: { dropRate: 1, operations: ['ask'], times: 1 } });
    let result;
    try {
      result = await followRun(await startJobRun(h.client, h.settings, job), QUIET);
    } finally {
      sandbox.setFaults({});
    }
    const histories = await runHistories(h.client, result.workflowId);
    const main = histories.find((x) => x.workflowId === result.workflowId)!;
    // The patch marker, the lost answer (a failed activity), and the question asked again.
    const E = temporal.api.enums.v1.EventType;
    const types = (main.history.events ?? []).map((e) => e.eventType);
    expect(types).toContain(E.EVENT_TYPE_MARKER_RECORDED);
    expect(types.filter((t) => t === E.EVENT_TYPE_ACTIVITY_TASK_FAILED)).toHaveLength(1);
    expectClean(await replay(histories), histories.length);
    fresh.push(...histories);
  });

  test('a run whose paging child waits for the daily limit (and tells its parent) replays', async () => {
    // Its own sandbox: 6 calls a "day" of 10 seconds, so the limit is reached while paging with
    // the reset well past the 1.5 s under which a call waits in its activity instead of on a
    // timer (a 4 s day let a slow machine spend most of it on the 6 calls: no timer, a flake).
    const daily = await startTestSandbox({
      rateLimitPerMinute: 10_000,
      rateLimitPerDay: 6,
      dayWindowMs: 10_000,
    });
    const runner = await startRunner({
      baseUrl: daily.url,
      apiKey: 'vis_live_sandbox_vc',
      name: 'replay-daily',
      tuning: { dailyLimitThresholdMs: 1500 },
    });
    try {
      const job = parseSmokeJob({
        id: 'replay-daily',
        title: 'Replay daily limit',
        country: 'Germany',
        records: 600,
        destination: `${runner.dir}/reports`,
      });
      const handle = await startJobRun(runner.client, runner.settings, job);
      await followRun(handle, QUIET);
      const histories = await runHistories(runner.client, handle.workflowId);
      const E = temporal.api.enums.v1.EventType;
      const paging = histories.filter((x) => x.workflowId.includes('/paging/'));
      const events = paging.flatMap((x) => x.history.events ?? []).map((e) => e.eventType);
      expect(events).toContain(E.EVENT_TYPE_TIMER_STARTED);
      expect(events).toContain(E.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED);
      expectClean(await replay(histories), histories.length);
      fresh.push(...histories);
    } finally {
      await runner.close();
      await daily.close();
    }
  });

  test('a smoke run replays', async () => {
    const job = parseSmokeJob({
      id: 'replay-smoke',
      title: 'Replay smoke',
      country: 'France',
      records: 150,
      destination: `${h.dir}/reports`,
    });
    const handle = await startJobRun(h.client, h.settings, job);
    await followRun(handle, QUIET);
    const histories = await runHistories(h.client, handle.workflowId);
    // Its one short stream is paged in the run itself (engine's INLINE_MAX_PAGES): no child.
    expect(histories.length).toBe(1);
    expectClean(await replay(histories), histories.length);
    fresh.push(...histories);
  });

  test('a run delivered to email, webhooks and S3 (patched), one webhook failing, and its redelivery replay', async () => {
    const bed = await startDeliveryBed();
    const restoreEnv = bed.useEnv();
    try {
      bed.hook.script(410);
      const job = parseSmokeJob({
        id: 'replay-delivery',
        title: 'Replay delivery',
        country: 'France',
        records: 50,
        destination: `${h.dir}/reports`,
        delivery: [
          { s3: { bucket: bed.bucket, prefix: 'replay', endpoint: bed.s3.endpoint, region: bed.s3.region } },
          { email: { to: ['partner@fund.test'] } },
          { webhook: { url: `${bed.hook.url}/replay`, format: 'slack' } },
        ],
      });
      const handle = await startJobRun(h.client, h.settings, job);
      const result = await followRun(handle, QUIET);
      expect(result.delivery?.status).toBe('delivered partially');
      const redelivered = await h.client.workflow.execute(redeliverRunWorkflow, {
        taskQueue: h.settings.taskQueue,
        workflowId: `${handle.workflowId}/redeliver`,
        args: [{ runWorkflowId: handle.workflowId, manifestPath: result.manifestPath }],
      });
      expect(redelivered.status).toBe('delivered');
      expect(bed.smtp.messages).toHaveLength(1);
      const histories = await runHistories(h.client, handle.workflowId);
      const main = histories.find((x) => x.workflowId === handle.workflowId)!;
      const E = temporal.api.enums.v1.EventType;
      const scheduled = (main.history.events ?? []).filter(
        (e) => e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
      );
      const names = scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
      expect(names.filter((n) => n === 'deliverToDestination')).toHaveLength(3);
      expect(names).toContain('recordDeliveries');
      // The redelivery's own history (a workflow of its own).
      histories.push({
        workflowId: `${handle.workflowId}/redeliver`,
        history: await h.client.workflow.getHandle(`${handle.workflowId}/redeliver`).fetchHistory(),
      });
      // Its reports made again over its own files and delivered as a delivery of their own.
      const remade = await startRerender(h.client, h.settings.taskQueue, {
        runWorkflowId: handle.workflowId,
        runManifestPath: result.manifestPath,
        replace: true,
        deliver: true,
      });
      expect(remade.delivery?.outcomes.map((o) => o.destination)).toEqual(['s3-1', 'email-1', 'webhook-1']);
      const rerendered = await h.client.workflow.getHandle(remade.workflowId).fetchHistory();
      const remadeActivities = (rerendered.events ?? [])
        .filter((e) => e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
        .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
      expect(remadeActivities).toContain('replaceRunFiles');
      expect(remadeActivities.filter((n) => n === 'deliverToDestination')).toHaveLength(3);
      histories.push({ workflowId: remade.workflowId, history: rerendered });
      expectClean(await replay(histories), histories.length);
      fresh.push(...histories);
    } finally {
      restoreEnv();
      await bed.close();
    }
  });

  test('a prospect list (a paid brief, a paged search, enrichment, chunks) replays', async () => {
    // find_customers is for service providers: a runner with the provider's key.
    const provider = await startRunner({
      baseUrl: sandbox.url,
      apiKey: KEYS.provider,
      name: 'replay-prospects',
    });
    try {
      const job = parseProspectListJob({
        id: 'replay-prospects',
        kind: 'prospect-list',
        title: 'Replay prospects',
        briefs: [{ brief: 'law firm for seed fintech companies', org_key: 'brightline-legal', limit: 10 }],
        searches: [{ countries: ['France'], stages: ['seed'], cap: 250 }],
        enrich: 3,
        crm: ['hubspot'],
        budget: { credits: 3 },
        outputs: ['csv'],
        destination: `${provider.dir}/reports`,
      });
      const handle = await startJobRun(provider.client, provider.settings, job);
      await followRun(handle, QUIET);
      const histories = await runHistories(provider.client, handle.workflowId);
      // Its one short stream is paged in the run itself (engine's INLINE_MAX_PAGES): no child.
      expect(histories.length).toBe(1);
      expectClean(await replay(histories), histories.length);
      fresh.push(...histories);
    } finally {
      await provider.close();
    }
  });

  test('a run whose job check fails (patched: checked first, a failed run writes its manifest) replays', async () => {
    const provider = await startRunner({
      baseUrl: sandbox.url,
      apiKey: KEYS.provider,
      name: 'replay-failed-check',
    });
    try {
      // A suppression list that is not text: the run's first activity refuses it.
      const suppress = join(provider.dir, 'binary-export.csv');
      writeFileSync(suppress, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0xfe, 0x00]));
      const job = parseProspectListJob({
        id: 'replay-failed-check',
        kind: 'prospect-list',
        title: 'Replay failed check',
        briefs: [{ brief: 'law firm for seed fintech companies', org_key: 'brightline-legal', limit: 10 }],
        searches: [{ countries: ['France'], stages: ['seed'], cap: 100 }],
        enrich: 0,
        suppress,
        crm: ['hubspot'],
        budget: { credits: 3 },
        outputs: ['csv'],
        destination: `${provider.dir}/reports`,
      });
      const handle = await startJobRun(provider.client, provider.settings, job);
      await expect(followRun(handle, QUIET)).rejects.toThrow();
      const histories = await runHistories(provider.client, handle.workflowId);
      const E = temporal.api.enums.v1.EventType;
      const events = histories[0]!.history.events ?? [];
      const activities = events
        .filter((e) => e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
        .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
      expect(activities).toEqual(['checkJob', 'releaseDayCalls', 'recordFailedRun']);
      expect(events.at(-1)?.eventType).toBe(E.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED);
      expectClean(await replay(histories), histories.length);
      fresh.push(...histories);
    } finally {
      await provider.close();
    }
  });

  test('a fund match and an investor shortlist replay', async () => {
    const fund = parseFundMatchJob({
      id: 'replay-fund',
      kind: 'fund-match',
      title: 'Replay fund match',
      limit: 8,
      watchlist: 10,
      budget: { credits: 3 },
      destination: `${h.dir}/reports`,
    });
    const fundHandle = await startJobRun(h.client, h.settings, fund);
    await followRun(fundHandle, QUIET);
    const fundHistories = await runHistories(h.client, fundHandle.workflowId);
    expectClean(await replay(fundHistories), fundHistories.length);
    fresh.push(...fundHistories);
    // find_investors is for startups: a runner with the startup account's key.
    const startup = await startRunner({
      baseUrl: sandbox.url,
      apiKey: KEYS.startup,
      name: 'replay-shortlist',
    });
    try {
      const shortlist = parseInvestorShortlistJob({
        id: 'replay-shortlist',
        kind: 'investor-shortlist',
        title: 'Replay shortlist',
        companies: [
          {
            name: 'Ledgerly',
            description: 'Payments reconciliation for marketplaces.',
            sector: 'Finance & Blockchain',
            limit: 6,
          },
        ],
        enrich: 2,
        budget: { credits: 3 },
        destination: `${startup.dir}/reports`,
      });
      const handle = await startJobRun(startup.client, startup.settings, shortlist);
      await followRun(handle, QUIET);
      const histories = await runHistories(startup.client, handle.workflowId);
      expectClean(await replay(histories), histories.length);
      fresh.push(...histories);
    } finally {
      await startup.close();
    }
  });

  test('a deck triage (polled on timers, a 404 link, a duplicate, a deck past the budget) replays', async () => {
    const [ledgerly, snackr, shiftnook] = EXAMPLE_DECKS;
    const host = await serveExampleDecks([ledgerly!, snackr!, shiftnook!]);
    try {
      const job = parseDeckTriageJob({
        id: 'replay-decks',
        kind: 'deck-triage',
        title: 'Replay decks',
        decks: {
          urls: [
            ...[ledgerly!, snackr!, shiftnook!].map(host.linkOf),
            `${host.url}/decks/gone.pdf`,
            `${host.linkOf(ledgerly!)}?copy=1`,
          ],
        },
        budget: { credits: 6 },
        destination: `${h.dir}/reports`,
      });
      const result = await followRun(await startJobRun(h.client, h.settings, job), QUIET);
      expect(result).toMatchObject({ partial: true, creditsSpent: 6 });
      const histories = await runHistories(h.client, result.workflowId);
      const E = temporal.api.enums.v1.EventType;
      const types = (histories[0]!.history.events ?? []).map((e) => e.eventType);
      expect(types).toContain(E.EVENT_TYPE_TIMER_STARTED);
      expectClean(await replay(histories), histories.length);
      fresh.push(...histories);
    } finally {
      await host.close();
    }
  });

  test("every other registered kind's first example replays, so every kind ran fresh here", async () => {
    const ranFresh = () => new Set(fresh.map(workflowTypeOf));
    for (const kind of JOB_KINDS.filter((k) => !ranFresh().has(k.workflow.name))) {
      const runner = await startRunner({
        baseUrl: sandbox.url,
        apiKey: kind.sandboxKey ?? KEYS.vc,
        name: `replay-${kind.kind}`,
      });
      try {
        const example = (await loadJobFile(kind.examples[0]!)).jobs.find((j) => j.kind === kind.kind)!;
        // Its files in the runner's folder; sent nowhere.
        const { delivery: _delivery, ...job } = { ...example, destination: `${runner.dir}/reports` };
        const handle = await startJobRun(runner.client, runner.settings, job);
        await followRun(handle, QUIET);
        const histories = await runHistories(runner.client, handle.workflowId);
        expectClean(await replay(histories), histories.length);
        fresh.push(...histories);
      } finally {
        await runner.close();
      }
    }
    const missing = JOB_KINDS.filter((k) => !ranFresh().has(k.workflow.name)).map((k) => k.kind);
    expect(missing).toEqual([]);
  });

  test("the account workflow (every worker's pacing, the credit ledger) replays", async () => {
    const accountId = accountIdOf(h.settings.visBaseUrl, 'vis_live_sandbox_vc');
    const histories: RecordedHistory[] = [];
    // Its latest runs (the test server suggests continuing as new every 20 events).
    for await (const wf of h.client.workflow.list({ query: `WorkflowId = '${accountId}'` })) {
      const history = await h.client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
      histories.push({ workflowId: wf.workflowId, history });
      if (histories.length >= 8) break;
    }
    expect(histories.length).toBeGreaterThan(0);
    const E = temporal.api.enums.v1.EventType;
    const events = histories.flatMap((x) => x.history.events ?? []).map((e) => e.eventType);
    expect(events).toContain(E.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED);
    expect(events).toContain(E.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
    expectClean(await replay(histories), histories.length);
    fresh.push(...histories);
  });

  // Recording a new frozen set, after a change that needs one (never in CI).
  afterAll(() => {
    const label = process.env.VIR_FREEZE_HISTORIES;
    if (label && fresh.length > 0) console.log(`frozen set ${freezeHistories(label, fresh)}`);
  });
});
