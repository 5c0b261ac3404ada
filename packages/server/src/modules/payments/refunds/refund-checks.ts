const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * How long an M-Pesa reversal may stay without a result before it is `failed`: Daraja settles reversals in
 * minutes, so three days of silence, with Transaction Status asked hourly, means no answer will come.
 */
export const REVERSAL_GIVE_UP_AFTER_MS = 72 * HOUR;

/**
 * When reconciliation next asks about a refund still pending at a provider. An M-Pesa reversal waits for its
 * result callback and is first asked about with Transaction Status after an hour, then hourly (products-api
 * § 1.7). Providers with a status call are asked after 1 minute, then every 5 minutes for the first hour,
 * every 30 minutes for the first day and every 2 hours after that; they decide when a refund ends.
 */
export function nextRefundCheckAt(provider: string | null, createdAt: Date, now: Date): Date {
  const age = now.getTime() - createdAt.getTime();
  if (provider === 'mpesa') return new Date(Math.max(createdAt.getTime() + HOUR, now.getTime() + HOUR));
  const wait = age < 10 * MINUTE ? MINUTE : age < HOUR ? 5 * MINUTE : age < 24 * HOUR ? 30 * MINUTE : 2 * HOUR;
  return new Date(now.getTime() + wait);
}
