/**
 * A worker's permits in blocks (activities/permits.ts) against a channel that records every ask
 * and report: calls waiting together share one ask, the next ones take the permits left without
 * asking, and what the answers said reaches the ledger with the next ask or one signal.
 */
import { describe, expect, test, vi } from 'vitest';
import {
  PERMIT_IDLE_MS,
  PERMIT_PREFETCH,
  PermitBlocks,
  REPORT_FLUSH_MS,
  type PermitChannel,
} from '../../activities/permits.js';
import type { AcquirePermitsRequest, PermitsDecision, PermitsReport } from '../../shared/account.js';

type Ask = Omit<AcquirePermitsRequest, 'perMinute' | 'perDay'>;

function recorder(grant: (ask: Ask) => PermitsDecision = (a) => ({ granted: a.want }), askMs = 5) {
  const asks: Ask[] = [];
  const reports: PermitsReport[] = [];
  const channel: PermitChannel = {
    acquire: async (ask) => {
      asks.push(structuredClone(ask));
      await new Promise((r) => setTimeout(r, askMs)); // an update takes a moment: calls pile up
      return grant(ask);
    },
    report: async (report) => {
      reports.push(structuredClone(report));
    },
  };
  return { asks, reports, blocks: new PermitBlocks(channel) };
}

describe('permits in blocks', () => {
  test('calls waiting together share one ask; the next calls take what is left without asking', async () => {
    const { asks, blocks } = recorder();
    const first = await Promise.all(Array.from({ length: 6 }, () => blocks.take('run-a')));
    expect(first.every((p) => 'leaseId' in p)).toBe(true);
    // The six asked together, with the prefetch.
    expect(asks.map((a) => a.want)).toEqual([6 + PERMIT_PREFETCH]);
    for (let i = 0; i < PERMIT_PREFETCH; i++) expect('leaseId' in (await blocks.take('run-a'))).toBe(true);
    expect(asks).toHaveLength(1);
    await blocks.take('run-a');
    expect(asks.map((a) => a.want)).toEqual([6 + PERMIT_PREFETCH, 1 + PERMIT_PREFETCH]);
    // Another run's calls never take this run's permits.
    await blocks.take('run-b');
    expect(asks.at(-1)!.runId).toBe('run-b');
  });

  test('answers are reported with cumulative counts, and a lease closes once all its calls answered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { reports, blocks } = recorder(() => ({ granted: 2 }));
      const take = blocks.take('run-a');
      await vi.advanceTimersByTimeAsync(10);
      const p1 = await take;
      const p2 = await blocks.take('run-a');
      if (!('leaseId' in p1) || !('leaseId' in p2)) throw new Error('no permit');
      blocks.done(p1, { limit: 60, remaining: 58, resetAt: 1000 }, true);
      await vi.advanceTimersByTimeAsync(REPORT_FLUSH_MS + 1);
      expect(reports).toEqual([
        {
          leases: [
            {
              leaseId: p1.leaseId,
              done: 1,
              uncounted: 0,
              closed: false,
              reports: [{ limit: 60, remaining: 58, resetAt: 1000 }],
            },
          ],
          settlements: [],
        },
      ]);
      blocks.done(p2, null, false); // a 429: no call of the day used
      await vi.advanceTimersByTimeAsync(REPORT_FLUSH_MS + 1);
      expect(reports[1]!.leases).toEqual([
        { leaseId: p1.leaseId, done: 2, uncounted: 1, closed: true, reports: [] },
      ]);
      await vi.advanceTimersByTimeAsync(REPORT_FLUSH_MS * 3);
      expect(reports).toHaveLength(2); // nothing more to say
    } finally {
      vi.useRealTimers();
    }
  });

  test('a lease that stops while an ask carries its report is still reported closed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Every ask takes 300 ms. Run A's lease of 2 has one permit taken and answered; run B's
      // ask carries that report (not closed) and is answered just after A's lease stops idle.
      const { asks, reports, blocks } = recorder(() => ({ granted: 2 }), 300);
      const take = blocks.take('run-a');
      await vi.advanceTimersByTimeAsync(300);
      const p1 = await take;
      if (!('leaseId' in p1)) throw new Error('no permit');
      blocks.done(p1, null, true);
      await vi.advanceTimersByTimeAsync(1);
      void blocks.take('run-b');
      await vi.advanceTimersByTimeAsync(PERMIT_IDLE_MS); // A's lease stops idle; B's ask is still out
      expect(asks[1]!.leases).toEqual([
        { leaseId: p1.leaseId, done: 1, uncounted: 0, closed: false, reports: [] },
      ]);
      await vi.advanceTimersByTimeAsync(REPORT_FLUSH_MS * 2);
      // The unused permit goes back: the lease is reported closed, by a signal or the next ask.
      const told = [...reports, ...asks.slice(2)].flatMap((r) => r.leases);
      expect(told).toContainEqual({ leaseId: p1.leaseId, done: 1, uncounted: 0, closed: true, reports: [] });
    } finally {
      vi.useRealTimers();
    }
  });

  test('a paid call asks with its reservation, and its settlement rides on the next ask', async () => {
    const { asks, reports, blocks } = recorder(() => ({ granted: 1 }));
    const credits = { id: 'res-1', jobId: 'job', credits: 3, caps: {}, ttlMs: 60_000 };
    const permit = await blocks.takePaid('run-a', credits);
    expect(asks[0]).toMatchObject({ want: 1, credits });
    if (!('leaseId' in permit)) throw new Error('no permit');
    blocks.done(permit, null, true);
    blocks.settle({ id: 'res-1', jobId: 'job', credits: 3, remaining: 97 });
    await blocks.takePaid('run-a', { ...credits, id: 'res-2' });
    expect(asks[1]!.settlements).toEqual([{ id: 'res-1', jobId: 'job', credits: 3, remaining: 97 }]);
    expect(asks[1]!.leases).toEqual([
      { leaseId: permit.leaseId, done: 1, uncounted: 0, closed: true, reports: [] },
    ]);
    await blocks.close();
    // The first lease and the settlement went with the ask: the close reports only the second lease.
    expect(reports.flatMap((r) => r.settlements)).toEqual([]);
  });

  test('refusals pass through: the window, and a reservation the account refuses', async () => {
    const refused = recorder(() => ({ granted: 0, retryAt: 123, dayLimit: true }));
    expect(await refused.blocks.take('run-a')).toEqual({ retryAt: 123, dayLimit: true });
    const capped = recorder(() => ({
      granted: 0,
      credits: { granted: false, reason: 'cap', period: 'day' },
    }));
    expect(
      await capped.blocks.takePaid('run-a', { id: 'r', jobId: 'j', credits: 1, caps: {}, ttlMs: 1 }),
    ).toEqual({
      credits: { granted: false, reason: 'cap', period: 'day' },
    });
  });
});
