import type { SessionEndReason } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { Scope } from '../../../core/scope';
import * as repo from './sessions.repository';

/* Sessions for the other resources of Access (entitlements), so that only the sessions' own files use their repository. */

/** Ends every active session opened on the entitlement; returns how many ended. Emits nothing. */
export async function endSessionsOf(db: Executor, scope: Scope, entitlementId: string, reason: SessionEndReason, at: Date): Promise<number> {
  return repo.endSessionsOf(db, scope, entitlementId, reason, at);
}
