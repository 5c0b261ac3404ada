import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  // Declarations come from build/src, where scripts/generate-declarations.ts printed the contract's types
  // plainly (`pnpm build` runs it first); a bare `tsup` (the tests') builds the code only.
  dts: existsSync('build/src/types.ts') ? { entry: { index: 'build/src/index.ts' } } : false,
  target: 'es2020',
  platform: 'browser',
  minify: true,
  clean: true,
  sourcemap: true,
});
