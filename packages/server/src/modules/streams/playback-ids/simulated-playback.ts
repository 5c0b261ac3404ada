import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { StreamsDeps } from '../streams-deps';
import { ownerOf, type Playable } from './playback-owners';
import { findPlaybackIdForPlayer } from './playback-ids.repository';
import { verifyPlaybackToken } from './playback-tokens';

/** Seconds per simulated segment, and how many a live playlist shows at a time. */
const SEGMENT_SECONDS = 2;
const LIVE_WINDOW = 3;
/** On-demand playlists stay small whatever the asset's length: this is a simulation. */
const MAX_VOD_SEGMENTS = 30;

/**
 * Who may play: the playback id must exist, a signed one needs a good token (checked before anything about
 * the resource is revealed), and the resource must be playable now.
 */
export async function authorizePlayback(deps: StreamsDeps, playbackId: string, token: string | undefined): Promise<Playable> {
  const row = isIdOf('playback_id', playbackId) ? await findPlaybackIdForPlayer(deps.db, playbackId) : undefined;
  if (!row) throw ApiError.notFound('playback id', playbackId);
  // Switching Streams off stops playback too, not only the API.
  const tenant = await deps.db.selectFrom('tenants').select('products').where('id', '=', row.tenant_id).executeTakeFirst();
  if (!tenant?.products.includes('streams')) {
    throw ApiError.of('product_not_enabled', { message: 'The streams product is not enabled for this tenant.' });
  }
  if (row.policy === 'signed') await verifyPlaybackToken(deps.db, row, token, deps.now());
  const resource = (row.live_stream_id ?? row.asset_id)!;
  return ownerOf(resource).assertPlayable(deps.db, { tenantId: row.tenant_id, livemode: row.livemode }, resource);
}

const withToken = (path: string, token: string | undefined) => (token ? `${path}?token=${encodeURIComponent(token)}` : path);

export function masterPlaylist(playable: Playable, playbackId: string, token: string | undefined): string {
  const variant = playable.audioOnly
    ? '#EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"'
    : '#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"';
  return ['#EXTM3U', '#EXT-X-VERSION:3', variant, withToken(`${playbackId}/media.m3u8`, token), ''].join('\n');
}

/** Live: a sliding window of segments numbered by the clock, no end. On demand: the whole list and an end tag. */
export function mediaPlaylist(playable: Playable, token: string | undefined, now: Date): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SEGMENT_SECONDS}`];
  let first: number;
  let count: number;
  if (playable.kind === 'live') {
    first = Math.floor(now.getTime() / 1000 / SEGMENT_SECONDS) - LIVE_WINDOW;
    count = LIVE_WINDOW;
  } else {
    first = 0;
    count = Math.min(MAX_VOD_SEGMENTS, Math.max(1, Math.ceil((playable.duration ?? SEGMENT_SECONDS) / SEGMENT_SECONDS)));
    lines.push('#EXT-X-PLAYLIST-TYPE:VOD');
  }
  lines.push(`#EXT-X-MEDIA-SEQUENCE:${first}`);
  for (let n = first; n < first + count; n++) {
    lines.push(`#EXTINF:${SEGMENT_SECONDS.toFixed(3)},`, withToken(`segments/${n}.ts`, token));
  }
  if (playable.kind === 'vod') lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** A segment of MPEG-TS null packets (PID 0x1FFF): valid transport stream, no pictures. */
export function segmentBytes(): Buffer {
  const packets = 16;
  const out = Buffer.alloc(188 * packets, 0xff);
  for (let i = 0; i < packets; i++) out.set([0x47, 0x1f, 0xff, 0x10], i * 188);
  return out;
}
