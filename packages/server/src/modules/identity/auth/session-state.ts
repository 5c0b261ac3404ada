import type { AppContext } from '../../../core/context';
import { isIdOf } from '../../../core/ids';
import type { SessionState } from '../identity-caches';
import { cachesOf } from '../identity-parts';

/** A session's tenant, person and end, kept at most 60 s; ending a session clears it on every process. */
export async function sessionState(ctx: AppContext, sessionId: string): Promise<SessionState | undefined> {
  if (!isIdOf('auth_session', sessionId)) return undefined;
  const cached = cachesOf(ctx).sessions.get(sessionId);
  if (cached) return cached;
  const readAt = cachesOf(ctx).sessions.generation;
  const row = await ctx.db
    .selectFrom('auth_sessions')
    .select(['tenant_id', 'user_id', 'ended_at'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const state = { tenantId: row.tenant_id, userId: row.user_id, endedAt: row.ended_at };
  cachesOf(ctx).sessions.set(sessionId, state, readAt);
  return state;
}
