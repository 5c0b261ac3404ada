import { defineConfig } from 'vitest/config';

// The end-to-end files drive a real server through many calls, and start and stop one; a loaded machine takes
// seconds for them.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 60_000 } });
