import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../../../core/errors';
import type { ObjectStore } from '../../../../core/storage/object-store';
import type { LocalHls } from '../video-network';
import { ASSETS, type MediaLayout } from './media-layout';

const REF = /^m(li|as|up|rc)_[0-9a-f_]+$/;

/**
 * Live HLS as nginx-rtmp writes it (`live/<ref>/` on this machine's disk), on-demand HLS as the packaging job
 * stored it (`assets/<ref>/` in the object store). Either is read only by the playback routes, after their check.
 */
export class MediaHls implements LocalHls {
  constructor(
    private readonly layout: MediaLayout,
    private readonly store: ObjectStore,
  ) {}

  private read(kind: 'live' | 'vod', ref: string, file: string): Promise<Buffer | null> {
    if (!REF.test(ref)) return Promise.resolve(null);
    if (kind === 'vod') {
      return this.store.get(`${ASSETS}/${ref}/${file}`).catch(() => {
        throw ApiError.of('provider_unavailable', { message: 'The media storage cannot be reached; try again shortly.' });
      });
    }
    return readFile(join(this.layout.live, ref, file)).catch(() => null);
  }

  async playlist(kind: 'live' | 'vod', ref: string): Promise<string | null> {
    return (await this.read(kind, ref, 'index.m3u8'))?.toString('utf8') ?? null;
  }

  async segment(kind: 'live' | 'vod', ref: string, n: number): Promise<Buffer | null> {
    return this.read(kind, ref, `${n}.ts`);
  }
}
