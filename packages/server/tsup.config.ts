import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/boot/main.ts', cli: 'src/boot/cli.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  // The contract is workspace TypeScript; bundle it, keep npm dependencies external.
  noExternal: ['@svc/contract'],
});
