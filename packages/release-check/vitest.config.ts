import { defineConfig } from 'vitest/config';

// The packages are packed once for the run, before the files start (global setup; cached by the sources' hash and
// shared with the examples' packed check). Installs run npm outside the workspace. The timeouts are for a hung
// install: with npm's cache empty, beside the server's suite on a slow 2-core machine, the consumer's install took
// over four minutes.
export default defineConfig({ test: { globalSetup: ['./test/global-setup.ts'], testTimeout: 120_000, hookTimeout: 600_000, maxWorkers: 2 } });
