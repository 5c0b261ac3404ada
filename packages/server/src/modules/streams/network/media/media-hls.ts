import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocalHls } from '../video-network';
import type { MediaLayout } from './media-layout';

const REF = /^m(li|as|up|rc)_[0-9a-f_]+$/;

/** Live HLS as nginx-rtmp writes it (`live/<ref>/`), on-demand HLS as the packaging job writes it (`assets/<ref>/`). */
export class MediaHls implements LocalHls {
  constructor(private readonly layout: MediaLayout) {}

  private dir(kind: 'live' | 'vod', ref: string): string | null {
    if (!REF.test(ref)) return null;
    return join(kind === 'live' ? this.layout.live : this.layout.assets, ref);
  }

  async playlist(kind: 'live' | 'vod', ref: string): Promise<string | null> {
    const dir = this.dir(kind, ref);
    return dir ? readFile(join(dir, 'index.m3u8'), 'utf8').catch(() => null) : null;
  }

  async segment(kind: 'live' | 'vod', ref: string, n: number): Promise<Buffer | null> {
    const dir = this.dir(kind, ref);
    return dir ? readFile(join(dir, `${n}.ts`)).catch(() => null) : null;
  }
}
