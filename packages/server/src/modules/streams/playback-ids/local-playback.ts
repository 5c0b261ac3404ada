import type { Response } from 'express';
import { ApiError } from '../../../core/errors';
import type { LocalHls } from '../network/video-network';
import type { StreamsDeps } from '../streams-deps';
import type { Playable } from './playback-owners';

const withToken = (path: string, token: string | undefined) => (token ? `${path}?token=${encodeURIComponent(token)}` : path);

/** The network serving `playable` from this server's disk, if it is such a network. */
export function localHlsOf(deps: StreamsDeps, playable: Playable): LocalHls | undefined {
  if (!playable.providerRef) return undefined;
  // Media made by a network this server no longer runs (the media network without its binaries) cannot play now.
  if (!deps.videoNetworks.names.includes(playable.provider)) {
    throw ApiError.of('provider_unavailable', { message: `The ${playable.provider} video network is not running on this server.` });
  }
  return deps.videoNetworks.byProvider(playable.provider).localHls;
}

/**
 * Player pages on any origin may load the HLS (the token decides); playlists of a live stream change every
 * fragment, so they are not cached; segments never change and may be kept a minute, privately when signed.
 */
export function playbackHeaders(res: Response, what: 'playlist' | 'segment', playable: Playable | null, signed: boolean): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (what === 'playlist' && (!playable || playable.kind === 'live')) res.setHeader('Cache-Control', 'no-cache, no-store');
  else res.setHeader('Cache-Control', `${signed ? 'private' : 'public'}, max-age=60`);
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
