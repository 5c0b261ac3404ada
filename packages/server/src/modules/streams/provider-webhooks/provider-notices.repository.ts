import type { Executor } from '../../../db/database';
import { scoped, type Scope } from '../../../core/scope';

/** Records a delivery by the provider's id; `false` when it was taken before (a replay). */
export async function recordNotice(db: Executor, configId: string, id: string, kind: string, subject: string): Promise<boolean> {
  const row = await db
    .insertInto('provider_notifications')
    .values({ provider_config_id: configId, notification_id: id, kind, subject })
    .onConflict((oc) => oc.columns(['provider_config_id', 'notification_id']).doNothing())
    .returning('notification_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The scope's live stream on `provider` with the network reference `ref`, locked. */
export async function lockStreamByRef(db: Executor, scope: Scope, provider: string, ref: string) {
  return scoped(db, scope)
    .selectFrom('live_streams')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_ref', '=', ref)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** The scope's asset on `provider` with the network reference `ref`, locked. */
export async function lockAssetByRef(db: Executor, scope: Scope, provider: string, ref: string) {
  return scoped(db, scope)
    .selectFrom('assets')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_asset_id', '=', ref)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The recording a video of a live input is: the stream's latest recording not yet matched to a video of the
 * network (a deleted stream's recordings still count: they outlive it).
 */
export async function lockUnmatchedRecording(db: Executor, scope: Scope, provider: string, liveInputRef: string) {
  const stream = await scoped(db, scope)
    .selectFrom('live_streams')
    .select('id')
    .where('provider', '=', provider)
    .where('provider_ref', '=', liveInputRef)
    .executeTakeFirst();
  if (!stream) return undefined;
  return scoped(db, scope)
    .selectFrom('assets')
    .selectAll()
    .where('source', '=', 'recording')
    .where('live_stream_id', '=', stream.id)
    .where('provider_asset_id', 'is', null)
    .where('deleted_at', 'is', null)
    .orderBy('recording_started_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** The scope's upload still waiting for its file whose network reference is `ref`. */
export async function findWaitingUpload(db: Executor, scope: Scope, provider: string, ref: string) {
  return scoped(db, scope)
    .selectFrom('uploads')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_upload_id', '=', ref)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
}
