import type { Transaction } from 'kysely';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { LiveStreamHealthColumn, LiveStreamRow } from '../../../db/streams-live.schema';
import type { Scope } from '../../../core/scope';
import * as repo from './live-streams.repository';

/*
 * Live stream rows for the other resources of Streams (playback ids, the test helpers), so that only the
 * live streams' own files use their repository.
 */

/** The caller's live stream row, or `undefined`. */
export async function findLiveStreamRow(db: Executor, scope: Scope, id: string): Promise<LiveStreamRow | undefined> {
  return repo.findLiveStream(db, scope, id);
}

/** Stores a new `health` on a live stream the caller has locked in `trx`; emits nothing. */
export async function storeLiveStreamHealth(trx: Transaction<DB>, scope: Scope, id: string, health: LiveStreamHealthColumn): Promise<void> {
  await repo.updateLiveStream(trx, scope, id, { health: JSON.stringify(health) });
}
