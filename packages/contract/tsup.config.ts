import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

/**
 * The `openapi` entry loads the contract from the `index` entry instead of bundling a copy of it, so the
 * schemas register their ids once. (tsup's code splitting would do it for ESM, but its CommonJS output
 * can be invalid.)
 */
const contractFromIndex: Plugin = {
  name: 'contract-from-index',
  setup(build) {
    const index = build.initialOptions.format === 'cjs' ? './index.cjs' : './index.js';
    build.onResolve({ filter: /^\.\.?\// }, (args) => (args.importer.endsWith('/src/openapi.ts') ? { path: index, external: true } : undefined));
  },
};

export default defineConfig({
  // `openapi` is its own entry, so a client of the contract never loads the OpenAPI tooling.
  entry: { index: 'src/index.ts', openapi: 'src/openapi.ts' },
  format: ['esm', 'cjs'],
  external: ['@ts-rest/open-api'],
  esbuildPlugins: [contractFromIndex],
  dts: true,
  target: 'node20',
  clean: true,
});
