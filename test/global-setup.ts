/**
 * One embedded Temporal dev server for the whole test run (real server, not a mock).
 * Test files read its address with `inject('temporalAddress')`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTemporalDevServer } from '../runtime/temporal-server.js';
import { writeWorkflowBundle } from '../runtime/workflow-bundle.js';
import { SANDBOX_TEST_AS_OF, ensureSandboxDatabase, todayUtc } from '../sandbox/data/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'vir-temporal-'));
  const started = Date.now();
  const server = await startTemporalDevServer({
    port: 0,
    headless: true,
    dbFile: join(dir, 'temporal.sqlite'),
    dynamicConfig: {
      // Small histories in tests prove that long paging continues as new.
      'limit.historyCount.suggestContinueAsNew': 20,
    },
  });
  console.log(`[global-setup] Temporal dev server on ${server.address} in ${Date.now() - started} ms`);
  // Pre-build the sandbox database (seed 42; the tests' fixed as-of date and today) so test
  // files never race to build it; a cached file takes a few milliseconds.
  try {
    for (const asOf of new Set([SANDBOX_TEST_AS_OF, todayUtc()])) {
      const data = ensureSandboxDatabase({ asOf });
      console.log(
        `[global-setup] sandbox database as of ${asOf}: ${data.built ? 'built' : 'cached'} in ${data.buildMs} ms`,
      );
    }
  } catch (err) {
    await server.close();
    throw err;
  }
  // The product's workflows bundled once for every test file and worker process (each would
  // otherwise bundle them again: a second or two of CPU per worker).
  const bundleStarted = Date.now();
  const bundleFile = join(dir, 'workflows.js');
  try {
    await writeWorkflowBundle(bundleFile);
  } catch (err) {
    await server.close();
    throw err;
  }
  process.env.VIR_WORKFLOW_BUNDLE = bundleFile;
  console.log(`[global-setup] workflows bundled in ${Date.now() - bundleStarted} ms`);
  project.provide('temporalAddress', server.address);
  return async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
