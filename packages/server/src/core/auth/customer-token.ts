import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { ACCESS_LIMITS, isWellFormedText } from '@svc/contract';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { isIdOf } from '../ids';
import type { Principal } from '../principal';
import type { Scope } from '../scope';
import type { CustomerTokenKeyMaterial } from './customer-token-keys';

/** The spec's `details.reason` values of `401 invalid_customer_token`. */
export type CustomerTokenFailure =
  | 'missing'
  | 'malformed'
  | 'unknown_key'
  | 'key_revoked'
  | 'invalid_signature'
  | 'not_yet_valid'
  | 'token_expired'
  | 'invalid_claims';

export interface VerifiedCustomerToken {
  customer: string;
  /** The `ctry` claim, upper case, or `null`. */
  country: string | null;
  keyId: string;
}

const { maxLifetimeSeconds, maxAheadSeconds, clockSkewSeconds, subMaxLength, audience } = ACCESS_LIMITS.customerToken;

export const refuseCustomerToken = (reason: CustomerTokenFailure, message: string) =>
  ApiError.of('invalid_customer_token', { message, details: { reason } });

/** Reads `kid` from a three-part HS256 token, or refuses it as `malformed`. */
function keyIdOf(token: string): string {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) {
    throw refuseCustomerToken('malformed', 'The customer token is not a three-part JWT.');
  }
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw refuseCustomerToken('malformed', 'The customer token\'s header cannot be read.');
  }
  if (header.alg !== 'HS256') {
    throw refuseCustomerToken('malformed', `The customer token must be signed with HS256, not ${String(header.alg)}.`);
  }
  if (typeof header.kid !== 'string' || header.kid.length === 0) {
    throw refuseCustomerToken('malformed', 'The customer token has no `kid` header.');
  }
  return header.kid;
}

/** jose's failures in the spec's words; the signature is checked before any claim. */
function reasonOf(err: unknown): [CustomerTokenFailure, string] {
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return ['invalid_signature', 'The customer token\'s signature does not match its key.'];
  if (err instanceof joseErrors.JWTExpired) return ['token_expired', 'The customer token has expired.'];
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf' && err.reason === 'check_failed') return ['not_yet_valid', 'The customer token is not valid yet (`nbf`).'];
    return ['invalid_claims', `The customer token's \`${err.claim}\` claim is missing or wrong.`];
  }
  return ['malformed', 'The customer token cannot be read.'];
}

/** The rules jose leaves to us: `aud` exactly ours, `exp` after `iat`, `sub` length, `iat` not ahead, lifetime and horizon at most 15 minutes, `ctry`. */
function checkClaims(payload: JWTPayload, nowSeconds: number): { customer: string; country: string | null } {
  const { sub, iat, exp } = payload;
  // U+0000 and lone surrogates cannot be stored as text, and `sub` becomes the customer of sessions and entitlement lookups.
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > subMaxLength || sub.includes('\0') || !isWellFormedText(sub)) {
    throw refuseCustomerToken('invalid_claims', `The customer token's \`sub\` must be 1 to ${subMaxLength} characters of well-formed text, without U+0000.`);
  }
  if (typeof iat !== 'number' || typeof exp !== 'number') {
    throw refuseCustomerToken('invalid_claims', 'The customer token needs numeric `iat` and `exp`.');
  }
  // jose takes an `aud` array that merely includes ours; a token meant for others too is not ours alone.
  const aud = payload.aud;
  const audList = Array.isArray(aud) ? aud : [aud];
  if (audList.length === 0 || audList.some((a) => a !== audience)) {
    throw refuseCustomerToken('invalid_claims', `The customer token's \`aud\` must be exactly \`${audience}\`.`);
  }
  if (exp <= iat) throw refuseCustomerToken('invalid_claims', 'The customer token\'s `exp` must be after its `iat`.');
  if (iat > nowSeconds + clockSkewSeconds) throw refuseCustomerToken('not_yet_valid', 'The customer token\'s `iat` is in the future.');
  if (exp - iat > maxLifetimeSeconds) {
    throw refuseCustomerToken('invalid_claims', 'The customer token lives longer than 15 minutes (`exp` - `iat`).');
  }
  if (exp > nowSeconds + maxAheadSeconds + clockSkewSeconds) {
    throw refuseCustomerToken('invalid_claims', 'The customer token\'s `exp` is more than 15 minutes ahead.');
  }
  const ctry = payload.ctry;
  if (ctry !== undefined && (typeof ctry !== 'string' || !/^[A-Za-z]{2}$/.test(ctry))) {
    throw refuseCustomerToken('invalid_claims', 'The customer token\'s `ctry` must be a two-letter country code.');
  }
  return { customer: sub, country: typeof ctry === 'string' ? ctry.toUpperCase() : null };
}

