import type { AccessSession } from '@svc/contract';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { mayActOn, type SessionCaller } from './session-caller';
import * as repo from './sessions.repository';
import { serializeSession } from './sessions.serializer';

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
