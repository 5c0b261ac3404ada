import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { EffectiveBranding, MessageChannelName, Session } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { parseEncryptionKey } from '../../../core/secret-box';
import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import { startSession } from '../auth/sessions.service';
import type { SignInMethod } from '../auth/access-tokens';
import { requireChannel, writeMessage } from '../../messaging';
import { channelFor, destinationOf, type Destination } from './destination';
import { attemptsExceeded, checkLock, checkSendLimits, lockDestination, OTP_LIMITS } from './otp-limits';
import { activateMembers, customerForUser, findOrCreateUser } from './people';
import { customerSignedIn } from './sign-in-listeners';

const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());
const hmacKeys = new WeakMap<object, Buffer>();

/** Codes are kept as HMAC-SHA256 under a key derived from `SVC_ENCRYPTION_KEY`, bound to their challenge. */
function codeHmac(ctx: AppContext, challengeId: string, code: string): Buffer {
  let key = hmacKeys.get(ctx.config);
  if (!key) {
    key = createHmac('sha256', parseEncryptionKey(ctx.config.SVC_ENCRYPTION_KEY!)).update('svc:otp-code').digest();
    hmacKeys.set(ctx.config, key);
  }
  return createHmac('sha256', key).update(`${challengeId}:${code}`).digest();
}

export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface CodeRequest {
  phone?: string;
  email?: string;
  channel?: MessageChannelName;
  ip: string;
  /** Email link: the link's base URL and where to go after. */
  link?: { baseUrl: string; redirectTo: string | null };
  /** Whose name the message speaks in: the tenant's, or the organization's on its own domain. */
  brand?: EffectiveBranding;
}

/**
 * Sends a 6-digit code (and for an email link, a single-use link), replacing the destination's previous code.
 * The answer never tells whether an account exists. The challenge, the replacement and the message commit together.
 */
export async function requestCode(ctx: AppContext, scope: Scope, input: CodeRequest) {
  const destination = destinationOf(input);
  const channel = channelFor(destination, input.channel);
  const now = nowOf(ctx);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const ttl = destination.kind === 'phone' ? OTP_LIMITS.phoneTtlMs : OTP_LIMITS.emailTtlMs;
  const id = newId('otp_challenge');
  const linkToken = input.link ? randomBytes(32).toString('base64url') : null;
  const name = input.brand?.display_name;
  const message = input.link
    ? {
        subject: name ? `Sign in to ${name}` : 'Your sign-in link',
        body: `Sign in${name ? ` to ${name}` : ''}: ${input.link.baseUrl}/auth/v1/magic_link/verify?token=${linkToken}\nOr enter the code ${code}. The link works once, for 15 minutes.`,
        template: 'magic_link',
      }
    : {
        subject: destination.kind === 'email' ? (name ? `Your ${name} sign-in code` : 'Your sign-in code') : null,
        body: `Your ${name ? `${name} ` : ''}sign-in code is ${code}. It expires in ${ttl / 60_000} minutes.`,
        template: 'otp_code',
      };
  // The code goes as a parameter too (a chat app's authentication template); the message is never sent after the code expires.
  const expiresAt = new Date(now.getTime() + (input.link ? Math.max(ttl, OTP_LIMITS.linkTtlMs) : ttl));
  const outgoing = { channel, to: destination.value, sensitive: true, params: { code }, expiresAt, brand: input.brand ?? null, ...message };
  await requireChannel(ctx, scope, outgoing);
  await ctx.db.transaction().execute(async (trx) => {
    await lockDestination(trx, destination.key);
    await checkSendLimits(trx, destination.key, input.ip, now);
    await trx
      .updateTable('otp_challenges')
      .set({ replaced_at: now })
      .where('destination', '=', destination.key)
      .where('tenant_id', '=', scope.tenantId)
      .where('livemode', '=', scope.livemode)
      .where('replaced_at', 'is', null)
      .where('consumed_at', 'is', null)
      .execute();
    await trx
      .insertInto('otp_challenges')
      .values({
        id,
        tenant_id: scope.tenantId,
        livemode: scope.livemode,
        destination: destination.key,
        channel,
        code_hmac: codeHmac(ctx, id, code).toString('hex'),
        link_hash: linkToken ? hashLinkToken(linkToken) : null,
        redirect_to: input.link?.redirectTo ?? null,
        ip: input.ip,
        expires_at: new Date(now.getTime() + ttl),
        consumed_at: null,
        replaced_at: null,
        created_at: now,
      })
      .execute();
    await writeMessage(trx, scope, { ...outgoing, related: [id] });
  });
  return {
    channel,
    expires_at: new Date(now.getTime() + ttl).toISOString(),
    resend_after: new Date(now.getTime() + OTP_LIMITS.resendAfterMs).toISOString(),
  };
}

/** In the spending transaction: the person, their customer, their invitations, what they bought as a guest, and a new session. */
export async function signIn(ctx: AppContext, db: Transaction<DB>, scope: Scope, destination: Destination, amr: SignInMethod): Promise<Session> {
  const user = await findOrCreateUser(db, destination);
  const customerId = await customerForUser(db, scope, user.id, destination);
  await activateMembers(db, scope.tenantId, user.id, destination);
  await customerSignedIn(db, scope, { customerId, kind: destination.kind, value: destination.value });
  return startSession(ctx, db, scope, { userId: user.id, phone: user.phone, email: user.email, customerId }, amr);
}

/**
 * Checks a code. Wrong: one attempt and one failure are counted (in their own transaction, so they hold);
 * right: the challenge is consumed by one conditional update, so of two verifies of one code only one wins.
 */
export async function verifyCode(ctx: AppContext, scope: Scope, input: { phone?: string; email?: string; code: string }): Promise<Session> {
  const destination = destinationOf(input);
  const now = nowOf(ctx);
  await checkLock(ctx.db, destination.key, now);
  const challenge = await ctx.db
    .selectFrom('otp_challenges')
    .selectAll()
    .where('destination', '=', destination.key)
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('replaced_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!challenge || challenge.consumed_at) throw ApiError.of('otp_invalid');
  if (challenge.attempts >= OTP_LIMITS.attemptsPerCode) throw attemptsExceeded();
  const matches = timingSafeEqual(codeHmac(ctx, challenge.id, input.code), Buffer.from(challenge.code_hmac, 'hex'));
  if (!matches) {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('otp_challenges').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', challenge.id).execute();
      await trx.insertInto('otp_failures').values({ destination: destination.key, created_at: now }).execute();
    });
    throw ApiError.of(challenge.expires_at <= now ? 'otp_expired' : 'otp_invalid');
  }
  if (challenge.expires_at <= now) throw ApiError.of('otp_expired');
  const session = await ctx.db.transaction().execute(async (trx) => {
    const consumed = await trx
      .updateTable('otp_challenges')
      .set({ consumed_at: now })
      .where('id', '=', challenge.id)
      .where('consumed_at', 'is', null)
      .where('replaced_at', 'is', null)
      .where('attempts', '<', OTP_LIMITS.attemptsPerCode)
      .where('expires_at', '>', now)
      .returning('id')
      .executeTakeFirst();
    if (!consumed) return null;
    return signIn(ctx, trx, scope, destination, 'otp');
  });
  if (!session) throw ApiError.of('otp_invalid');
  return session;
}
