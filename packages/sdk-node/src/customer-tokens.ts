import { SignJWT } from 'jose';

export interface SignCustomerTokenArgs {
  /** The customer token key's id (`ctk_…`), sent as the JWT `kid`. */
  keyId: string;
  /** Its secret (`cts_…`), shown once when the key was created. */
  secret: string;
  /** Your id for the viewer, 1 to 255 characters; it must equal the entitlement's `customer`. */
  sub: string;
  /** Two-letter country code, checked against `allowed_countries`. */
  ctry?: string;
  /** Lifetime, at most 900 (15 minutes); default 600. */
  ttlSeconds?: number;
}

const MAX_TTL_SECONDS = 900;

/** Signs a customer token for a viewer's browser: HS256, `kid`, `aud: "svc"`, `iat`, `exp`, optional `ctry`. */
export async function signCustomerToken(args: SignCustomerTokenArgs): Promise<string> {
  const ttl = args.ttlSeconds ?? 600;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_SECONDS) throw new RangeError('ttlSeconds must be an integer from 1 to 900');
  if (!args.sub || args.sub.length > 255) throw new RangeError('sub must be 1 to 255 characters');
  if (!args.keyId.startsWith('ctk_')) throw new TypeError('keyId must be a customer token key id (ctk_…)');
  if (!args.secret.startsWith('cts_')) throw new TypeError('secret must be a customer token key secret (cts_…)');
  if (args.ctry !== undefined && !/^[A-Z]{2}$/.test(args.ctry)) throw new TypeError('ctry must be a two-letter country code, e.g. "KE"');
  const now = Math.floor(Date.now() / 1000);
  const claims = args.ctry ? { ctry: args.ctry } : {};
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', kid: args.keyId, typ: 'JWT' })
    .setSubject(args.sub)
    .setAudience('svc')
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .sign(new TextEncoder().encode(args.secret));
}
