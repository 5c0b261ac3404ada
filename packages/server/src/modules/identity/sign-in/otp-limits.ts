import { sql } from 'kysely';
import type { Executor } from '../../../db/database';
import { ApiError } from '../../../core/errors';

export const OTP_LIMITS = {
  phoneTtlMs: 5 * 60_000,
  emailTtlMs: 10 * 60_000,
  linkTtlMs: 15 * 60_000,
  resendAfterMs: 60_000,
  perDestinationPerHour: 5,
  perIpPerHour: 30,
  attemptsPerCode: 5,
  failuresBeforeLock: 10,
  hourMs: 3600_000,
};

const retryAfter = (code: 'rate_limited' | 'otp_attempts_exceeded', ms: number, message: string) =>
  ApiError.of(code, { message, headers: { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) } });

/** Serialises sends and verifies of one destination across processes, for the rest of the transaction. */
export async function lockDestination(db: Executor, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`otp:${key}`}))`.execute(db);
}

/** One send per destination per 60 s and 5 per hour; 30 per IP per hour: else `429 rate_limited` with `Retry-After`. */
export async function checkSendLimits(db: Executor, destination: string, ip: string, now: Date): Promise<void> {
  const hourAgo = new Date(now.getTime() - OTP_LIMITS.hourMs);
  const sends = await db
    .selectFrom('otp_challenges')
    .select('created_at')
    .where('destination', '=', destination)
    .where('created_at', '>', hourAgo)
    .orderBy('created_at', 'asc')
    .execute();
  const last = sends.at(-1);
  if (last && now.getTime() - last.created_at.getTime() < OTP_LIMITS.resendAfterMs) {
    throw retryAfter('rate_limited', last.created_at.getTime() + OTP_LIMITS.resendAfterMs - now.getTime(), 'A code was sent to this destination less than 60 seconds ago.');
  }
  if (sends.length >= OTP_LIMITS.perDestinationPerHour) {
    throw retryAfter('rate_limited', sends[0]!.created_at.getTime() + OTP_LIMITS.hourMs - now.getTime(), 'At most 5 codes per hour go to one destination.');
  }
  const fromIp = await db
    .selectFrom('otp_challenges')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('created_at').as('first')])
    .where('ip', '=', ip)
    .where('created_at', '>', hourAgo)
    .executeTakeFirstOrThrow();
  if (Number(fromIp.n) >= OTP_LIMITS.perIpPerHour) {
    const first = new Date(fromIp.first as unknown as string | Date);
    throw retryAfter('rate_limited', first.getTime() + OTP_LIMITS.hourMs - now.getTime(), 'At most 30 codes per hour are sent for one client address.');
  }
}

/** Ten failures in an hour lock the destination for an hour (a resend does not reset the count). */
export async function checkLock(db: Executor, destination: string, now: Date): Promise<void> {
  const failures = await db
    .selectFrom('otp_failures')
    .select('created_at')
    .where('destination', '=', destination)
    .where('created_at', '>', new Date(now.getTime() - OTP_LIMITS.hourMs))
    .orderBy('created_at', 'desc')
    .limit(OTP_LIMITS.failuresBeforeLock)
    .execute();
  if (failures.length >= OTP_LIMITS.failuresBeforeLock) {
    const unlockAt = failures[0]!.created_at.getTime() + OTP_LIMITS.hourMs;
    throw retryAfter('otp_attempts_exceeded', unlockAt - now.getTime(), 'Too many wrong codes: this destination is locked for an hour.');
  }
}

export const attemptsExceeded = () =>
  ApiError.of('otp_attempts_exceeded', { message: 'Five wrong codes: this code is burnt; request a new one.' });
