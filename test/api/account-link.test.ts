import type { Client } from '@temporalio/client';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { AccountLink } from '../../activities/account.js';
import { isNotScheduledYet, isUpdateOverload } from '../../lib/temporal-errors.js';
import { accountMaxInFlightOf } from '../../runtime/workers.js';

/** The server's refusal at a workflow's in-flight update limit, as the client surfaces it. */
function inFlightRefusal(): Error {
  const grpc = Object.assign(
    new Error('8 RESOURCE_EXHAUSTED: limit on number of concurrent in-flight updates has been reached (10)'),
    { code: 8 },
  );
  return new Error('Update-With-Start failed', { cause: grpc });
}

function linkWith(
  executeUpdateWithStart: () => Promise<unknown>,
  opts: { maxInFlight?: number; overloadBudgetMs?: number } = {},
) {
  const client = {
    workflow: { executeUpdateWithStart },
    withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn(),
  } as unknown as Client;
  return new AccountLink({
    client,
    taskQueue: 'accounts',
    accountId: 'vir-account-test',
    perMinute: 60,
    perDay: 1000,
    caps: {},
    ...opts,
  });
}

describe('isUpdateOverload', () => {
  it('knows the in-flight limit refusal on the error or its causes, and nothing else', () => {
    expect(isUpdateOverload(inFlightRefusal())).toBe(true);
    expect(isUpdateOverload(Object.assign(new Error('x'), { code: 8 }))).toBe(true);
    expect(
      isUpdateOverload(new Error('limit on number of concurrent in-flight updates has been reached (10)')),
    ).toBe(true);
    expect(isUpdateOverload(new Error('update was aborted'))).toBe(false);
    expect(isUpdateOverload(Object.assign(new Error('x'), { code: 14 }))).toBe(false);
    expect(isUpdateOverload(undefined)).toBe(false);
  });
});

describe('AccountLink updates', () => {
  it('sends at most maxInFlight updates at a time', async () => {
    let now = 0;
    let most = 0;
    const link = linkWith(
      async () => {
        now += 1;
        most = Math.max(most, now);
        await new Promise((r) => setTimeout(r, 5)); // an update that takes time, so updates overlap
        now -= 1;
        return { granted: true };
      },
      { maxInFlight: 3 },
    );
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) => link.acquireCall({ grantId: `g${i}`, runId: 'r' })),
    );
    expect(all).toHaveLength(20);
    expect(most).toBe(3);
    expect(link.updatesInFlight).toBe(0);
  });

  it('sends a refused (overloaded) update again rather than failing, beyond the attempts of other errors', async () => {
    let calls = 0;
    const link = linkWith(async () => {
      calls += 1;
      // Six refusals: as many as the attempts that other errors get.
      if (calls <= 6) throw inFlightRefusal();
      return { granted: true };
    });
    await expect(link.acquireCall({ grantId: 'g', runId: 'r' })).resolves.toEqual({ granted: true });
    expect(calls).toBe(7);
  }, 15_000);

  it('gives up on refusals once the budget is spent', async () => {
    let calls = 0;
    const link = linkWith(
      async () => {
        calls += 1;
        throw inFlightRefusal();
      },
      { overloadBudgetMs: 300 },
    );
    await expect(link.acquireCall({ grantId: 'g', runId: 'r' })).rejects.toThrow('Update-With-Start failed');
    expect(calls).toBeGreaterThan(1);
  });

  it('does not send an update the workflow failed again', async () => {
    let calls = 0;
    const link = linkWith(async () => {
      calls += 1;
      throw new WorkflowUpdateFailedError('Workflow Update failed', undefined);
    });
    await expect(link.acquireCall({ grantId: 'g', runId: 'r' })).rejects.toThrow(WorkflowUpdateFailedError);
    expect(calls).toBe(1);
  });
});

describe('AccountLink view', () => {
  it('asks again while the account workflow has no workflow task yet (a query right after its start)', async () => {
    let queries = 0;
    const notYet = Object.assign(new Error('9 FAILED_PRECONDITION: Workflow task is not scheduled yet.'), {
      code: 9,
    });
    const client = {
      withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn(),
      workflow: {
        getHandle: () => ({
          query: async () => {
            queries += 1;
            if (queries <= 2) throw new Error('Query failed', { cause: notYet });
            return { reserved: 0 };
          },
        }),
      },
    } as unknown as Client;
    const link = new AccountLink({
      client,
      taskQueue: 'q',
      accountId: 'a',
      perMinute: 60,
      perDay: 1,
      caps: {},
    });
    await expect(link.view()).resolves.toEqual({ reserved: 0 });
    expect(queries).toBe(3);
    expect(isNotScheduledYet(new Error('x', { cause: notYet }))).toBe(true);
    expect(isNotScheduledYet(new Error('Workflow not found'))).toBe(false);
  });
});

describe('accountMaxInFlightOf', () => {
  it('reads VIR_ACCOUNT_MAX_IN_FLIGHT, 8 when unset, and refuses nonsense', () => {
    expect(accountMaxInFlightOf({})).toBe(8);
    expect(accountMaxInFlightOf({ VIR_ACCOUNT_MAX_IN_FLIGHT: ' 4 ' })).toBe(4);
    expect(() => accountMaxInFlightOf({ VIR_ACCOUNT_MAX_IN_FLIGHT: '0' })).toThrow(/whole number/);
    expect(() => accountMaxInFlightOf({ VIR_ACCOUNT_MAX_IN_FLIGHT: 'many' })).toThrow(/whole number/);
  });
});
