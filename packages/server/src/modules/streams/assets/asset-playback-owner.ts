import { registerPlaybackOwner, type PlaybackOwner } from '../playback-ids/playback-owners';
import { emitAssetEvent } from './assets.serializer';
import { assertAssetPlayable, getAssetRow } from './assets.service';

/** How playback ids reach assets: an added or removed id is `streams.asset.updated`; a not-ready asset does not play. */
export const assetPlaybackOwner: PlaybackOwner = {
  column: 'asset_id',
  lock: async (trx, scope, id) => {
    const row = await getAssetRow(trx, scope, id, true);
    return { provider: row.provider };
  },
  playbackIdsChanged: async (trx, scope, id, previous) => {
    const row = await getAssetRow(trx, scope, id, true);
    await emitAssetEvent(trx, scope, 'streams.asset.updated', row, { playback_ids: previous });
  },
  assertPlayable: async (db, scope, id) => {
    const row = await getAssetRow(db, scope, id);
    assertAssetPlayable(row);
    return { kind: 'vod', provider: row.provider, audioOnly: row.audio_only, duration: row.duration, providerRef: row.provider_asset_id };
  },
};

registerPlaybackOwner('asset', assetPlaybackOwner);
