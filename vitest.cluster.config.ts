import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the tests on the local Temporal cluster (PostgreSQL and the Temporal
 * server, scripts/cluster.sh), one cluster for the run. One file at a time: tests restart the
 * cluster's server.
 */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    globalSetup: ['test/cluster/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
  },
});
