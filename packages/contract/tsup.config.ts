import { defineConfig } from 'tsup';

export default defineConfig({
  // `openapi` is its own entry, so a client of the contract never loads the OpenAPI tooling.
  entry: { index: 'src/index.ts', openapi: 'src/openapi.ts' },
  format: ['esm', 'cjs'],
  // One copy of the contract shared by both entries (its schemas register their ids once).
  splitting: true,
  external: ['@ts-rest/open-api'],
  dts: true,
  target: 'node20',
  clean: true,
});
