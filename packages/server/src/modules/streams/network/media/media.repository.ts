import type { Executor } from '../../../../db/database';
import type { Scope } from '../../../../core/scope';
import { MEDIA_PROVIDER } from './media-network';

/**
 * The live stream a media-network ref names, with its tenant and environment, across tenants: nginx's
 * callbacks carry only the ref. Deleted streams are not found.
 */
export async function findMediaLiveStreamScope(db: Executor, ref: string): Promise<{ id: string; scope: Scope } | undefined> {
  const row = await db
    .selectFrom('live_streams')
    .select(['id', 'tenant_id', 'livemode'])
    .where('provider', '=', MEDIA_PROVIDER)
    .where('provider_ref', '=', ref)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { id: row.id, scope: { tenantId: row.tenant_id, livemode: row.livemode } };
}

/** Media-network streams whose encoder this process believed connected (for reconciling after a restart). */
export async function listMediaStreamsInFlight(db: Executor) {
  return db
    .selectFrom('live_streams')
    .select(['id', 'tenant_id', 'livemode', 'provider_ref', 'status'])
    .where('provider', '=', MEDIA_PROVIDER)
    .where('status', 'in', ['connecting', 'active'])
    .where('deleted_at', 'is', null)
    .execute();
}

/** The active simulcast targets of a stream, their keys still sealed. */
export async function listRelayTargets(db: Executor, scope: Scope, liveStreamId: string) {
  return db
    .selectFrom('simulcast_targets')
    .select(['id', 'url', 'stream_key_sealed', 'provider_ref'])
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('live_stream_id', '=', liveStreamId)
    .where('status', '=', 'active')
    .execute();
}

/** Asset refs of this network that are still `preparing` (packaging picks them up again after a crash). */
export async function listPreparingMediaAssets(db: Executor) {
  return db
    .selectFrom('assets')
    .select(['id', 'tenant_id', 'livemode'])
    .where('provider', '=', MEDIA_PROVIDER)
    .where('status', '=', 'preparing')
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('source', '!=', 'recording'), eb('recording_ended_at', 'is not', null)]))
    .execute();
}
