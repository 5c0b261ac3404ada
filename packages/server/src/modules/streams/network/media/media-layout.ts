import { join, resolve } from 'node:path';

/** Where the media network keeps its local files under `SVC_MEDIA_DIR`. nginx writes `live` and `recordings`. */
export interface MediaLayout {
  root: string;
  /** nginx's prefix: its configuration, pid file, control socket and temp files. */
  nginx: string;
  /** Live HLS written by nginx-rtmp, one directory per live input (`<ref>/index.m3u8`, `<n>.ts`). */
  live: string;
  /** FLV recordings written by nginx-rtmp, `<ref>-<unix seconds>.flv`, one per publish. */
  recordings: string;
  /** Scratch space for ffmpeg (downloads, concat lists). */
  work: string;
}

export function mediaLayout(dir: string): MediaLayout {
  const root = resolve(dir);
  return {
    root,
    nginx: join(root, 'nginx'),
    live: join(root, 'live'),
    recordings: join(root, 'recordings'),
    work: join(root, 'work'),
  };
}

/**
 * Keys in the media network's object store (the media directory itself, or `SVC_STORAGE_URL`'s bucket under
 * `media/`): files `PUT` to one-time upload URLs as `uploads/<upload ref>`, packaged on-demand HLS (uploads, URLs,
 * recordings) as `assets/<asset ref>/index.m3u8` and `<n>.ts`; with a bucket, live HLS copied from `live/` as nginx
 * writes it, as `live/<live input ref>/index.m3u8` and `<n>.ts`, so API processes on other machines serve it.
 */
export const UPLOADS = 'uploads';
export const ASSETS = 'assets';
export const LIVE = 'live';

/** The nginx application encoders publish to (`rtmp://host:port/live/<stream key>`). */
export const INGEST_APP = 'live';
/** The loopback-only application the ingest is relayed into under the live input's ref; HLS and recording happen here. */
export const MEDIA_APP = 'media';
