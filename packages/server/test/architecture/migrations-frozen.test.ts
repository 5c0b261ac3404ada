import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dbDir = join(import.meta.dirname, '..', '..', 'src', 'db');
const migrationsDir = join(dbDir, 'migrations');

/** `src/db/migration-hashes.txt`, in `sha256sum` format: add a line for a new migration (`sha256sum <file>`), never change one. */
async function recorded(): Promise<Map<string, string>> {
  const text = await readFile(join(dbDir, 'migration-hashes.txt'), 'utf8');
  return new Map(
    text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        const [hash, file] = line.split(/\s+\*?/);
        return [file!, hash!];
      }),
  );
}

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

/** The files whose content no longer matches the recorded hash, and the files not recorded at all. */
function differences(files: Map<string, string>, hashes: Map<string, string>) {
  const changed = [...files].filter(([name, content]) => hashes.has(name) && hashes.get(name) !== sha256(content)).map(([n]) => n);
  const unrecorded = [...files.keys()].filter((name) => !hashes.has(name));
  const missing = [...hashes.keys()].filter((name) => !files.has(name));
  return { changed, unrecorded, missing };
}

async function migrationFiles(): Promise<Map<string, string>> {
  const names = (await readdir(migrationsDir)).filter((n) => n.endsWith('.ts')).sort();
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(join(migrationsDir, n), 'utf8')] as const)));
}

describe('Migrations are frozen', () => {
  it('match the recorded hash list: no landed migration changed, none is missing, every new one is recorded', async () => {
    expect(differences(await migrationFiles(), await recorded())).toEqual({ changed: [], unrecorded: [], missing: [] });
  });

  it('would catch an edit to a landed migration', async () => {
    const files = await migrationFiles();
    const [first] = files.keys();
    files.set(first!, `${files.get(first!)}\n// an edit after it landed\n`);
    expect(differences(files, await recorded()).changed).toEqual([first]);
  });

  it('are each registered with the migrator, under their file name, in order', async () => {
    const source = await readFile(join(dbDir, 'migrate.ts'), 'utf8');
    const registered = [...source.matchAll(/^\s+'([0-9_a-z]+)': /gm)].map((m) => m[1]);
    const names = [...(await migrationFiles()).keys()].map((n) => n.replace(/\.ts$/, ''));
    expect(registered).toEqual(names);
    for (const name of names) expect(name).toMatch(/^\d{4}_\d{2}_\d{2}_\d{2,3}_[a-z0-9_]+$/);
  });
});
