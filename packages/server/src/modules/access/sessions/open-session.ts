import type { AccessSession, OpenSessionInput } from '@svc/contract';
import type { AccessSessionRow, EntitlementRow } from '../../../db/access.schema';
import type { Database } from '../../../db/database';
import { aloneOnFailure, Batcher } from '../../../core/batcher';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { accessDenied, decideAccess } from '../entitlements/check-access';
import { denialReason, type ViewerPlace } from '../entitlements/entitlement-rules';
import { findEntitlementRow } from '../entitlements/entitlement-rows.service';
import { resourceOf } from '../resources';
import { subjectForOpen, type SessionCaller } from './session-caller';
import { grantOf, openPlayback, sessionTimes } from './session-playback';
import * as repo from './sessions.repository';
import { serializeSession } from './sessions.serializer';

// One batch per connection pool, as for heartbeats: the opens arriving meanwhile go out in one call.
const batches = new WeakMap<Database, Batcher<repo.OpenItem, repo.OpenRefusal | null>>();

function openInBatch(db: Database, item: repo.OpenItem): Promise<repo.OpenRefusal | null> {
  let batch = batches.get(db);
  if (!batch) {
    // A call PostgreSQL aborts (a deadlock with a heartbeat batch, or any fault of one open) is made again one
    // open at a time, so an open fails only for its own reason.
    batch = new Batcher(aloneOnFailure((items: repo.OpenItem[]) => repo.openSessions(db, items)), { maxConcurrent: 4 });
    batches.set(db, batch);
  }
  return batch.add(item);
}

/**
 * Opens a session: the entitlement (`403 access_denied` with the reason), then whether the resource can play
 * (`404`, `409 stream_disabled`, `409 asset_not_ready`, `409 no_playback_id`), then the limits, decided by
 * the database under the entitlement's row lock (`access_open_sessions`, with the other opens arriving
 * meanwhile). The link is signed first, so the lock is held for that call only.
 */
export async function openSession(deps: AccessDeps, scope: Scope, caller: SessionCaller, input: OpenSessionInput): Promise<AccessSession> {
  const now = deps.now();
  const subject = subjectForOpen(caller, input);
  const place = caller.kind === 'viewer' ? caller.place : { country: input.country ?? null, domain: input.domain ?? null };
  const resource = resourceOf(input.resource);
  // Refused viewers cost no signing and learn nothing about the resource.
  const decided = await decideAccess(deps, scope, subject, resource, place, now);
  if (decided.reason !== null || !decided.row) throw accessDenied(decided.reason ?? 'no_entitlement', decided.row?.id ?? null);
  const { expiresAt, linkExpiresAt } = sessionTimes(now);
  const playback = await openPlayback(deps, scope, resource, linkExpiresAt);
  const session: repo.NewAccessSession = {
    id: newId('access_session'),
    entitlement_id: decided.row.id,
    customer: subject.customer,
    contact_hash: subject.contact_hash,
    resource_type: resource.type,
    resource_id: resource.id,
    variant: resource.variant,
    device_id: input.device_id,
    state: 'active',
    ended_reason: null,
    playback_id: playback.playbackId,
    playback_policy: playback.policy,
    provider: playback.provider,
    token_key_id: caller.kind === 'viewer' ? caller.tokenKeyId : null,
    last_heartbeat_at: now,
    expires_at: expiresAt,
    created_at: now,
    ended_at: null,
  };
  await openUnderLock(deps, scope, decided.row, session, place, now);
  // Inserted exactly as given.
  const row = { ...session, tenant_id: scope.tenantId, livemode: scope.livemode } as AccessSessionRow;
  return serializeSession(row, grantOf(playback));
}

/** Times an open is tried again when the entitlement changed and still lets the viewer in. */
const OPEN_ATTEMPTS = 5;

/**
 * The open's write. When the entitlement changed since it was read (revoked, suspended, ended, new limits:
 * the cache may be a moment behind another process), it is read again: a refusal is answered with its reason,
 * anything else opens again with the entitlement as it is now.
 */
async function openUnderLock(
  deps: AccessDeps,
  scope: Scope,
  decided: EntitlementRow,
  session: repo.NewAccessSession,
  place: ViewerPlace,
  now: Date,
): Promise<void> {
  let entitlement = decided;
  for (let attempt = 1; ; attempt++) {
    const refusal = await openInBatch(deps.db, { scope, session: { ...session, entitlement_id: entitlement.id }, entitlement, now });
    if (refusal === null) return;
    if (refusal !== 'entitlement_changed') throw limitRefused(refusal, entitlement);
    const current = await findEntitlementRow(deps.db, scope, entitlement.id);
    const reason = current ? denialReason(current, now, place) : 'no_entitlement';
    if (reason !== null || !current) throw accessDenied(reason ?? 'no_entitlement', entitlement.id);
    if (attempt >= OPEN_ATTEMPTS) throw ApiError.of('service_unavailable', { message: 'The entitlement kept changing while the session opened; retry.' });
    entitlement = current;
  }
}

function limitRefused(refusal: Exclude<repo.OpenRefusal, 'entitlement_changed'>, entitlement: EntitlementRow): ApiError {
  const { max_devices, max_views, max_concurrent_sessions } = entitlement.limits;
  const details = { entitlement: entitlement.id };
  switch (refusal) {
    case 'device_limit_reached':
      return ApiError.of(refusal, { message: `This entitlement allows ${max_devices} device(s), all in use.`, details: { max_devices, ...details } });
    case 'view_limit_reached':
      return ApiError.of(refusal, { message: `This entitlement allows ${max_views} view(s), all used.`, details: { max_views, ...details } });
    case 'concurrency_limit_reached':
      return ApiError.of(refusal, {
        message: `This entitlement allows ${max_concurrent_sessions} session(s) at once; end one first.`,
        details: { max_concurrent_sessions, ...details },
      });
  }
}
