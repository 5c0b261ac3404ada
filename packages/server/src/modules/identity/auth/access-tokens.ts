import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Principal } from '../../../core/principal';
import { resolveTenant } from '../tenancy/resolve-tenant';
import { ACCESS_TOKEN_ALG, currentSigningKey, verificationKey } from './signing-keys';
import { sessionState } from './session-state';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const ACCESS_TOKEN_AUDIENCE = 'svc';
export type SignInMethod = 'otp' | 'magic_link' | 'oidc';
export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

export const issuerOf = (ctx: AppContext) => `${ctx.config.baseUrl}/auth/v1`;
const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());

export interface AccessTokenClaims {
  userId: string;
  tenantId: string;
  customerId: string;
  livemode: boolean;
  sessionId: string;
  amr: SignInMethod;
}

/** An ES256 access token: `kid` in the header; `iss`, `aud`, `sub`, `tid`, `cus`, `livemode`, `sid`, `iat`, `exp`, `jti`, `amr`. */
export async function signAccessToken(ctx: AppContext, claims: AccessTokenClaims) {
  const { kid, key } = await currentSigningKey(ctx);
  const iat = Math.floor(nowOf(ctx).getTime() / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({ tid: claims.tenantId, cus: claims.customerId, livemode: claims.livemode, sid: claims.sessionId, amr: [claims.amr] })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid, typ: 'JWT' })
    .setIssuer(issuerOf(ctx))
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setSubject(claims.userId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(key);
  return { token, exp };
}

export const refuseAccessToken = (reason: string, message: string) =>
  ApiError.of('invalid_access_token', { message, details: { reason } });

/**
 * A bearer that claims to be an access token: three base64url parts whose header says ES256. Anything else
 * (an API key, a customer token sent without its publishable key, `alg: none`) goes on to the key rules and
 * is refused there.
 */
export function looksLikeAccessToken(value: string): boolean {
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(value)) return false;
  try {
    return decodeProtectedHeader(value).alg === ACCESS_TOKEN_ALG;
  } catch {
    return false;
  }
}

function kidOf(token: string): string {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw refuseAccessToken('malformed', 'The access token\'s header cannot be read.');
  }
  // Only ES256: `none`, HS256 (a public key used as an HMAC secret) and every other algorithm are refused here.
  if (header.alg !== ACCESS_TOKEN_ALG) throw refuseAccessToken('malformed', `Access tokens are signed with ES256, not ${String(header.alg)}.`);
  if (typeof header.kid !== 'string' || !isIdOf('identity_signing_key', header.kid)) {
    throw refuseAccessToken('unknown_key', 'The access token\'s `kid` is not a signing key of this service.');
  }
  return header.kid;
}

const CLOCK_TOLERANCE_SECONDS = 5;
const MAX_VERIFIED_TOKENS = 20_000;

/** A token jose accepted: the key id its header names and its claims. */
interface VerifiedToken {
  kid: string;
  payload: JWTPayload;
}

/**
 * Tokens whose ES256 signature and static claims jose accepted, with their key id and claims, per server. A
 * signed-in dashboard sends the same token with every request for up to 15 minutes and neither its header nor its
 * signature can change, so it is decoded and verified once. The key (a revocation), the session (a logout) and the
 * time are checked on every request.
 */
const verifiedTokens = new WeakMap<AppContext, Map<string, VerifiedToken>>();
function verifiedTokensOf(ctx: AppContext): Map<string, VerifiedToken> {
  let map = verifiedTokens.get(ctx);
  if (!map) verifiedTokens.set(ctx, (map = new Map()));
  return map;
}

/** A remembered token's claims while `exp` (and `nbf`, if any) still hold as jose checks them; else undefined. */
function stillValid(payload: JWTPayload | undefined, now: Date): JWTPayload | undefined {
  const seconds = Math.floor(now.getTime() / 1000);
  if (!payload || typeof payload.exp !== 'number' || payload.exp <= seconds - CLOCK_TOLERANCE_SECONDS) return undefined;
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > seconds + CLOCK_TOLERANCE_SECONDS)) return undefined;
  return payload;
}

/**
 * Verifies an identity access token and answers the signed-in person as a principal: ES256 with a known,
 * unrevoked key, this issuer, audience `svc`, not expired, and a session that has not ended (a logout is
 * refused at once on every process). The token's `tid` decides the tenant and `livemode` the environment.
 */
export async function resolveAccessToken(ctx: AppContext, token: string): Promise<UserPrincipal> {
  const verified = verifiedTokensOf(ctx);
  const known = verified.get(token);
  const kid = known?.kid ?? kidOf(token);
  const key = await verificationKey(ctx, kid);
  if (!key) throw refuseAccessToken('unknown_key', 'The access token was signed with a key that is unknown or revoked.');
  const now = nowOf(ctx);
  let payload = stillValid(known?.payload, now);
  if (!payload) {
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: [ACCESS_TOKEN_ALG],
        issuer: issuerOf(ctx),
        audience: ACCESS_TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'exp', 'iat', 'tid', 'cus', 'sid'],
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw refuseAccessToken('token_expired', 'The access token has expired; refresh the session.');
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) throw refuseAccessToken('invalid_signature', 'The access token\'s signature does not match its key.');
      if (err instanceof joseErrors.JWTClaimValidationFailed) throw refuseAccessToken('invalid_claims', `The access token's \`${err.claim}\` claim is missing or wrong.`);
      throw refuseAccessToken('malformed', 'The access token cannot be read.');
    }
    if (verified.size >= MAX_VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
    verified.set(token, { kid, payload });
  }
  const { sub, tid, cus, sid, livemode } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || typeof tid !== 'string' || typeof cus !== 'string' || typeof sid !== 'string' || typeof livemode !== 'boolean') {
    throw refuseAccessToken('invalid_claims', 'The access token\'s claims are malformed.');
  }
  const session = await sessionState(ctx, sid);
  if (!session || session.endedAt || session.tenantId !== tid || session.userId !== sub) {
    throw refuseAccessToken('session_ended', 'The session of this access token has ended; sign in again.');
  }
  const tenant = await resolveTenant(ctx, tid);
  return {
    kind: 'user',
    tenant: { id: tenant.id, products: tenant.products, rateLimits: tenant.rateLimits },
    scope: { tenantId: tid, livemode },
    userId: sub,
    customerId: cus,
    sessionId: sid,
  };
}
