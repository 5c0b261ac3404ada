import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(SERVER_DIR, '..', '..');

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** What the build reads: the server's and the contract's sources (the contract is bundled), their settings, the lockfile. */
function sourcesHash(): string {
  const files = [
    ...walk(join(SERVER_DIR, 'src'), []),
    ...walk(join(ROOT, 'packages', 'contract', 'src'), []),
    join(SERVER_DIR, 'package.json'),
    join(SERVER_DIR, 'tsup.config.ts'),
    join(SERVER_DIR, 'tsconfig.json'),
    join(ROOT, 'packages', 'contract', 'package.json'),
    join(ROOT, 'pnpm-lock.yaml'),
  ];
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

export interface BuiltServer {
  main: string;
  cli: string;
}

/**
 * The server built as `pnpm start` builds it (tsup), once per set of sources: processes that tests start run it
 * as `pnpm start` does, without compiling TypeScript at every start (about 1.4 s of CPU a process). Made under
 * the server's `node_modules`, so its imports resolve as `dist/`'s do; two runs that build at once each build
 * their own copy, and the first to finish keeps its.
 */
export function builtServer(): BuiltServer {
  // Hashed at every start (tens of milliseconds, against about a second to start): in watch mode the sources
  // change between runs of one worker.
  const dir = join(SERVER_DIR, 'node_modules', '.cache', 'svc-server-build', sourcesHash());
  const built = { main: join(dir, 'main.js'), cli: join(dir, 'cli.js') };
  if (existsSync(built.main)) {
    // Marks it in use, so that a run on other sources leaves it (`removeOldBuilds`).
    utimesSync(dir, new Date(), new Date());
    return built;
  }
  const partial = `${dir}.${randomBytes(4).toString('hex')}.partial`;
  try {
    execFileSync(join(SERVER_DIR, 'node_modules', '.bin', 'tsup'), ['--out-dir', partial, '--silent'], { cwd: SERVER_DIR, stdio: 'pipe' });
    renameSync(partial, dir);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(built.main)) throw err;
  }
  removeOldBuilds(dir);
  return built;
}

/** Builds of other sources (3–4 MB each) that no run has used for an hour. */
function removeOldBuilds(current: string): void {
  const cache = dirname(current);
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    const used = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (path !== current && Date.now() - used > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}
