/**
 * `npm run test:quick`: the inner loop (under two minutes). Unit tests, activities against
 * in-process servers, and workflow decisions on Temporal's time-skipping server
 * (test/workflows/skipping). Left out: every test file that starts the runner's workers, runs
 * a job end to end, talks to the embedded Temporal server or starts a process or threads (the
 * load test): what the file's text names (the patterns below). `npm test` runs everything.
 */
import { readFileSync } from 'node:fs';
import { globSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** What an end-to-end test file names: the runner's harnesses, the embedded server, processes, the demo. */
const END_TO_END =
  /helpers\/(runner|worker-process|delivery-bed|service-variants|paid-books|scripts)\.js|startWorkers|runDemo|inject\('temporalAddress'\)|\bspawn\(|execFile|\bfork\(|worker_threads/;

export const quickFiles = globSync('test/**/*.test.ts', { exclude: (f) => f.startsWith('test/cluster') })
  .filter(
    (file) => file.startsWith('test/workflows/skipping/') || !END_TO_END.test(readFileSync(file, 'utf8')),
  )
  .sort();

// The base config's test options with the include list replaced (mergeConfig would append it).
export default defineConfig({ ...base, test: { ...base.test, include: quickFiles } });
