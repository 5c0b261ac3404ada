import { createHash, randomBytes } from 'node:crypto';
import type { Session } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { notifyIdentity } from '../identity-caches';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken, type SignInMethod } from './access-tokens';
import { cachesOf } from '../identity-parts';

export const SESSION_LIMITS = { idleMs: 30 * 24 * 3600_000, absoluteMs: 90 * 24 * 3600_000, reuseGraceMs: 10_000 };

const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const childContext = (tokenId: string) => `${tokenId}:refresh_child`;

export interface SignedInPerson {
  userId: string;
  phone: string | null;
  email: string | null;
  customerId: string;
}

/** 256 random bits, shown once; only their SHA-256 is kept. */
async function insertRefreshToken(db: Executor, sessionId: string, parentId: string | null, now: Date) {
  const token = randomBytes(32).toString('base64url');
  const id = newId('refresh_token');
  await db.insertInto('refresh_tokens').values({ id, session_id: sessionId, token_hash: hashToken(token), parent_id: parentId, used_at: null, child_sealed: null, created_at: now }).execute();
  return { id, token };
}

async function sessionBody(ctx: AppContext, scope: Scope, person: SignedInPerson, sessionId: string, amr: SignInMethod, refreshToken: string): Promise<Session> {
  const { token, exp } = await signAccessToken(ctx, { userId: person.userId, tenantId: scope.tenantId, customerId: person.customerId, livemode: scope.livemode, sessionId, amr });
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: exp,
    refresh_token: refreshToken,
    user: { id: person.userId, phone: person.phone, email: person.email, customer: person.customerId, tenant: scope.tenantId, livemode: scope.livemode },
  };
}

/** A new session with its first refresh token, in the sign-in's transaction. */
export async function startSession(ctx: AppContext, db: Executor, scope: Scope, person: SignedInPerson, amr: SignInMethod): Promise<Session> {
  const now = nowOf(ctx);
  const sessionId = newId('auth_session');
  await db
    .insertInto('auth_sessions')
    .values({ id: sessionId, tenant_id: scope.tenantId, livemode: scope.livemode, user_id: person.userId, customer_id: person.customerId, amr, created_at: now, last_refreshed_at: now, ended_at: null, ended_reason: null })
    .execute();
  const refresh = await insertRefreshToken(db, sessionId, null, now);
  return sessionBody(ctx, scope, person, sessionId, amr, refresh.token);
}

async function endSessions(db: Executor, ids: string[], reason: string, now: Date) {
  if (ids.length === 0) return;
  await db.updateTable('auth_sessions').set({ ended_at: now, ended_reason: reason }).where('id', 'in', ids).where('ended_at', 'is', null).execute();
  await notifyIdentity(db, ids.map((id) => `session:${id}`));
}

/**
 * Spends a refresh token. The session row is locked, so concurrent refreshes take turns: the first rotates
 * the token; a later one presenting the same token within 10 s gets the token that replaced it (a lost
 * answer, a second tab); any other reuse ends the whole session.
 */
export async function refreshSession(ctx: AppContext, refreshToken: string): Promise<Session> {
  const now = nowOf(ctx);
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const presented = await trx.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', hashToken(refreshToken)).executeTakeFirst();
    if (!presented) return { error: 'refresh_token_invalid' as const };
    const session = await trx.selectFrom('auth_sessions').selectAll().where('id', '=', presented.session_id).forUpdate().executeTakeFirstOrThrow();
    if (session.ended_at) return { error: 'refresh_token_invalid' as const };
    const idle = now.getTime() - session.last_refreshed_at.getTime() > SESSION_LIMITS.idleMs;
    const old = now.getTime() - session.created_at.getTime() > SESSION_LIMITS.absoluteMs;
    if (idle || old) {
      await endSessions(trx, [session.id], idle ? 'idle' : 'expired', now);
      return { error: 'refresh_token_invalid' as const };
    }
    const used = await trx.selectFrom('refresh_tokens').select(['used_at', 'child_sealed']).where('id', '=', presented.id).executeTakeFirstOrThrow();
    let token: string;
    if (used.used_at === null) {
      const child = await insertRefreshToken(trx, session.id, presented.id, now);
      await trx
        .updateTable('refresh_tokens')
        .set({ used_at: now, child_sealed: ctx.secrets.encrypt(child.token, childContext(presented.id)) })
        .where('id', '=', presented.id)
        .execute();
      await trx.updateTable('auth_sessions').set({ last_refreshed_at: now }).where('id', '=', session.id).execute();
      token = child.token;
    } else {
      const active = await trx.selectFrom('refresh_tokens').select('parent_id').where('session_id', '=', session.id).where('used_at', 'is', null).executeTakeFirst();
      const withinGrace = now.getTime() - used.used_at.getTime() <= SESSION_LIMITS.reuseGraceMs;
      if (!withinGrace || active?.parent_id !== presented.id || !used.child_sealed) {
        await endSessions(trx, [session.id], 'refresh_token_reused', now);
        return { error: 'refresh_token_already_used' as const };
      }
      token = ctx.secrets.decrypt(used.child_sealed, childContext(presented.id));
    }
    const user = await trx.selectFrom('users').select(['phone', 'email']).where('id', '=', session.user_id).executeTakeFirstOrThrow();
    const scope = { tenantId: session.tenant_id, livemode: session.livemode };
    const person = { userId: session.user_id, customerId: session.customer_id, ...user };
    return { session: await sessionBody(ctx, scope, person, session.id, session.amr as SignInMethod, token), sessionId: session.id };
  });
  if ('error' in outcome) throw ApiError.of(outcome.error!);
  return outcome.session;
}

/** Ends this session, or every session of the person in this tenant; their access tokens are refused at once everywhere. */
export async function logout(ctx: AppContext, principal: { tenant: { id: string }; userId: string; sessionId: string }, global: boolean): Promise<void> {
  const now = nowOf(ctx);
  const ids = await ctx.db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('auth_sessions').select('id').where('ended_at', 'is', null);
    q = global ? q.where('user_id', '=', principal.userId).where('tenant_id', '=', principal.tenant.id) : q.where('id', '=', principal.sessionId);
    const rows = (await q.forUpdate().execute()).map((r) => r.id);
    await endSessions(trx, rows, 'logout', now);
    return rows;
  });
  // This process refuses the tokens before answering; the others a moment later, by NOTIFY.
  for (const id of ids) cachesOf(ctx).sessions.forget(id);
}
