/**
 * An account update that is never answered does not hold a run: on real workers and the
 * embedded Temporal server, the account workflow (test/workflows/fixtures) leaves the first send
 * of every permit ask unanswered, as a request the server never answered did once in CI, where
 * it held a run's first activity for ten minutes. The link gives the send up at its deadline
 * (2 s here) and sends it again, and the run's calls go through. Seen from outside: the account
 * workflow's history has updates accepted and never completed, the sandbox's log has the run's
 * calls, each once, the first one after the deadline, and the run completes in seconds.
 */
import { fileURLToPath } from 'node:url';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdOf } from '../../activities/account.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';

const KEY = 'vis_live_sandbox_vc';
const DEADLINE_MS = 2_000;
const WORKFLOWS = fileURLToPath(new URL('./fixtures/workflows-hanging-account.ts', import.meta.url));

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({
    baseUrl: sandbox.url,
    apiKey: KEY,
    name: 'account-hang',
    env: { VIR_WORKFLOWS_MODULE: WORKFLOWS, VIR_ACCOUNT_TASK_QUEUE: `accounts-hang-${process.pid}` },
    tuning: { accountUpdateDeadlineMs: DEADLINE_MS },
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

test(
  'a permit ask the account workflow never answers is sent again at its deadline, and the run goes on',
  { timeout: 90_000 },
  async () => {
    const job = parseSmokeJob({ id: 'hang', title: 'Hung update', country: 'France', records: 100 });
    const from = sandbox.requestLog().length;
    const started = Date.now();
    const handle = await startJobRun(h.client, h.settings, { ...job, destination: `${h.dir}/reports` });
    const result = await followRun<JobRunResult>(handle, QUIET);
    const seconds = (Date.now() - started) / 1000;
    expect(result.partial, result.reasons.join('; ')).toBe(false);
    // Every call the run made reached the service once, the first only after a send was given up.
    const log = sandbox.requestLog().slice(from);
    expect(log.map((r) => r.operation)).toEqual(['my_account', 'search_startups', 'get_startup']);
    expect(log[0]!.at - started).toBeGreaterThanOrEqual(DEADLINE_MS);
    // Seconds, not the activity's ten minutes: one deadline per ask, and the asks are few.
    expect(seconds).toBeLessThan(60);
    // The account workflow's own history: sends accepted and never completed (the hung ones), and
    // the same asks sent again and answered.
    const E = temporal.api.enums.v1.EventType;
    const account = h.client.workflow.getHandle(accountIdOf(h.settings.visBaseUrl, KEY));
    const events = (await account.fetchHistory()).events ?? [];
    const accepted = events.filter((e) => e.eventType === E.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED);
    const completed = events.filter((e) => e.eventType === E.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED);
    const hung = accepted.length - completed.length;
    expect(hung).toBeGreaterThanOrEqual(1);
    const asks = accepted.filter(
      (e) =>
        e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'acquirePermits',
    );
    expect(asks.length).toBe(2 * hung);
  },
);
