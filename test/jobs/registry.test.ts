/**
 * The registry is the one list of job kinds: the workers' workflow bundle and activities, the
 * CLI's lookups and the schedules are derived from it. The count below is the one place besides
 * the registry that a new kind changes (on purpose: a kind is added or dropped knowingly);
 * everything else here reads the registry.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createRunActivities } from '../../activities/run.js';
import { LocalStore } from '../../activities/store.js';
import { loadJobFile } from '../../jobs/files.js';
import type { AnyJobKind } from '../../jobs/kind.js';
import { JOB_KINDS, JOB_WORKFLOW_TYPES, findKind } from '../../jobs/registry.js';
import { jobActivities } from '../../runtime/workers.js';
import { workflowsEntrySource } from '../../runtime/workflow-bundle.js';

/** `fund-match` → `fundMatch`. */
const camel = (kind: string) => kind.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

describe('the registry', () => {
  test('holds the six kinds, in the order of their names', () => {
    expect(JOB_KINDS).toHaveLength(6);
    const names = JOB_KINDS.map((k) => k.kind);
    expect(names).toEqual([...names].sort());
  });

  test('kinds, id prefixes and workflow types are unique; each workflow is named after its kind', () => {
    const fields: ((k: AnyJobKind) => string)[] = [(k) => k.kind, (k) => k.idPrefix, (k) => k.workflow.name];
    for (const field of fields) {
      const values = JOB_KINDS.map(field);
      expect(new Set(values).size).toBe(values.length);
    }
    for (const kind of JOB_KINDS) {
      expect(kind.workflow.name).toBe(`${camel(kind.kind)}Workflow`);
      expect(findKind(kind.kind)).toBe(kind);
    }
    expect(JOB_WORKFLOW_TYPES).toEqual(JOB_KINDS.map((k) => k.workflow.name));
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
    const deps = { store: new LocalStore(join(dir, 'store')), reportsDir: join(dir, 'reports') };
    const acts = jobActivities(deps);
    const names = [
      ...Object.keys(createRunActivities(deps)),
      ...JOB_KINDS.flatMap((kind) => {
        const own = Object.keys(kind.activities(deps));
        expect(own.length, kind.kind).toBeGreaterThan(0);
        return own;
      }),
    ];
    for (const name of names) expect(typeof acts[name], name).toBe('function');
  });

  test("each kind's example files are in its folder and hold jobs of that kind", async () => {
    for (const kind of JOB_KINDS) {
      expect(kind.examples.length, kind.kind).toBeGreaterThan(0);
      for (const file of kind.examples) {
        expect(file.startsWith(`jobs/${kind.kind}/examples/`), file).toBe(true);
        const jf = await loadJobFile(file);
        expect(
          jf.jobs.some((j) => j.kind === kind.kind),
          file,
        ).toBe(true);
      }
    }
  });
});
