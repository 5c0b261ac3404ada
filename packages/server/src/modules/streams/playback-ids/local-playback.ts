import type { Response } from 'express';
import { ApiError } from '../../../core/errors';
import type { LocalHls } from '../network/video-network';
import type { StreamsDeps } from '../streams-deps';
import type { Playable } from './playback-owners';

const withToken = (path: string, token: string | undefined) => (token ? `${path}?token=${encodeURIComponent(token)}` : path);

/** Where this server reads `playable`'s HLS (its disk, or the bucket), if it serves it itself. */
export function localHlsOf(deps: StreamsDeps, playable: Playable): LocalHls | undefined {
  if (!playable.providerRef) return undefined;
  const hls = deps.videoNetworks.hlsOf(playable.provider);
  // Media made by a network this server does not run (the media network without its binaries, and no bucket
  // holding its HLS) cannot play here now.
  if (hls === null) {
    throw ApiError.of('provider_unavailable', { message: `The ${playable.provider} video network is not running on this server.` });
  }
  return hls;
}

/**
 * How long a live segment may be cached. nginx-rtmp numbers a live input's segments on from its last broadcast
 * while its directory is kept (housekeeping keeps it an hour past the DVR window), so a number is not reused
 * within this time and a cached live segment is never another broadcast's.
 */
export const LIVE_SEGMENT_SECONDS = 3_600;
/** A year: an on-demand segment of an asset never changes (a new asset has a new ref). */
const VOD_SEGMENT_SECONDS = 31_536_000;

/**
 * Player pages on any origin may load the HLS (the token decides). The headers suit a CDN (docs/self-hosting.md,
 * CDN): segments are immutable; a live playlist changes every fragment and is kept one second, which spares the
 * origin most of a crowd's polls; an on-demand playlist a minute. Signed answers are `public` too: their URL
 * holds the token, so a cache keyed by the URL serves them only to that token, and a CDN keyed otherwise must
 * run the edge check (`GET …/check`) on every request.
 */
export function playbackHeaders(res: Response, what: 'playlist' | 'segment', playable: Playable | null): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  const live = !playable || playable.kind === 'live';
  if (what === 'playlist') res.setHeader('Cache-Control', live ? 'public, max-age=1' : 'public, max-age=60');
  else res.setHeader('Cache-Control', `public, max-age=${live ? LIVE_SEGMENT_SECONDS : VOD_SEGMENT_SECONDS}, immutable`);
}

export function localMasterPlaylist(playable: Playable, playbackId: string, token: string | undefined): string {
  const variant = playable.audioOnly ? '#EXT-X-STREAM-INF:BANDWIDTH=128000' : '#EXT-X-STREAM-INF:BANDWIDTH=2500000';
  return ['#EXTM3U', '#EXT-X-VERSION:3', variant, withToken(`${playbackId}/media.m3u8`, token), ''].join('\n');
}

/** The network's playlist with each segment pointed at the segment route, carrying the link's token. */
export async function localMediaPlaylist(hls: LocalHls, playable: Playable, token: string | undefined): Promise<string> {
  const written = await hls.playlist(playable.kind, playable.providerRef!);
  // Before the first fragment a live playlist is empty: players ask again.
  if (!written) return ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:0', ''].join('\n');
  return written
    .split('\n')
    .map((line) => {
      const m = /^(\d+)\.ts$/.exec(line.trim());
      return m ? withToken(`segments/${m[1]}.ts`, token) : line;
    })
    .join('\n');
}
