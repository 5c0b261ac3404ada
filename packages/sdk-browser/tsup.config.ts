import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  // Declarations come from build/src, where scripts/generate-declarations.ts printed the contract's types
  // plainly, emitted by TypeScript 7 (scripts/declarations.mjs); `pnpm build` runs both first. A bare `tsup`
  // (the tests') builds the code only.
  dts: existsSync('build/declarations/index.d.ts') ? { entry: { index: 'build/declarations/index.d.ts' } } : false,
  target: 'es2020',
  platform: 'browser',
  minify: true,
  clean: true,
  sourcemap: true,
});
