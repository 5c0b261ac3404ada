import type { Transaction } from 'kysely';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { ApiError } from '../../../core/errors';
import { objectTypeOfId } from '@svc/contract';
import type { Scope } from '../../../core/scope';
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

/**
 * Owners by object type: live streams and assets each register theirs (`live-stream-playback-owner.ts`,
 * `asset-playback-owner.ts`), so that playback ids never import the resources that have them.
 */
const owners = new Map<string, PlaybackOwner>();

export function registerPlaybackOwner(type: 'live_stream' | 'asset', owner: PlaybackOwner): void {
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
