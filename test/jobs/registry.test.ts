/**
 * The registry is the one list of job kinds: the workers' workflow bundle and activities, the
 * CLI's lookups and the schedules are derived from it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LocalStore } from '../../activities/store.js';
import { loadJobFile } from '../../jobs/files.js';
import type { AnyJobKind } from '../../jobs/kind.js';
import { JOB_KINDS, JOB_WORKFLOW_TYPES, findKind } from '../../jobs/registry.js';
import { jobActivities } from '../../runtime/workers.js';
import { workflowsEntrySource } from '../../runtime/workflow-bundle.js';

describe('the registry', () => {
  test('kinds, id prefixes and workflow types are unique', () => {
    const fields: ((k: AnyJobKind) => string)[] = [(k) => k.kind, (k) => k.idPrefix, (k) => k.workflow.name];
    for (const field of fields) {
      const values = JOB_KINDS.map(field);
      expect(new Set(values).size).toBe(values.length);
    }
    expect(JOB_WORKFLOW_TYPES).toEqual([
      'fundMatchWorkflow',
      'investorShortlistWorkflow',
      'marketReportWorkflow',
      'prospectListWorkflow',
      'smokeWorkflow',
    ]);
    expect(findKind('smoke')?.idPrefix).toBe('smoke');
    expect(findKind('weather')).toBeUndefined();
  });

  test("the workers' workflow module exports the engine's and every kind's workflow", () => {
    const source = workflowsEntrySource();
    expect(source).toMatch(/export \{ pageSearchWorkflow \} from ".*workflows\/paging\.ts";/);
    for (const kind of JOB_KINDS) {
      expect(source).toContain(
        `export { ${kind.workflow.name} } from ${JSON.stringify(kind.workflowsPath)};`,
      );
    }
  });

  test("the jobs queue's activities are the engine's and every kind's, each name once", () => {
    const dir = mkdtempSync(join(tmpdir(), 'vir-registry-'));
    const acts = jobActivities({
      store: new LocalStore(join(dir, 'store')),
      reportsDir: join(dir, 'reports'),
    });
    for (const name of [
      'selectTop',
      'readAccountBalance',
      'prepareOutputFolder',
      'previousSnapshot',
      'finalizeRun',
      'buildMarketModel',
      'renderMarketReport',
      'writeSmokeSummary',
    ]) {
      expect(typeof acts[name], name).toBe('function');
    }
  });

  test("each kind's example files hold jobs of that kind", async () => {
    for (const kind of JOB_KINDS) {
      for (const file of kind.examples) {
        const jf = await loadJobFile(file);
        expect(
          jf.jobs.some((j) => j.kind === kind.kind),
          file,
        ).toBe(true);
      }
    }
  });
});
