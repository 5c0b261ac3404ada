import { readFile } from 'node:fs/promises';
import type { BuildInfoSchema } from '@svc/contract';
import type { z } from 'zod';

type BuildInfo = z.infer<typeof BuildInfoSchema>;

/** Written by `scripts/write-build-info.mjs` during the build, next to package.json. */
export const BUILD_INFO_FILE = new URL('../../../build-info.json', import.meta.url);

export async function readBuildInfo(file: URL | string = process.env.SVC_BUILD_INFO_FILE ?? BUILD_INFO_FILE): Promise<BuildInfo> {
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
