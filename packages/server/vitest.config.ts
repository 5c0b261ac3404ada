import { configDefaults, defineConfig } from 'vitest/config';
import { excludedFiles } from '../../scripts/test-suites.mjs';
import SlowFirst from './test/slow-first';

export default defineConfig({
  test: {
    globalSetup: ['./test/global-setup.ts'],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Suites left out by SVC_TEST_SKIP (scripts/test-suites.mjs); the run's summary names them.
    exclude: [...configDefaults.exclude, ...excludedFiles('packages/server')],
    // Limits for a hung test, not for speed: on a loaded 2-core machine, a test with two servers takes over 30 s.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // Each file gets its own database. Three at a time on a 2-core machine: many files spend most of their time
    // waiting (child processes, jobs, timers), and once the other lanes of `pnpm test` end, two workers left the
    // machine mostly idle. A fourth made every file slower by as much as it ran beside them (the files' total
    // time rose from 2467 s to 3280 s) and gained nothing.
    maxWorkers: 3,
    sequence: { sequencer: SlowFirst },
    // A worker runs its files on one set of modules: evaluating the app's ~470 modules again for every file
    // cost about 2.8 s a file (487 s of the workers' time in one run). Each file makes its own app and pool,
    // and what modules keep between requests is keyed by them (or by ids no two files share).
    isolate: false,
  },
});
