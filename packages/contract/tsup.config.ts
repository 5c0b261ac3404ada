import type { Plugin } from 'esbuild';
import { dirname, resolve } from 'node:path';
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
    // The document's own files (`src/openapi/`) are bundled into the entry; anything else of the contract is the index.
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const fromOpenApi = args.importer.endsWith('/src/openapi.ts') || args.importer.includes('/src/openapi/');
      if (!fromOpenApi) return undefined;
      const target = resolve(dirname(args.importer), args.path);
      return target.includes('/src/openapi/') ? undefined : { path: index, external: true };
    });
  },
};

export default defineConfig({
  // `openapi` is its own entry, so a client of the contract never loads the OpenAPI tooling.
  entry: { index: 'src/index.ts', openapi: 'src/openapi.ts' },
  format: ['esm', 'cjs'],
  external: ['@ts-rest/open-api'],
  esbuildPlugins: [contractFromIndex],
  // Bundled from the declarations that `pnpm build` emits first (scripts/declarations.mjs), not compiled again.
  dts: { entry: { index: 'build/declarations/index.d.ts', openapi: 'build/declarations/openapi.d.ts' } },
  tsconfig: 'tsconfig.build.json',
  target: 'node20',
  clean: true,
});
