import type { AccessSession, OpenSessionInput } from '@svc/contract';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { accessDenied, decideAccess } from '../entitlements/check-access';
import { denialReason } from '../entitlements/entitlement-rules';
import { findEntitlement } from '../entitlements/entitlements.repository';
import { resourceOf } from '../resources';
import { admitSession } from './admit-session';
import { mayActOn, subjectForOpen, type SessionCaller } from './session-caller';
import { grantOf, openPlayback, sessionTimes } from './session-playback';
import * as repo from './sessions.repository';
import { serializeSession } from './sessions.serializer';

/**
 * Opens a session: the entitlement (`403 access_denied` with the reason), then whether the resource can play
 * (`404`, `409 stream_disabled`, `409 asset_not_ready`, `409 no_playback_id`), then the limits under the
 * entitlement's row lock. The link is signed before the transaction, which then holds one connection only.
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

  const row = await deps.db.transaction().execute(async (trx) => {
    const entitlement = await findEntitlement(trx, scope, decided.row!.id, { forUpdate: true });
    // Revoked or suspended between the check and the lock: the lock's view wins.
    const reason = entitlement ? denialReason(entitlement, now, place) : 'no_entitlement';
    if (reason !== null || !entitlement) throw accessDenied(reason ?? 'no_entitlement', entitlement?.id ?? null);
    const admission = await admitSession(trx, scope, entitlement, input.device_id, now);
    const session: repo.NewAccessSession = {
      id: newId('access_session'),
      entitlement_id: entitlement.id,
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
    return repo.insertSession(trx, scope, session, admission, now);
  });
  return serializeSession(row, grantOf(playback));
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
