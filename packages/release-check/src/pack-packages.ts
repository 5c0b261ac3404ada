import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The packages a tenant installs, by directory; each is packed as `pnpm pack` publishes it. */
export const PUBLISHED = {
  '@svc/contract': 'packages/contract',
  '@svc/webhook-verify': 'packages/webhook-verify',
  '@svc/sdk-node': 'packages/sdk-node',
  '@svc/sdk-browser': 'packages/sdk-browser',
} as const;
export type PublishedName = keyof typeof PUBLISHED;
export type Tarballs = Record<PublishedName, string>;

// Build outputs (dist, the printed declarations in build, the copied LICENSE) follow from the rest.
const SKIP = new Set(['node_modules', 'dist', 'build', 'test', 'LICENSE']);

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** What the packed tarballs are made of: every package's sources and settings, the licence and the lockfile. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const files = [join(ROOT, 'LICENSE'), join(ROOT, 'pnpm-lock.yaml'), join(ROOT, 'tsconfig.base.json')];
  // The declaration printer lives here; its output is part of the packages.
  for (const dir of [...Object.values(PUBLISHED), 'packages/release-check/src']) walk(join(ROOT, dir), files);
  for (const file of files) {
    if (!existsSync(file)) continue;
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid in a lock directory; 0 while it is being written, or when the lock has just gone. */
function holderOf(lock: string): number {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/**
 * Runs `fn` holding a lock directory that names its holder's pid. Another run waits while the holder lives, however
 * long its build takes (the build has its own time limits), and takes the lock over once the holder has died.
 */
export async function withLock<T>(lock: string, fn: () => T): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const holder = holderOf(lock);
      // A lock without a pid yet was made a moment ago; one whose holder is gone belongs to a run that died.
      const made = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if ((holder && !alive(holder)) || (!holder && Date.now() - made > 10_000)) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export const CACHE = join(ROOT, 'node_modules', '.cache', 'svc-release-check');

/**
 * Builds and packs every published package once per set of sources: later calls (other test files, later runs)
 * get the same tarballs from the cache.
 */
export async function packPackages(): Promise<Tarballs> {
  const dir = join(CACHE, `packed-${sourcesHash()}`);
  const tarballs = () =>
    Object.fromEntries(
      Object.entries(PUBLISHED).map(([name, pkgDir]) => {
        const { version } = JSON.parse(readFileSync(join(ROOT, pkgDir, 'package.json'), 'utf8')) as { version: string };
        return [name, join(dir, `${name.replace('@', '').replace('/', '-')}-${version}.tgz`)];
      }),
    ) as Tarballs;
  if (existsSync(dir)) return tarballs();
  mkdirSync(CACHE, { recursive: true });
  await withLock(join(CACHE, 'pack.lock'), () => {
    if (existsSync(dir)) return;
    const partial = `${dir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    for (const pkgDir of Object.values(PUBLISHED)) {
      const cwd = join(ROOT, pkgDir);
      execFileSync('pnpm', ['run', 'build'], { cwd, stdio: 'pipe', timeout: 900_000 });
      execFileSync('pnpm', ['pack', '--pack-destination', partial], { cwd, stdio: 'pipe', timeout: 300_000 });
    }
    renameSync(partial, dir);
  });
  return tarballs();
}
