import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface MediaBinaries {
  nginx: string;
  rtmpModule: string;
  ffmpeg: string;
  ffprobe: string;
}

// Debian puts nginx in /usr/sbin, which is not on every user's PATH.
const SEARCH = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'].filter(Boolean);
const MODULE_PATHS = [
  '/usr/lib/nginx/modules/ngx_rtmp_module.so', // Debian, Ubuntu (libnginx-mod-rtmp)
  '/usr/lib64/nginx/modules/ngx_rtmp_module.so',
  '/usr/share/nginx/modules/ngx_rtmp_module.so',
  '/usr/local/nginx/modules/ngx_rtmp_module.so',
];

function which(name: string): string | undefined {
  for (const dir of SEARCH) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The programs the media network runs, or the list of those missing. */
export function findMediaBinaries(): { found: MediaBinaries } | { missing: string[] } {
  const nginx = which('nginx');
  const rtmpModule = MODULE_PATHS.find((p) => existsSync(p));
  const ffmpeg = which('ffmpeg');
  const ffprobe = which('ffprobe');
  if (nginx && rtmpModule && ffmpeg && ffprobe) return { found: { nginx, rtmpModule, ffmpeg, ffprobe } };
  const missing = [
    !nginx && 'nginx',
    !rtmpModule && 'the nginx RTMP module (libnginx-mod-rtmp)',
    !ffmpeg && 'ffmpeg',
    !ffprobe && 'ffprobe',
  ].filter((m): m is string => Boolean(m));
  return { missing };
}
