import { defineConfig } from 'vitest/config';

// Packing builds every package once (cached by the sources' hash, behind a lock both files wait on); installs run
// npm outside the workspace. The timeouts are for a hung build or install: with npm's cache empty, beside the
// server's suite on a slow 2-core machine, the consumer's install took over four minutes.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 600_000, maxWorkers: 2 } });
