import { defineConfig } from 'vitest/config';

// Packing builds every package once (cached by the sources' hash); installs run npm outside the workspace.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 240_000, fileParallelism: false } });
