/**
 * One embedded Temporal dev server for the whole test run (real server, not a mock).
 * Test files read its address with `inject('temporalAddress')`.
 *
 * The run's scratch space is in memory where the machine has a writable tmpfs (/dev/shm): the
 * global setup points TMPDIR there before the test processes start, so no file a test writes
 * with `tmpdir()` (stores, reports, worker data, checkers' profiles) waits for the disk; the
 * Temporal server keeps its database in memory. A full run wrote 10-40 MB/s to a disk mounted
 * with online discard: the block layer's threads took 146 s of CPU and the server 145 s in a
 * 550 s run; with both in memory, 0 s and 84 s. The folder is removed at the end, with whatever
 * a test left behind.
 */
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
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

/** A folder for the run's scratch files: under /dev/shm when it is a writable tmpfs, else the system's. */
function scratchRoot(): string {
  try {
    accessSync('/dev/shm', constants.W_OK | constants.X_OK);
    return mkdtempSync('/dev/shm/vir-test-');
  } catch {
    return mkdtempSync(join(tmpdir(), 'vir-test-'));
  }
}

export default async function setup(project: TestProject) {
  const scratch = scratchRoot();
  const systemTmp = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  const dir = mkdtempSync(join(scratch, 'vir-temporal-'));
  const removeScratch = () => {
    if (systemTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = systemTmp;
    rmSync(scratch, { recursive: true, force: true });
  };
  const started = Date.now();
  const server = await startTemporalDevServer({
    port: 0,
    headless: true,
    // In memory: nothing of it outlives the run.
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
    removeScratch();
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
    removeScratch();
    throw err;
  }
  process.env.VIR_WORKFLOW_BUNDLE = bundleFile;
  console.log(`[global-setup] workflows bundled in ${Date.now() - bundleStarted} ms`);
  project.provide('temporalAddress', server.address);
  return async () => {
    await server.close();
    removeScratch();
  };
}
