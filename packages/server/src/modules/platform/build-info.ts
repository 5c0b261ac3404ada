import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildInfoSchema } from '@svc/contract';
import type { z } from 'zod';

type BuildInfo = z.infer<typeof BuildInfoSchema>;

/** Written by `scripts/write-build-info.mjs` during the build, next to the server's package.json (found from src/ or dist/ alike). */
function defaultBuildInfoFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'build-info.json');
}

export async function readBuildInfo(file: string = process.env.SVC_BUILD_INFO_FILE ?? defaultBuildInfoFile()): Promise<BuildInfo> {
  try {
    const raw = JSON.parse(await readFile(file, 'utf8')) as Partial<BuildInfo>;
    if (typeof raw.commit !== 'string' || typeof raw.build_date !== 'string' || typeof raw.version !== 'string') {
      throw new Error('the build information file lacks commit, build_date or version');
    }
    return { commit: raw.commit, build_date: raw.build_date, version: raw.version };
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'build information file not found' : (err as Error).message;
    return { commit: 'unknown', build_date: 'unknown', version: 'unknown', error: reason };
  }
}
