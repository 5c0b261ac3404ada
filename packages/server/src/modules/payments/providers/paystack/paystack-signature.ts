import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Whether `x-paystack-signature` is the hex HMAC-SHA512 of the raw body keyed with the secret key,
 * compared in constant time. Paystack signs no timestamp: a replayed notice verifies, and is stopped by the
 * inbox's uniqueness, not here.
 */
export function verifyPaystackSignature(rawBody: Buffer | string, signature: string | string[] | undefined, secretKey: string): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = createHmac('sha512', secretKey).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/** The signature Paystack would send for a body (the fake and tests sign with it). */
export const paystackSignature = (rawBody: Buffer | string, secretKey: string) => createHmac('sha512', secretKey).update(rawBody).digest('hex');
