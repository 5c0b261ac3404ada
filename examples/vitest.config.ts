import { configDefaults, defineConfig } from 'vitest/config';
import { excludedFiles } from '../scripts/test-suites.mjs';

// Files side by side, one worker each: two of them spend about a minute each waiting for real heartbeats (30 s
// apart, the spec's interval), using little CPU meanwhile.
export default defineConfig({ test: { testTimeout: 40_000, hookTimeout: 60_000, maxWorkers: 4, exclude: [...configDefaults.exclude, ...excludedFiles('examples')] } });
