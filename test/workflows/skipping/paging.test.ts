/**
 * The paging workflow's decisions on the time-skipping server, its one activity (`callApi`) a
 * plain function: pages until the total, stops at the cap, and waits out the service's daily
 * limit (a ten-hour timer that passes at once) before it asks for the refused page again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ApiCallInput, ApiCallOutput } from '../../../shared/types.js';
import { DAILY_LIMIT_FAILURE } from '../../../shared/types.js';
import { pageSearchWorkflow, type PagingInput } from '../../../workflows/paging.js';
import { skippingWorker, startTimeSkipping } from '../../helpers/time-skipping.js';

function pageOut(input: ApiCallInput, total: number): ApiCallOutput {
  const { offset = 0, limit = 100 } = input.params as { offset?: number; limit?: number };
  const records = Math.max(0, Math.min(limit, total - offset));
  return {
    ref: `runs/r/${input.name}.json`,
    operation: input.operation,
    summary: `${records} records`,
    charged: 0,
    remaining: null,
    records,
    total,
    nextOffset: offset + records < total ? offset + records : null,
    keys: [],
    durationMs: 1,
  };
}

describe('paging on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await startTimeSkipping();
  }, 120_000);
  afterAll(async () => {
    await env?.teardown();
  });

  const input = (over: Partial<PagingInput> = {}): PagingInput => ({
    runKey: 'runs/r',
    operation: 'search_startups',
    params: { countries: ['France'] },
    cap: 10_000,
    label: 'startups-france',
    apiTaskQueue: 'api',
    ...over,
  });

  it('fetches every page up to the total, and stops at the cap', async () => {
    const seen: number[] = [];
    const worker = await skippingWorker(env, {
      taskQueue: 'api',
      activities: {
        callApi: async (i: ApiCallInput) => {
          seen.push((i.params as { offset: number }).offset);
          return pageOut(i, 1_234);
        },
      },
    });
    const all = await worker.runUntil(
      env.client.workflow.execute(pageSearchWorkflow, {
        taskQueue: 'api',
        workflowId: 'all',
        args: [input()],
      }),
    );
    expect(all).toMatchObject({ records: 1_234, pages: 13, total: 1_234, capped: false });
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i * 100));
    seen.length = 0;
    const again = await skippingWorker(env, {
      taskQueue: 'api',
      activities: {
        callApi: async (i: ApiCallInput) => (
          seen.push((i.params as { offset: number }).offset),
          pageOut(i, 1_234)
        ),
      },
    });
    const capped = await again.runUntil(
      env.client.workflow.execute(pageSearchWorkflow, {
        taskQueue: 'api',
        workflowId: 'capped',
        args: [input({ cap: 250 })],
      }),
    );
    expect(capped).toMatchObject({ records: 250, pages: 3, capped: true });
    expect(seen).toHaveLength(3);
  });

  it('waits for the daily limit to reset, then asks again for the page it was refused', async () => {
    const calls: { offset: number; at: number }[] = [];
    let refused = false;
    let resetAt = 0;
    const worker = await skippingWorker(env, {
      taskQueue: 'api',
      activities: {
        callApi: async (i: ApiCallInput) => {
          const offset = (i.params as { offset: number }).offset;
          const now = await env.currentTimeMs();
          calls.push({ offset, at: now });
          if (offset === 300 && !refused) {
            refused = true;
            resetAt = now + 10 * 3_600_000;
            throw ApplicationFailure.create({
              type: DAILY_LIMIT_FAILURE,
              message: 'the daily limit of 5000 calls is reached',
              nonRetryable: true,
              details: [{ resetAt: new Date(resetAt).toISOString(), operation: i.operation }],
            });
          }
          return pageOut(i, 500);
        },
      },
    });
    const started = Date.now();
    const out = await worker.runUntil(
      env.client.workflow.execute(pageSearchWorkflow, {
        taskQueue: 'api',
        workflowId: 'daily',
        args: [input({ parallelPages: 1 })],
      }),
    );
    expect(out).toMatchObject({ records: 500, pages: 5 });
    const again = calls.filter((c) => c.offset === 300);
    expect(again).toHaveLength(2);
    // The page was asked again only after the reset, by the server's clock (skipped, not waited).
    expect(again[1]!.at).toBeGreaterThanOrEqual(resetAt);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
