/**
 * The workers' workflow code: bundled once per process and shared (every startWorkers of the
 * process gets the same code), or a prebuilt file (VIR_WORKFLOW_BUNDLE, what the tests' global
 * setup writes) used as it is; a missing file is named.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as WorkerSdk from '@temporalio/worker';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { JOB_KINDS } from '../../jobs/registry.js';
import { workflowCode, writeWorkflowBundle } from '../../runtime/workflow-bundle.js';

/** How many times the SDK's bundler ran in this file. */
const bundling = vi.hoisted(() => ({ runs: 0 }));
vi.mock('@temporalio/worker', async (importOriginal) => {
  const sdk = await importOriginal<typeof WorkerSdk>();
  return {
    ...sdk,
    bundleWorkflowCode: (...args: Parameters<typeof sdk.bundleWorkflowCode>) => {
      bundling.runs += 1;
      return sdk.bundleWorkflowCode(...args);
    },
  };
});

describe('workflowCode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vir-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('bundles the product workflows once per process, every kind among them', async () => {
    const first = await workflowCode(null, {});
    const second = await workflowCode(null, {});
    const code = (first.workflowBundle as { code: string }).code;
    expect((second.workflowBundle as { code: string }).code).toBe(code);
    expect(bundling.runs).toBe(1);
    for (const kind of JOB_KINDS) expect(code).toContain(kind.workflow.name);
    expect(code).toContain('accountWorkflow');
    expect(code).toContain('pageSearchWorkflow');
  }, 60_000);

  it('writes the bundle to a file, which VIR_WORKFLOW_BUNDLE then names instead of bundling', async () => {
    const file = join(dir, 'nested', 'workflows.js');
    await writeWorkflowBundle(file);
    const { workflowBundle } = await workflowCode(null, {});
    expect(readFileSync(file, 'utf8')).toBe((workflowBundle as { code: string }).code);
    expect(bundling.runs).toBe(1);
    await expect(workflowCode(null, { VIR_WORKFLOW_BUNDLE: file })).resolves.toEqual({
      workflowBundle: { codePath: file },
    });
  }, 60_000);

  it('names a prebuilt file that is not there', async () => {
    const missing = join(dir, 'gone.js');
    await expect(workflowCode(null, { VIR_WORKFLOW_BUNDLE: missing })).rejects.toThrow(
      `VIR_WORKFLOW_BUNDLE: no file ${missing}`,
    );
  });
});
