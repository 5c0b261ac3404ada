import type { PlaybackId, PlaybackLink as PlaybackLinkObject } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { PlaybackIdRow } from '../../../db/streams-live.schema';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { StreamsDeps } from '../streams-deps';
import { ownerOf, type Playable } from './playback-owners';
import * as repo from './playback-ids.repository';

export type { PlaybackIdRef } from './playback-ids.repository';
import { signPlaybackToken } from './playback-tokens';

export function serializePlaybackId(row: PlaybackIdRow): PlaybackId {
  return {
    id: row.id,
    object: 'playback_id',
    livemode: row.livemode,
    policy: row.policy,
    resource: (row.live_stream_id ?? row.asset_id)!,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Adds a playback id to a stream or asset and reports it with the resource's `updated` event, in one transaction. */
export async function createPlaybackId(
  deps: StreamsDeps,
  scope: Scope,
  input: { resource: string; policy?: 'signed' | 'public' },
): Promise<PlaybackId> {
  const owner = ownerOf(input.resource);
  return deps.db.transaction().execute(async (trx) => {
    await owner.lock(trx, scope, input.resource);
    const before = (await repo.listPlaybackIdRefs(trx, scope, [input.resource])).get(input.resource) ?? [];
    const row = await repo.insertPlaybackId(trx, scope, { [owner.column]: input.resource, policy: input.policy ?? 'signed', created_at: deps.now() });
    await owner.playbackIdsChanged(trx, scope, input.resource, before);
    return serializePlaybackId(row);
  });
}

/** Removes a playback id: links made with it stop at once (the playback route finds no such id). */
export async function deletePlaybackId(deps: StreamsDeps, scope: Scope, id: string): Promise<PlaybackId> {
  const found = isIdOf('playback_id', id) ? await repo.findPlaybackId(deps.db, scope, id) : undefined;
  if (!found) throw ApiError.notFound('playback id', id);
  const resource = (found.live_stream_id ?? found.asset_id)!;
  const owner = ownerOf(resource);
  return deps.db.transaction().execute(async (trx) => {
    // The resource's lock orders this against other changes of its playback ids.
    await owner.lock(trx, scope, resource);
    const row = await repo.findPlaybackId(trx, scope, id);
    if (!row) throw ApiError.notFound('playback id', id);
    const before = (await repo.listPlaybackIdRefs(trx, scope, [resource])).get(resource) ?? [];
    await repo.deletePlaybackId(trx, scope, id);
    await owner.playbackIdsChanged(trx, scope, resource, before);
    return serializePlaybackId(row);
  });
}

export interface PlaybackLink {
  url: string;
  /** The RS256 token inside `url`, or `null` for a public playback id. */
  token: string | null;
  expires_at: string | null;
}

/**
 * The address a player opens for a playback id, signed until `expiresAt` when the id is `signed`. For the
 * Access module (session grants, `POST /v1/streams/playback_tokens`); refuses what cannot play now.
 */
export async function createPlaybackLink(
  deps: StreamsDeps,
  scope: Scope,
  playbackId: string,
  expiresAt: Date,
): Promise<PlaybackLink & { playable: Playable }> {
  const row = isIdOf('playback_id', playbackId) ? await repo.findPlaybackId(deps.db, scope, playbackId) : undefined;
  if (!row) throw ApiError.notFound('playback id', playbackId);
  const resource = (row.live_stream_id ?? row.asset_id)!;
  const playable = await ownerOf(resource).assertPlayable(deps.db, scope, resource);
  return { ...(await linkForPlayable(deps, scope, row, playable, expiresAt)), playable };
}

/** How long a staff member's preview link plays: enough to look, short enough that a copied link soon stops. */
const PREVIEW_SECONDS = 600;

/** `POST /v1/streams/playback_ids/{id}/preview_links`: the tenant's staff watch without an entitlement or a session. */
export async function createPreviewLink(deps: StreamsDeps, scope: Scope, playbackId: string): Promise<PlaybackLinkObject> {
  const link = await createPlaybackLink(deps, scope, playbackId, new Date(deps.now().getTime() + PREVIEW_SECONDS * 1000));
  return { object: 'playback_link', playback_id: playbackId, url: link.url, expires_at: link.expires_at };
}

/**
 * The link for a playback id of a resource the caller has just found playable (`assertPlayable`), so a
 * session open looks neither up twice.
 */
export async function linkForPlayable(
  deps: StreamsDeps,
  scope: Scope,
  playbackId: Pick<PlaybackIdRow, 'id' | 'policy'>,
  playable: Playable,
  expiresAt: Date,
): Promise<PlaybackLink> {
  const network = await deps.videoNetworks.playbackOf(playable.provider);
  const token = playbackId.policy === 'signed' ? await signPlaybackToken(deps, scope, playable.provider, playbackId.id, expiresAt) : null;
  return { url: network.playbackUrl({ playbackId: playbackId.id, token }), token, expires_at: token ? expiresAt.toISOString() : null };
}

/** The playback ids of each resource (live stream or asset), by resource id, in id order. */
export const playbackIdRefsOf = (deps: Pick<StreamsDeps, 'db'>, scope: Scope, resourceIds: string[]) => repo.listPlaybackIdRefs(deps.db, scope, resourceIds);

export { addPlaybackId, removePlaybackIdsOf, playbackIdRefsIn } from './playback-id-rows';
