// Emits a package's declarations with TypeScript 7 before tsup bundles them: tsup's own declaration step compiles
// the sources again with TypeScript 5.9, which for the contract's schemas took about 60 CPU-s against 5.
// Usage, from a package's directory: node ../../scripts/declarations.mjs tsconfig.declarations.json
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')), 'bin', 'tsc');
const { status, error } = spawnSync(process.execPath, [tsc, '-p', process.argv[2] ?? 'tsconfig.declarations.json', '--singleThreaded'], { stdio: 'inherit' });
if (error) throw error;
process.exit(status ?? 1);
