import type { Executor } from '../../db/database';
import type { Scope } from '../../core/scope';
import { findAsset, findAssetScopes } from './assets/assets.repository';
import { findLiveStream, findLiveStreamScopes } from './live-streams/live-streams.repository';

/** Live streams (`ls`) and assets (`ast`): what other products grant access to and play. */
export type PlayableType = 'ls' | 'ast';

/** Whether the live stream or asset exists in the scope (deleted ones do not). */
export async function playableExists(db: Executor, scope: Scope, type: PlayableType, id: string): Promise<boolean> {
  const row = type === 'ls' ? await findLiveStream(db, scope, id) : await findAsset(db, scope, id);
  return row !== undefined;
}

/** The scopes of the live streams and assets that exist among these ids (one query per kind), for writes made together. */
export async function playableScopes(db: Executor, ids: { ls: readonly string[]; ast: readonly string[] }) {
  const [streams, assets] = await Promise.all([findLiveStreamScopes(db, ids.ls), findAssetScopes(db, ids.ast)]);
  return [...streams, ...assets];
}
