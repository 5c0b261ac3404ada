import { configDefaults, defineConfig } from 'vitest/config';
import { excludedFiles } from '../../scripts/test-suites.mjs';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Suites left out by SVC_TEST_SKIP (scripts/test-suites.mjs); the run's summary names them.
    exclude: [...configDefaults.exclude, ...excludedFiles('packages/console')],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
