import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The cluster tests bring up PostgreSQL and the Temporal server: `npm run test:cluster`.
    exclude: [...configDefaults.exclude, 'test/cluster/**'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Four test files at once on two cores: most end-to-end files spend their time waiting
    // (heartbeat timeouts after a kill, the sandbox's latency, rate windows), so more files fill
    // the cores that two leave idle; the scratch space in memory (test/global-setup.ts) keeps the
    // disk out of the way. Measured on the project's 2-core machine: 609 s with two, 493 s with
    // three, 466 s with four.
    maxWorkers: 4,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
