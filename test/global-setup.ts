/**
 * One embedded Temporal dev server for the whole test run (real server, not a mock).
 * Test files read its address with `inject('temporalAddress')`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTemporalDevServer } from '../scripts/temporal-server.js';

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
      'limit.historyCount.suggestContinueAsNew': 200,
    },
  });
  console.log(`[global-setup] Temporal dev server on ${server.address} in ${Date.now() - started} ms`);
  project.provide('temporalAddress', server.address);
  return async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
