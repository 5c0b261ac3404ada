import type { AccessSession, SessionEndReason } from '@svc/contract';
import type { AccessSessionRow } from '../../../db/access.schema';
import type { Database } from '../../../db/database';
import { Batcher } from '../../../core/batcher';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { effectiveStatus } from '../entitlements/entitlement-rules';
import { mayActOn, type SessionCaller } from './session-caller';
import { grantOf, renewPlayback, sessionTimes } from './session-playback';
import * as repo from './sessions.repository';
import { serializeSession } from './sessions.serializer';

type Named = { customer?: string; contact_hash?: string } | undefined;

const notFound = (id: string) => ApiError.notFound('access session', id);

const sessionEnded = (row: Pick<AccessSessionRow, 'id' | 'ended_reason'>) =>
  ApiError.of('session_ended', {
    message: `The session ${row.id} has ended (${row.ended_reason}); open a new one.`,
    details: { reason: row.ended_reason },
  });

// One batch per connection pool: every process (and every test app with its own pool) groups its own heartbeats.
const batches = new WeakMap<Database, Batcher<repo.HeartbeatWrite, AccessSessionRow | undefined>>();

function extendInBatch(db: Database, write: repo.HeartbeatWrite): Promise<AccessSessionRow | undefined> {
  let batch = batches.get(db);
  if (!batch) {
    // A deadlock with another batch or an open (rows locked in another order) sends these heartbeats the slow way.
    batch = new Batcher((writes) =>
      repo.extendSessions(db, writes).catch((err: { code?: string }) => {
        if (err.code === '40P01') return writes.map(() => undefined);
        throw err;
      }),
    );
    batches.set(db, batch);
  }
  return batch.add(write);
}

/**
 * Keeps a session alive and hands out a fresh link. The usual case is one conditional write, grouped with
 * the other heartbeats arriving meanwhile (`extendSessions`): the database checks the session is the
 * caller's, active and not lapsed, and that its entitlement holds, so no cached state can admit a session
 * that was replaced, ended or revoked on any process. Anything else is decided by `settleHeartbeat`.
 */
export async function heartbeatSession(deps: AccessDeps, scope: Scope, caller: SessionCaller, id: string, named: Named): Promise<AccessSession> {
  if (!isIdOf('access_session', id)) throw notFound(id);
  const now = deps.now();
  const { expiresAt, linkExpiresAt } = sessionTimes(now);
  const owner =
    caller.kind === 'viewer'
      ? { customer: caller.customer, contactHash: null }
      : { customer: named?.customer ?? null, contactHash: named?.contact_hash?.toLowerCase() ?? null };
  const row =
    (await extendInBatch(deps.db, { scope, id, now, expiresAt, ...owner })) ??
    (await settleHeartbeat(deps, scope, caller, id, named, now, expiresAt));
  return serializeSession(row, grantOf(await renewPlayback(deps, scope, row, linkExpiresAt)));
}

/**
 * A heartbeat the batch did not apply, one at a time: `404` for an unknown or someone else's session,
 * `403 session_ended` with the reason for an ended one (ending it now if it lapsed or its entitlement
 * stopped), else extended on its own (the same session twice in one batch, or a batch that deadlocked).
 */
async function settleHeartbeat(
  deps: AccessDeps,
  scope: Scope,
  caller: SessionCaller,
  id: string,
  named: Named,
  now: Date,
  expiresAt: Date,
): Promise<AccessSessionRow> {
  const found = await repo.findSessionForHeartbeat(deps.db, scope, id);
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
  const row = await repo.extendSession(deps.db, scope, id, now, expiresAt);
  if (row) return row;
  // Ended (or lapsed) between the read and the write, e.g. replaced by a newer session.
  const current = (await repo.findSession(deps.db, scope, id))!;
  throw current.state === 'ended' ? sessionEnded(current) : sessionEnded({ id, ended_reason: 'missed_heartbeats' });
}
