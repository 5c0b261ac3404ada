import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', msw: 'src/msw/index.ts' },
  external: ['msw'],
  // jose is ESM-only: bundled, `require('@svc/sdk-node')` works on every Node 20, not only where require(esm) does.
  noExternal: ['jose'],
  format: ['esm', 'cjs'],
  splitting: true,
  dts: true,
  target: 'node20',
  clean: true,
  sourcemap: true,
});
