import type { Transaction } from 'kysely';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { ApiError } from '../../../core/errors';
import { objectTypeOfId } from '@svc/contract';
import type { Scope } from '../../../core/scope';
import { emitLiveStreamEvent } from '../live-streams/live-stream-events';
import { lockLiveStream } from '../live-streams/live-stream-transitions';
import { findLiveStreamRow } from '../live-streams/live-stream-rows.service';
import type { PlaybackIdRef } from './playback-ids.repository';

/** What a player is about to play, once the resource agreed to be played. */
export interface Playable {
  kind: 'live' | 'vod';
  provider: string;
  audioOnly: boolean;
  /** Seconds, for on-demand media. */
  duration: number | null;
  /** The network's reference of the media (`null` until the network named it). */
  providerRef: string | null;
}

/**
 * A resource that has playback ids: live streams here, assets from the assets module. Each says how to lock
 * itself for a change of its playback ids, which event reports that change, and whether it can play now.
 */
export interface PlaybackOwner {
  column: 'live_stream_id' | 'asset_id';
  /** Locks the resource in `trx`; `404 resource_not_found` when it is not the caller's. Returns its provider. */
  lock(trx: Transaction<DB>, scope: Scope, id: string): Promise<{ provider: string }>;
  /** Emits the resource's `updated` event; `previous` is its playback id list before the change. */
  playbackIdsChanged(trx: Transaction<DB>, scope: Scope, id: string, previous: PlaybackIdRef[]): Promise<void>;
  /** Refuses playback that cannot happen now (`409 stream_disabled`, `409 asset_not_ready`). */
  assertPlayable(db: Executor, scope: Scope, id: string): Promise<Playable>;
}

const liveStreamOwner: PlaybackOwner = {
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

/** Owners by object type; the assets module registers its own with `registerPlaybackOwner('asset', …)`. */
const owners = new Map<string, PlaybackOwner>([['live_stream', liveStreamOwner]]);

export function registerPlaybackOwner(type: 'asset', owner: PlaybackOwner): void {
  owners.set(type, owner);
}

/** The owner of a resource id by its prefix, or `404 resource_not_found` (param `resource`) for anything else. */
export function ownerOf(resourceId: string): PlaybackOwner {
  const owner = owners.get(objectTypeOfId(resourceId) ?? '');
  if (!owner) {
    throw ApiError.of('resource_not_found', {
      message: `No such live stream or asset: '${resourceId}'.`,
      param: 'resource',
    });
  }
  return owner;
}
