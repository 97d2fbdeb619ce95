/**
 * Queries that cannot lose the race with a workflow's start: a run's progress (`vir runs show`)
 * and the account's view (`vir credits`) asked the moment the workflow is started, many times,
 * on the real embedded server. Before its first workflow task the server answers a query with
 * FAILED_PRECONDITION "Workflow task is not scheduled yet"; the project's queries ask again
 * within their deadline instead of failing.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { AccountLink } from '../../activities/account.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import { smokeWorkflow } from '../../jobs/smoke/workflow.js';
import { isNotScheduledYet, QueryNotAnsweredError, queryWhenReady } from '../../lib/temporal-errors.js';
import { workflowCode } from '../../runtime/workflow-bundle.js';
import { accountWorkflow } from '../../workflows/account.js';
import { progressQuery } from '../../workflows/progress.js';
import { captureRuntimeLogs } from '../helpers/runner.js';
import { runCli, uniqueName } from './helpers.js';

const TIMES = 20;

describe('a query sent the moment its workflow starts', () => {
  const address = inject('temporalAddress');
  const taskQueue = uniqueName('race');
  let connection: Connection;
  let client: Client;
  let native: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;

  beforeAll(async () => {
    captureRuntimeLogs();
    connection = await Connection.connect({ address });
    client = new Client({ connection });
    native = await NativeConnection.connect({ address });
  }, 120_000);

  /** Serves the workflows (only: the runs then wait for their first activity, which no one serves). */
  async function startWorker(): Promise<void> {
    worker = await Worker.create({ connection: native, taskQueue, ...(await workflowCode()) });
    running = worker.run();
  }

  afterAll(async () => {
    if (client) {
      for await (const info of client.workflow.list({ query: `TaskQueue = '${taskQueue}'` })) {
        if (info.status.name === 'RUNNING')
          await client.workflow.getHandle(info.workflowId).terminate('test over');
      }
    }
    worker?.shutdown();
    await running;
    await native?.close();
    await connection?.close();
  });

  it("is answered: runs' progress, the account's view, `vir runs show`", async () => {
    const job = parseSmokeJob({ id: uniqueName('race'), title: 'Race', country: 'France', records: 10 });
    const input = { job, trigger: 'manual' as const, apiTaskQueue: `${taskQueue}-api` };
    await startWorker();
    const runs = await Promise.all(
      Array.from({ length: TIMES }, (_, i) =>
        client.workflow.start(smokeWorkflow, {
          taskQueue,
          workflowId: `${job.id}-${i}`,
          args: [input],
        }),
      ),
    );
    const accounts = await Promise.all(
      Array.from({ length: TIMES }, () =>
        client.workflow.start(accountWorkflow, {
          taskQueue,
          workflowId: uniqueName('acct'),
          args: [{}],
        }),
      ),
    );
    // Queried the moment they are started: each answers (asked again while it could not yet).
    const progress = Promise.all(
      runs.map((h) => queryWhenReady(client, h.workflowId, progressQuery, [], 30_000)),
    );
    const views = Promise.all(
      accounts.map((h) =>
        new AccountLink({
          client,
          taskQueue,
          accountId: h.workflowId,
          perMinute: 60,
          perDay: 5000,
          caps: {},
        }).view(30_000),
      ),
    );
    const shown = runCli({ TEMPORAL_ADDRESS: address, VIR_TASK_QUEUE: taskQueue, VIR_LOG_LEVEL: 'silent' }, [
      'runs',
      'show',
      runs[0]!.workflowId,
    ]);
    for (const p of await progress) expect(p.phase).toBeDefined();
    for (const v of await views) expect(v).not.toBeNull();
    const show = await shown;
    expect(show.err.join('\n')).not.toMatch(/not scheduled/i);
    expect(show.code).toBe(0);
    expect(show.out.join('\n')).toMatch(/RUNNING/);
  }, 120_000);
});

describe('queryWhenReady', () => {
  const notYet = () =>
    new Error('Failed to query Workflow', {
      cause: Object.assign(new Error('9 FAILED_PRECONDITION: Workflow task is not scheduled yet.'), {
        code: 9,
      }),
    });
  /** A client whose query fails with `failures` in turn, then answers `answer`. */
  const fake = (failures: Error[], answer = 'ok') => {
    let asked = 0;
    const client = {
      withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn(),
      workflow: {
        getHandle: () => ({
          query: async () => {
            const failure = failures[asked++];
            if (failure) throw failure;
            return answer;
          },
        }),
      },
    } as unknown as Client;
    return { client, asked: () => asked };
  };

  it('asks again while the workflow has no workflow task yet, and returns the answer', async () => {
    const { client, asked } = fake([notYet(), notYet(), notYet()]);
    await expect(queryWhenReady(client, 'w', progressQuery, [], 5_000)).resolves.toBe('ok');
    expect(asked()).toBe(4);
    expect(isNotScheduledYet(notYet())).toBe(true);
  });

  it('throws any other error at once', async () => {
    const { client, asked } = fake([
      Object.assign(new Error('workflow not found'), { name: 'WorkflowNotFoundError' }),
    ]);
    await expect(queryWhenReady(client, 'w', progressQuery, [], 5_000)).rejects.toThrow(/not found/);
    expect(asked()).toBe(1);
  });

  it('gives up at its deadline, saying the workflow could not answer', async () => {
    const { client } = fake(Array.from({ length: 1_000 }, notYet));
    const started = Date.now();
    const err = await queryWhenReady(client, 'w-late', progressQuery, [], 400).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryNotAnsweredError);
    expect(String(err)).toMatch(/w-late had no workflow task to answer a query within 0.4 s/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
