import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { checkKey, type ObjectStore } from './object-store';

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** Objects as files under one directory, the key being the relative path. */
export class DiskStore implements ObjectStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  get description(): string {
    return `disk ${this.root}`;
  }

  pathOf(key: string): string {
    return join(this.root, checkKey(key));
  }

  async put(key: string, body: Buffer | string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, body);
  }

  async putFile(key: string, path: string): Promise<void> {
    const target = this.pathOf(key);
    if (resolve(path) === target) return;
    await mkdir(dirname(target), { recursive: true });
    await copyFile(path, target);
  }

  async get(key: string): Promise<Buffer | null> {
    return readFile(this.pathOf(key)).catch((err) => (missing(err) ? null : Promise.reject(err)));
  }

  async getFile(key: string, path: string): Promise<boolean> {
    try {
      await pipeline(createReadStream(this.pathOf(key)), createWriteStream(path));
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch((err) => (missing(err) ? [] : Promise.reject(err)));
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else keys.push(relative(this.root, path).split('\\').join('/'));
      }
    };
    // The prefix names a directory (`assets/mas_1/`) or the start of file names (`recordings/mli_1-`).
    const base = prefix.endsWith('/') ? this.pathOf(prefix) : dirname(join(this.root, checkKey(prefix)));
    await walk(base);
    return keys.filter((k) => k.startsWith(prefix));
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (prefix.endsWith('/')) await rm(this.pathOf(prefix), { recursive: true, force: true });
    else for (const key of await this.list(prefix)) await this.delete(key);
  }
}
