import { createHash, timingSafeEqual } from 'node:crypto';
import { API_KEY_TYPES, type ApiKeyType } from '@svc/contract';
import { randomToken } from '../ids';

const SECRET_LENGTH = 40;
const KEY_PATTERN = /^(sk|rk|pk)_(live|test)_([0-9A-Za-z]{40})$/;

/** A new full key, e.g. `sk_test_…`, with what is stored of it: its hash and the redacted form. */
export function generateApiKey(type: ApiKeyType, livemode: boolean) {
  const secret = `${API_KEY_TYPES[type]}_${livemode ? 'live' : 'test'}_${randomToken(SECRET_LENGTH)}`;
  return { secret, secretHash: hashSecret(secret), redacted: redact(secret) };
}

export function parseApiKey(secret: string): { type: ApiKeyType; livemode: boolean } | null {
  const m = KEY_PATTERN.exec(secret);
  if (!m) return null;
  const type = (Object.keys(API_KEY_TYPES) as ApiKeyType[]).find((t) => API_KEY_TYPES[t] === m[1])!;
  return { type, livemode: m[2] === 'live' };
}

/** Keys are 238 random bits, so a plain SHA-256 is as strong as a slow hash here and costs microseconds per request. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The key's type prefix and first 8 random characters: enough to recognise, useless to call with. */
export function redact(secret: string): string {
  const parts = secret.split('_');
  return `${parts[0]}_${parts[1]}_${parts[2]!.slice(0, 8)}…`;
}

/** Constant-time equality of two secrets of any length (compares their digests). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