/**
 * Verifies a customer token for a publishable key's tenant and environment, as the spec's table says: HS256
 * only, `kid` a key of this scope that is not revoked, a matching signature, `aud` `svc`, `sub`, `iat` and
 * `exp` required, at most 15 minutes of lifetime and of horizon, 60 seconds of clock skew. Throws
 * `401 invalid_customer_token` with `details.reason`.
 */
export async function verifyCustomerToken(
  token: string | undefined,
  scope: Scope,
  loadKey: (id: string) => Promise<CustomerTokenKeyMaterial | undefined>,
  now: Date,
): Promise<VerifiedCustomerToken> {
  if (token === undefined) {
    throw refuseCustomerToken('missing', 'Send the customer token as `Authorization: Bearer <token>` beside the publishable key.');
  }
  const kid = keyIdOf(token);
  const key = isIdOf('customer_token_key', kid) ? await loadKey(kid) : undefined;
  if (!key || key.tenantId !== scope.tenantId || key.livemode !== scope.livemode) {
    throw refuseCustomerToken('unknown_key', 'The customer token\'s `kid` is not a customer token key of this account and environment.');
  }
  if (key.revokedAt) throw refuseCustomerToken('key_revoked', 'The customer token was signed with a revoked key.');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  let payload = stillValid(verifiedTokens.get(token), nowSeconds);
  if (!payload) {
    try {
      ({ payload } = await jwtVerify(token, key.secret, {
        algorithms: ['HS256'],
        audience,
        requiredClaims: ['sub', 'iat', 'exp'],
        clockTolerance: clockSkewSeconds,
        currentDate: now,
      }));
    } catch (err) {
      const [reason, message] = reasonOf(err);
      throw refuseCustomerToken(reason, message);
    }
    if (verifiedTokens.size >= MAX_VERIFIED_TOKENS) verifiedTokens.delete(verifiedTokens.keys().next().value!);
    verifiedTokens.set(token, payload);
  }
  return { ...checkClaims(payload, nowSeconds), keyId: key.id };
}

/**
 * Tokens whose signature and static claims jose accepted, with their claims. A browser sends the same token
 * with every heartbeat for up to 15 minutes; its signature cannot change (nor can its key's secret, only the
 * key's revocation, checked before this on every request), so it is checked once. The checks that depend on
 * the time are made again each time, here and in `checkClaims`.
 */
const verifiedTokens = new Map<string, JWTPayload>();
const MAX_VERIFIED_TOKENS = 20_000;

/** A remembered token's claims if `exp` and `nbf` still hold as jose checks them; else it goes through jose again. */
function stillValid(payload: JWTPayload | undefined, nowSeconds: number): JWTPayload | undefined {
  if (!payload || typeof payload.exp !== 'number' || payload.exp <= nowSeconds - clockSkewSeconds) return undefined;
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > nowSeconds + clockSkewSeconds)) return undefined;
  return payload;
}

type PublishablePrincipal = Extract<Principal, { kind: 'publishable' }>;
export type CustomerPrincipal = Extract<Principal, { kind: 'customer' }>;

/** The viewer behind a publishable key: the key's tenant and environment, the token's `sub` and `ctry`. */
export async function customerPrincipal(ctx: AppContext, principal: PublishablePrincipal, token: string | undefined): Promise<CustomerPrincipal> {
  const verified = await verifyCustomerToken(
    token,
    principal.scope,
    (id) => ctx.customerTokenKeys.load(ctx.db, ctx.secrets, id),
    ctx.clock ? ctx.clock() : new Date(),
  );
  const { key, tenant, scope } = principal;
  return { kind: 'customer', key, tenant, scope, customer: verified.customer, country: verified.country, tokenKeyId: verified.keyId };
}
