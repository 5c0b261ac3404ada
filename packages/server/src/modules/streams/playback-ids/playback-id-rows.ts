import type { Executor } from '../../../db/database';
import type { Scope } from '../../../core/scope';
import * as repo from './playback-ids.repository';

/*
 * The door other Streams resources use to their playback ids; the repository stays this folder's own. It
 * imports nothing of the resources that own playback ids, so they can use it without an import circle.
 */

/** Adds a playback id to a new live stream or asset, in the caller's transaction. */
export const addPlaybackId = (trx: Executor, scope: Scope, row: Parameters<typeof repo.insertPlaybackId>[2]) => repo.insertPlaybackId(trx, scope, row);

/** Deletes a deleted live stream's playback ids, in the caller's transaction. */
export const removePlaybackIdsOf = (trx: Executor, scope: Scope, of: Parameters<typeof repo.deletePlaybackIdsOf>[2]) =>
  repo.deletePlaybackIdsOf(trx, scope, of);

/** The playback ids of each resource, by resource id, read with `db` (a transaction too). */
export const playbackIdRefsIn = (db: Executor, scope: Scope, resourceIds: string[]) => repo.listPlaybackIdRefs(db, scope, resourceIds);
