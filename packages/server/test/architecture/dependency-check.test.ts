import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = join(import.meta.dirname, '..', '..');
const depcruise = join(packageDir, 'node_modules', '.bin', 'depcruise');

// Where the environment asks for colour (CI does), the report highlights lines with escape codes.
const plain = (report: string) => report.replace(/\x1b\[[0-9;]*m/g, '');

/** Runs the check as `pnpm test` does, in `cwd`; its exit code and report. */
async function check(cwd: string): Promise<{ code: number; report: string }> {
  try {
    const { stdout } = await run(depcruise, ['src', '--config', join(cwd, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    return { code: 0, report: plain(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, report: plain(e.stdout) };
  }
}

const copies: string[] = [];
afterAll(() => Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true }))));

// Each check reads about 570 modules: seconds alone, minutes beside the other suites on a loaded 2-core machine.
const CHECK_TIMEOUT = 240_000;

describe('the dependency check (pnpm test runs it)', () => {
  it('passes on the code as it is', async () => {
    const { code, report } = await check(packageDir);
    expect(report).toContain('no dependency violations found');
    expect(code).toBe(0);
  }, CHECK_TIMEOUT);

  it('fails on a copy of the code with violations planted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-deps-'));
    copies.push(dir);
    await cp(join(packageDir, 'src'), join(dir, 'src'), { recursive: true });
    await cp(join(packageDir, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    // Core reaching up into a product.
    await writeFile(join(dir, 'src/core/planted.ts'), "export { streamsDeps } from '../modules/streams/streams-deps';\n");
    // Access (which may use Streams) past Streams' index.ts, into a repository.
    await writeFile(join(dir, 'src/modules/access/planted.ts'), "export { findAsset } from '../streams/assets/assets.repository';\n");
    // The platform using a module it is not allowed to, even through its index.ts.
    await writeFile(join(dir, 'src/modules/platform/planted.ts'), "export { accessModule } from '../access';\n");
    // One resource of Streams reading another's repository instead of its services.
    await writeFile(join(dir, 'src/modules/streams/clips/planted.ts'), "export { findLiveStream } from '../live-streams/live-streams.repository';\n");

    const { code, report } = await check(dir);
    expect(code).not.toBe(0);
    expect(report).toContain('core-imports-no-module: src/core/planted.ts');
    expect(report).toContain('module-through-index: src/modules/access/planted.ts');
    expect(report).toContain('module-dependency-not-allowed: src/modules/platform/planted.ts');
    expect(report).toContain('repository-of-own-resource: src/modules/streams/clips/planted.ts');
    expect(report).not.toContain('repository-of-own-resource: src/modules/streams/clips/clips.service.ts');
    expect(report).not.toContain('src/modules/access/access-deps.ts');
  }, CHECK_TIMEOUT);
});
