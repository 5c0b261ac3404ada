import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Tarballs } from './pack-packages';

/**
 * A project outside the workspace (in the system's temp directory, so no workspace `node_modules` is above it)
 * that installs the packed tarballs with npm, as a tenant would. Made once per set of tarballs and `extra`
 * dependencies, then reused.
 */
export function installPacked(label: string, tarballs: Tarballs, extra: Record<string, string> = {}): string {
  const key = createHash('sha256').update(JSON.stringify([Object.values(tarballs), extra])).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), 'svc-release-check', `${label}-${key}`);
  if (existsSync(join(dir, 'node_modules', '.installed'))) return dir;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const dependencies = { ...Object.fromEntries(Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`])), ...extra };
  writeFileSync(join(partial, 'package.json'), JSON.stringify({ name: `svc-consumer-${label}`, private: true, dependencies }, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], { cwd: partial, stdio: 'pipe' });
  writeFileSync(join(partial, 'node_modules', '.installed'), basename(dir));
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return dir;
}
