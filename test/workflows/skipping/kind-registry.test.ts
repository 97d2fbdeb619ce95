/**
 * Each registered job kind's workflow once, on the time-skipping server, its activities plain
 * functions answering plausibly (test/helpers/stub-activities.ts), its job the kind's own example
 * file. The kinds come from the registry (jobs/registry.ts), each with its case in its own test
 * folder (test/jobs/<kind>/kind-case.ts, test/helpers/kind-cases.ts): a kind added to the
 * registry fails the first test until it has one, and then gets every check every kind gets:
 *
 * - the job is checked first, the day's calls reserved for the kind's estimate, then my_account;
 * - no more calls than the estimate, no more paid calls than the budget pays for, no more credits;
 * - the kind's phases in order, as `progressQuery` tells them, ending in `done`;
 * - what its last activity rendered is what the manifest records and the run returns, with the
 *   snapshot its build made.
 *
 * Each case then checks the kind's own decisions: which calls, in which order, and what reaches
 * its build and render activities; and, where the kind pays, a budget too small for all of it
 * (the partial flags and reasons).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkflowFailedError } from '@temporalio/client';
import { creditsOf, type PaidOperation } from '../../../api/catalog.js';
import { LocalStore } from '../../../activities/store.js';
import { loadJobFile } from '../../../jobs/files.js';
import { JOB_KINDS } from '../../../jobs/registry.js';
import type { AnyJobKind } from '../../../jobs/kind.js';
import type { JobRunResult } from '../../../workflows/engine.js';
import { progressQuery, type RunProgress } from '../../../workflows/progress.js';
import { kindCaseFile, kindCases, type Job } from '../../helpers/kind-cases.js';
import { paged, stubBed } from '../../helpers/stub-activities.js';

const CASES = await kindCases();

/** The kind's example job (its file from the registry). */
async function exampleJob(kind: AnyJobKind): Promise<Job> {
  const wanted = CASES.get(kind.kind)?.example;
  const file = wanted ? kind.examples.find((f) => f.endsWith(`/${wanted}`)) : kind.examples[0];
  if (!file) throw new Error(`${kind.kind}: no example ${wanted} in the registry`);
  return (await loadJobFile(file)).jobs[0] as Job;
}

describe('every registered kind on the time-skipping server', () => {
  const stubs = stubBed();

  it('every kind of the registry has its case', () => {
    const missing = JOB_KINDS.filter((k) => !CASES.has(k.kind)).map((k) => kindCaseFile(k.kind));
    expect(missing, 'no case file').toEqual([]);
  });

  describe.each(JOB_KINDS.map((k) => [k.kind, k] as const))('%s', (name, kind: AnyJobKind) => {
    const c = CASES.get(name);
    if (!c) return;

    it('its case stubs each of its activities, and no other', () => {
      const dir = join(tmpdir(), 'vir-kind-stubs');
      const own = kind.activities({ store: new LocalStore(join(dir, 'store')), reportsDir: dir });
      expect(Object.keys(c.activities).sort()).toEqual(Object.keys(own).sort());
    });

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
