import { ApiError } from '../../../core/errors';
import { registerPlaybackOwner, type PlaybackOwner } from '../playback-ids/playback-owners';
import { emitLiveStreamEvent } from './live-stream-events';
import { findLiveStreamRow } from './live-stream-rows.service';
import { lockLiveStream } from './live-stream-transitions';

/** How playback ids reach live streams: a change is `streams.live_stream.updated`; a disabled stream does not play. */
export const liveStreamPlaybackOwner: PlaybackOwner = {
  column: 'live_stream_id',
  lock: async (trx, scope, id) => lockLiveStream(trx, scope, id),
  playbackIdsChanged: async (trx, scope, id, previous) => {
    const row = await lockLiveStream(trx, scope, id);
    await emitLiveStreamEvent(trx, scope, id, 'streams.live_stream.updated', { status: row.status, playback_ids: previous });
  },
  assertPlayable: async (db, scope, id) => {
    const row = await findLiveStreamRow(db, scope, id);
    if (!row) throw ApiError.notFound('live stream', id);
    if (row.status === 'disabled') throw ApiError.of('stream_disabled', { message: `The live stream ${id} is disabled.` });
    return { kind: 'live', provider: row.provider, audioOnly: row.audio_only, duration: null, providerRef: row.provider_ref };
  },
};

registerPlaybackOwner('live_stream', liveStreamPlaybackOwner);
