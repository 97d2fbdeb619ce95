/**
 * Runs in flight survive deploys: every frozen history (recorded from workflow code that had
 * landed, test/fixtures/frozen-histories) replays through the current workflow code without
 * nondeterminism. Frozen files are pinned by checksum: they are never re-recorded. A change to
 * a workflow's commands goes behind `patched()` and adds its own frozen set, recorded by
 * replay.test.ts (VIR_FREEZE_HISTORIES=<label>; see the README's "Changing a workflow safely").
 * Every registered kind must have runs in a frozen set.
 */
import { describe, expect, test } from 'vitest';
import { JOB_KINDS } from '../../jobs/registry.js';
import { frozenFiles, frozenSets, frozenSums, loadHistories, workflowTypeOf } from '../helpers/histories.js';
import { expectClean, replay } from '../helpers/replay.js';

describe('frozen histories', () => {
  test('are pinned: every frozen file is listed in FROZEN.sha256 with its content unchanged', () => {
    const files = frozenFiles();
    const sums = frozenSums();
    expect(files.size).toBeGreaterThan(0);
    expect([...files.keys()].sort()).toEqual([...sums.keys()].sort());
    for (const [file, hash] of files) expect(hash, `${file} was changed`).toBe(sums.get(file));
  });

  // Each set recorded before a change of the workflows (patched) or with a kind's first runs.
  const SETS: [string, string][] = [
    ['2026-11-22-market-report', 'before the engine was pulled out of the market report'],
    ['2026-11-23-paid-calls-reconciled', 'with paid calls reconciled (patched)'],
    ['2026-11-23-paging-wait-progress', 'with paging children telling their daily-limit waits (patched)'],
    ['2026-11-23-account-ledger', "with the account's ledger (patched, and the account workflow)"],
    ['2026-11-23-ledger-balance', 'with reconciliation against the balance at the reservation (patched)'],
    ['2026-11-23-prospect-list', 'with the prospect list (its first runs)'],
    ['2026-11-23-fund-match-shortlist', 'with the fund match and the investor shortlist (their first runs)'],
    ['2026-11-23-delivery', 'with delivery after the manifest (patched) and a redelivery'],
    ['2026-11-26-job-checks-failed-run', "with the job checked first and a failed run's manifest (patched)"],
    [
      '2026-11-26-lean-history',
      'with the lean history (short streams paged inline, keys from the pages, the day freed with the manifest)',
    ],
  ];
  test.each(SETS)('the set %s, recorded %s, is there', (set) => {
    expect(frozenSets()).toContain(set);
  });

  test("the set recorded with a rerender (replacing the run's files, delivered on its own) is there", () => {
    expect(frozenSets()).toContain('2026-11-26-rerender');
    const types = loadHistories('2026-11-26-rerender').map(workflowTypeOf);
    expect(types).toContain('rerenderRunWorkflow');
  });

  test('the set recorded with the deck triage (its first runs, polled on timers) is there', () => {
    expect(frozenSets()).toContain('2026-11-27-deck-triage');
    const triage = loadHistories('2026-11-27-deck-triage').find(
      (h) => workflowTypeOf(h) === 'deckTriageWorkflow',
    );
    const events = JSON.stringify(triage?.history.events ?? []);
    expect(events).toContain('timerStartedEventAttributes');
  });

  test('every registered kind has runs in a frozen set', () => {
    const frozen = new Set(frozenSets().flatMap((set) => loadHistories(set).map(workflowTypeOf)));
    const missing = JOB_KINDS.filter((k) => !frozen.has(k.workflow.name)).map((k) => k.kind);
    expect(missing, 'kinds with no frozen history: record a set (VIR_FREEZE_HISTORIES)').toEqual([]);
  });

  for (const set of frozenSets()) {
    test(`${set} replays without nondeterminism`, async () => {
      const histories = loadHistories(set);
      // The run itself and its paging children, some of them continued as new.
      expect(histories.length).toBeGreaterThan(1);
      expectClean(await replay(histories), histories.length);
    });
  }
});
