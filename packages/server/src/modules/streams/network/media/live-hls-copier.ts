import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ObjectStore } from '../../../../core/storage/object-store';
import { LIVE_SEGMENT_SECONDS } from '../../playback-ids/local-playback';
import { LIVE } from './media-layout';

/** How often the live directories are looked at: a fragment is 2 s, so a copy lags nginx by at most this. */
const EVERY_MS = 250;
const SEGMENT_CACHE = `public, max-age=${LIVE_SEGMENT_SECONDS}, immutable`;
const PLAYLIST_CACHE = 'public, max-age=1';

interface Copied {
  /** The playlist's modification time and size when it was last copied. */
  playlist: string;
  segments: Set<number>;
}

const segmentsOf = (playlist: string) => [...playlist.matchAll(/^(\d+)\.ts$/gm)].map((m) => Number(m[1]));

/**
 * Copies live HLS from the media directory, where nginx-rtmp writes it, to the bucket (`live/<ref>/`), so that API
 * processes on any machine serve it. nginx renames a new playlist into place once the fragments it lists are
 * closed: each new segment is copied first, then the playlist, so a playlist in the bucket never names a segment
 * that is not there. Segments that left the playlist are deleted from the bucket a DVR window later (players
 * that loaded the previous playlist still fetch them); a live input's whole copy goes with its directory
 * (housekeeping).
 */
export class LiveHlsCopier {
  private readonly copied = new Map<string, Copied>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly liveDir: string,
    private readonly store: ObjectStore,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.pass().finally(() => (this.running = null));
    }, EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One look at every live input's directory. */
  async pass(): Promise<void> {
    const refs = await readdir(this.liveDir).catch(() => [] as string[]);
    for (const ref of this.copied.keys()) if (!refs.includes(ref)) this.copied.delete(ref);
    await Promise.all(
      refs.map((ref) =>
        this.copy(ref).catch((err: Error) => {
          // Tried again on the next pass; players keep the previous playlist meanwhile.
          this.log.warn({ err: err.message, live_input: ref, storage: this.store.description }, 'media network: live HLS could not be copied to the storage');
        }),
      ),
    );
  }

  private async copy(ref: string): Promise<void> {
    const dir = join(this.liveDir, ref);
    const s = await stat(join(dir, 'index.m3u8')).catch(() => undefined);
    if (!s) return;
    const version = `${s.mtimeMs}:${s.size}`;
    const state = this.copied.get(ref) ?? { playlist: '', segments: new Set<number>() };
    this.copied.set(ref, state);
    if (state.playlist === version) return;
    const playlist = await readFile(join(dir, 'index.m3u8'));
    const listed = segmentsOf(playlist.toString('utf8'));
    for (const n of listed) {
      if (state.segments.has(n)) continue;
      const copied = await this.store.putFile(`${LIVE}/${ref}/${n}.ts`, join(dir, `${n}.ts`), { cacheControl: SEGMENT_CACHE }).then(
        () => true,
        // nginx deleted it meanwhile (it left the DVR window while the storage was slow): nobody is sent to it for long.
        (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? false : Promise.reject(err)),
      );
      if (copied) state.segments.add(n);
    }
    await this.store.put(`${LIVE}/${ref}/index.m3u8`, playlist, { cacheControl: PLAYLIST_CACHE });
    state.playlist = version;
    // Kept as long again as the playlist is long: the DVR window, once more.
    if (listed.length === 0) return;
    const oldest = Math.min(...listed) - listed.length;
    for (const n of state.segments) {
      if (n >= oldest) continue;
      await this.store.delete(`${LIVE}/${ref}/${n}.ts`);
      state.segments.delete(n);
    }
  }
}
