import type { AccessSession, OpenSessionInput, SessionEndReason } from '@svc/contract';
import type { AccessSessionRow } from '../../../db/access.schema';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { accessDenied, decideAccess } from '../entitlements/check-access';
import { denialReason, effectiveStatus } from '../entitlements/entitlement-rules';
import { findEntitlement } from '../entitlements/entitlements.repository';
import { resourceOf } from '../resources';
import { admitSession } from './admit-session';
import { mayActOn, subjectForOpen, type SessionCaller } from './session-caller';
import { grantOf, openPlayback, renewPlayback, sessionTimes } from './session-playback';
import * as repo from './sessions.repository';
import { serializeSession } from './sessions.serializer';

const sessionEnded = (row: Pick<AccessSessionRow, 'id' | 'ended_reason'>) =>
  ApiError.of('session_ended', {
    message: `The session ${row.id} has ended (${row.ended_reason}); open a new one.`,
    details: { reason: row.ended_reason },
  });

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
    await admitSession(trx, scope, entitlement, input.device_id, now);
    return repo.insertSession(trx, scope, {
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
    });
  });
  return serializeSession(row, grantOf(playback));
}

type Named = { customer?: string; contact_hash?: string } | undefined;

const notFound = (id: string) => ApiError.notFound('access session', id);

/**
 * Keeps a session alive and hands out a fresh link: one indexed read (the session with its entitlement's
 * status) and one conditional write. A session that lapsed, was replaced or ended, or whose entitlement
 * stopped, answers `403 session_ended` with the reason.
 */
export async function heartbeatSession(deps: AccessDeps, scope: Scope, caller: SessionCaller, id: string, named: Named): Promise<AccessSession> {
  const now = deps.now();
  const found = isIdOf('access_session', id) ? await repo.findSessionForHeartbeat(deps.db, scope, id) : undefined;
  if (!found || !mayActOn(caller, found, named)) throw notFound(id);
  if (found.state === 'ended') throw sessionEnded(found);
  let end: SessionEndReason | null = null;
  if (found.expires_at.getTime() <= now.getTime()) end = 'missed_heartbeats';
  else if (effectiveStatus({ status: found.entitlement_status, ends_at: found.entitlement_ends_at }, now) !== 'active') {
    end = 'entitlement_inactive';
  }
  if (end) {
    const at = end === 'missed_heartbeats' ? found.expires_at : now;
    const ended = (await repo.endSession(deps.db, scope, id, end, at)) ?? (await repo.findSession(deps.db, scope, id))!;
    throw sessionEnded(ended);
  }
  const { expiresAt, linkExpiresAt } = sessionTimes(now);
  const row = await repo.extendSession(deps.db, scope, id, now, expiresAt);
  if (!row) {
    // Ended (or lapsed) between the read and the write, e.g. replaced by a newer session.
    const current = (await repo.findSession(deps.db, scope, id))!;
    throw current.state === 'ended' ? sessionEnded(current) : sessionEnded({ id, ended_reason: 'missed_heartbeats' });
  }
  return serializeSession(row, grantOf(await renewPlayback(deps, scope, row, linkExpiresAt)));
}

/** Ends a session at the client's request (reason `client`); an ended session is answered as it is. */
export async function endSessionByCaller(deps: AccessDeps, scope: Scope, caller: SessionCaller, id: string, named: Named): Promise<AccessSession> {
  const now = deps.now();
  const found = isIdOf('access_session', id) ? await repo.findSession(deps.db, scope, id) : undefined;
  if (!found || !mayActOn(caller, found, named)) throw notFound(id);
  if (found.state === 'ended') return serializeSession(found, null);
  // A session already past its last heartbeat lapsed before the client ended it.
  const lapsed = found.expires_at.getTime() <= now.getTime();
  const ended =
    (await repo.endSession(deps.db, scope, id, lapsed ? 'missed_heartbeats' : 'client', lapsed ? found.expires_at : now)) ??
    (await repo.findSession(deps.db, scope, id))!;
  return serializeSession(ended, null);
}
