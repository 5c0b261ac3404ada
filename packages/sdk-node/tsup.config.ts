import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', msw: 'src/msw/index.ts' },
  external: ['msw'],
  // jose is ESM-only: bundled, `require('@svc/sdk-node')` works on every Node 20, not only where require(esm) does.
  noExternal: ['jose'],
  format: ['esm', 'cjs'],
  // tsup's code splitting rewrites CommonJS output with a transform that can emit invalid syntax; each entry
  // is whole instead (the msw entry shares no state with the client).
  splitting: false,
  // Declarations come from build/src: src with the contract's route types printed plainly
  // (scripts/generate-declarations.ts runs first), so tenants' compilers never load the contract or zod. `pnpm
  // build` then emits them with TypeScript 7 (scripts/declarations.mjs), and tsup only bundles them.
  dts: { entry: { index: 'build/declarations/index.d.ts', msw: 'build/declarations/msw/index.d.ts' } },
  target: 'node20',
  clean: true,
  sourcemap: true,
});
