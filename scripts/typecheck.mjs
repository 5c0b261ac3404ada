// Type-checks a package with TypeScript 7, the native compiler: the same checks as TypeScript 5.9 at about a
// quarter of its CPU time (the server: 25 CPU-s against 85). Builds keep TypeScript 5.9, whose API tsup's
// declaration bundler and the SDKs' declaration printers use, and so do the release check's tenant projects.
// Usage, from a package's directory: node ../../scripts/typecheck.mjs [tsconfig.json ...]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Its `exports` hide bin/: found beside its package.json.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')), 'bin', 'tsc');
const configs = process.argv.length > 2 ? process.argv.slice(2) : ['tsconfig.json'];
for (const config of configs) {
  // One thread: beside the other suites of `pnpm test`, the machine's cores are already busy.
  const { status, error } = spawnSync(process.execPath, [tsc, '-p', config, '--noEmit', '--singleThreaded'], { stdio: 'inherit' });
  if (error) throw error;
  if (status !== 0) process.exit(status ?? 1);
}
