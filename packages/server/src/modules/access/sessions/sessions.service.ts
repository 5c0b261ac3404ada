import type { AccessSession, OpenSessionInput } from '@svc/contract';
import type { AccessSessionRow, EntitlementRow } from '../../../db/access.schema';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { accessDenied, decideAccess } from '../entitlements/check-access';
import { denialReason, type ViewerPlace } from '../entitlements/entitlement-rules';
import { findEntitlement } from '../entitlements/entitlements.repository';
import { resourceOf } from '../resources';
import { mayActOn, subjectForOpen, type SessionCaller } from './session-caller';
import { grantOf, openPlayback, sessionTimes } from './session-playback';
import * as repo from './sessions.repository';
import { serializeSession } from './sessions.serializer';

/**
 * Opens a session: the entitlement (`403 access_denied` with the reason), then whether the resource can play
 * (`404`, `409 stream_disabled`, `409 asset_not_ready`, `409 no_playback_id`), then the limits, decided by
 * the database under the entitlement's row lock in one call (`openUnderLock`). The link is signed first, so
 * the lock is held for that call only.
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
  const row = await openUnderLock(deps, scope, decided.row, session, place, now);
  return serializeSession(row, grantOf(playback));
}

/** Times an open is tried again when the entitlement changed (and still lets the viewer in) or it deadlocked. */
const OPEN_ATTEMPTS = 5;

/**
 * The open's transaction. When the entitlement changed since it was read (revoked, suspended, ended, new
 * limits), it is read again: a refusal answers why, otherwise the open runs again with what it holds now.
 */
async function openUnderLock(
  deps: AccessDeps,
  scope: Scope,
  decided: EntitlementRow,
  session: repo.NewAccessSession,
  place: ViewerPlace,
  now: Date,
): Promise<AccessSessionRow> {
  let entitlement = decided;
  for (let attempt = 1; ; attempt++) {
    try {
      return await repo.openSessionUnderLock(deps.db, scope, { ...session, entitlement_id: entitlement.id }, entitlement.limits, now);
    } catch (err) {
      const refusal = repo.openRefusalOf(err);
      const deadlocked = (err as { code?: string }).code === '40P01';
      if (refusal === null && !deadlocked) throw err;
      if (refusal !== null && refusal !== 'entitlement_changed') throw limitRefused(refusal, entitlement);
      if (attempt >= OPEN_ATTEMPTS) throw ApiError.of('service_unavailable', { message: 'The entitlement kept changing while the session opened; retry.' });
      if (refusal === 'entitlement_changed') {
        const current = await findEntitlement(deps.db, scope, entitlement.id);
        const reason = current ? denialReason(current, now, place) : 'no_entitlement';
        if (reason !== null || !current) throw accessDenied(reason ?? 'no_entitlement', entitlement.id);
        entitlement = current;
      }
    }
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

type Named = { customer?: string; contact_hash?: string } | undefined;

/** Ends a session at the client's request (reason `client`); an ended session is answered as it is. */
export async function endSessionByCaller(deps: AccessDeps, scope: Scope, caller: SessionCaller, id: string, named: Named): Promise<AccessSession> {
  const now = deps.now();
  const found = isIdOf('access_session', id) ? await repo.findSession(deps.db, scope, id) : undefined;
  if (!found || !mayActOn(caller, found, named)) throw ApiError.notFound('access session', id);
  if (found.state === 'ended') return serializeSession(found, null);
  // A session already past its last heartbeat lapsed before the client ended it.
  const lapsed = found.expires_at.getTime() <= now.getTime();
  const ended =
    (await repo.endSession(deps.db, scope, id, lapsed ? 'missed_heartbeats' : 'client', lapsed ? found.expires_at : now)) ??
    (await repo.findSession(deps.db, scope, id))!;
  return serializeSession(ended, null);
}
