import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../../../../core/context';
import { ApiError } from '../../../../core/errors';
import { openObjectStore } from '../../../../core/storage/open-object-store';
import type { ObjectStore } from '../../../../core/storage/object-store';
import type { LocalHls } from '../video-network';
import { ASSETS, LIVE } from './media-layout';

const REF = /^m(li|as|up|rc)_[0-9a-f_]+$/;

/**
 * Live HLS as nginx-rtmp writes it (`liveDir/<ref>/` on the media machine's disk) or, on a server without it, as
 * the media machine copied it to the bucket (`live/<ref>/`); on-demand HLS as the packaging job stored it
 * (`assets/<ref>/` in the object store). Either is read only by the playback routes, after their check.
 */
export class MediaHls implements LocalHls {
  constructor(
    private readonly store: ObjectStore,
    /** The media directory's `live/`, where this process runs nginx; `null` reads live HLS from the store. */
    private readonly liveDir: string | null,
  ) {}

  private read(kind: 'live' | 'vod', ref: string, file: string): Promise<Buffer | null> {
    if (!REF.test(ref)) return Promise.resolve(null);
    if (kind === 'live' && this.liveDir) return readFile(join(this.liveDir, ref, file)).catch(() => null);
    return this.store.get(`${kind === 'vod' ? ASSETS : LIVE}/${ref}/${file}`).catch(() => {
      throw ApiError.of('provider_unavailable', { message: 'The media storage cannot be reached; try again shortly.' });
    });
  }

  async playlist(kind: 'live' | 'vod', ref: string): Promise<string | null> {
    return (await this.read(kind, ref, 'index.m3u8'))?.toString('utf8') ?? null;
  }

  async segment(kind: 'live' | 'vod', ref: string, n: number): Promise<Buffer | null> {
    return this.read(kind, ref, `${n}.ts`);
  }
}

/**
 * The media network's HLS as a process that does not run it reads it from `SVC_STORAGE_URL`'s bucket (an `api`
 * process, on any machine); `null` without a bucket, or with a URL that cannot be used (logged).
 */
export function storedMediaHls(ctx: Pick<AppContext, 'config' | 'log'>): MediaHls | null {
  if (!ctx.config.SVC_STORAGE_URL) return null;
  try {
    return new MediaHls(openObjectStore(ctx.config.SVC_STORAGE_URL, 'media', join(ctx.config.SVC_DATA_DIR, 'media')), null);
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, 'media network HLS not served: SVC_STORAGE_URL cannot be used');
    return null;
  }
}
