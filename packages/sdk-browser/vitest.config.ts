import { configDefaults, defineConfig } from 'vitest/config';
import { excludedFiles } from '../../scripts/test-suites.mjs';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    fileParallelism: false,
    exclude: [...configDefaults.exclude, ...excludedFiles('packages/sdk-browser')],
  },
});
