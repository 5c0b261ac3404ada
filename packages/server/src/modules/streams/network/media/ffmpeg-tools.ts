import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Files from tenants are read as plain media containers from local files only: no playlists (HLS, concat, ffconcat)
 * that could make ffmpeg fetch other files or addresses.
 */
export const UNTRUSTED_INPUT = [
  '-protocol_whitelist', 'file',
  '-format_whitelist', 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,flv,mpegts,avi,mp3,aac,wav,ogg,flac,mpeg,mpegvideo,h264,hevc,asf',
];

export interface ProbeResult {
  duration: number;
  hasVideo: boolean;
  hasAudio: boolean;
}

/** ffprobe's reading of a file, or `null` when it is not media ffprobe can read. */
export async function probe(ffprobe: string, input: string, inputOptions: string[] = []): Promise<ProbeResult | null> {
  try {
    const { stdout } = await run(
      ffprobe,
      ['-v', 'error', ...inputOptions, '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', input],
      { timeout: 60_000, maxBuffer: 1 << 20 },
    );
    const parsed = JSON.parse(stdout) as { format?: { duration?: string }; streams?: { codec_type?: string }[] };
    const types = (parsed.streams ?? []).map((s) => s.codec_type);
    const duration = Number(parsed.format?.duration);
    const result = { duration: Number.isFinite(duration) ? duration : 0, hasVideo: types.includes('video'), hasAudio: types.includes('audio') };
    return result.hasVideo || result.hasAudio ? result : null;
  } catch {
    return null;
  }
}

/**
 * Packages `input` (any container ffmpeg reads, or a concat list) as on-demand HLS in `outDir`: remuxed
 * without transcoding when the codecs fit MPEG-TS, transcoded to H.264/AAC only when they do not.
 */
export async function packageHls(ffmpeg: string, input: string[], outDir: string): Promise<void> {
  const output = ['-f', 'hls', '-hls_time', '4', '-hls_playlist_type', 'vod', '-hls_segment_filename', `${outDir}/%d.ts`, `${outDir}/index.m3u8`];
  const maps = ['-map', '0:v:0?', '-map', '0:a:0?'];
  const base = ['-hide_banner', '-loglevel', 'error', '-y', ...input, ...maps];
  try {
    await run(ffmpeg, [...base, '-c', 'copy', ...output], { timeout: 30 * 60_000, maxBuffer: 1 << 20 });
  } catch {
    await run(ffmpeg, [...base, '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', ...output], { timeout: 60 * 60_000, maxBuffer: 1 << 20 });
  }
}
