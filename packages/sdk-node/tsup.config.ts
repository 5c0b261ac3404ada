import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', msw: 'src/msw/index.ts' },
  external: ['msw'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'node18',
  clean: true,
  sourcemap: true,
});
