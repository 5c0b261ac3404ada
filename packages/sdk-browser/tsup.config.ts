import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  target: 'es2020',
  platform: 'browser',
  minify: true,
  clean: true,
  sourcemap: true,
});
