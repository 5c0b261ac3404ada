import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Executor } from '../../../db/database';
import type { PlaybackIdRow, PlaybackSigningKeyRow } from '../../../db/streams-live.schema';
import { ApiError } from '../../../core/errors';
import { InFlight } from '../../../core/in-flight';
import type { Scope } from '../../../core/scope';
import { findOrMakeSystemKey, findSigningKeyRow, privateKeyContext } from '../signing-keys/system-keys.service';
import type { StreamsDeps } from '../streams-deps';

/** The `aud` of every playback token (video). */
export const PLAYBACK_AUDIENCE = 'v';

export type PlaybackTokenFailure =
  | 'missing'
  | 'malformed'
  | 'unknown_key'
  | 'key_revoked'
  | 'invalid_signature'
  | 'token_expired'
  | 'invalid_claims';

const refuse = (reason: PlaybackTokenFailure, message: string) =>
  ApiError.of('invalid_playback_token', { message, details: { reason }, param: 'token' });

// Key material never changes for a key id, so parsed keys are kept; revocation is read from the row every time.
const parsedPrivate = new Map<string, KeyObject>();
const parsedPublic = new Map<string, KeyObject>();

// Nothing revokes or replaces a system key once made, so each process keeps the one per scope and network.
const systemKeys = new Map<string, PlaybackSigningKeyRow>();
const MAX_CACHED = 10_000;

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  // Maps iterate in insertion order: drop the oldest entry.
  if (map.size >= MAX_CACHED) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/** Keys being looked up or made, by scope and network: requests arriving meanwhile wait for the same one. */
const pendingSystemKeys = new InFlight<PlaybackSigningKeyRow>();

/**
 * The service's own signing key for the scope and network, made on first use. Within a process the first
 * request makes it and the others arriving meanwhile wait for it (a show's first viewers would otherwise each
 * generate an RSA key pair); across processes, two makers meet at the unique index and the loser reads the
 * winner's key.
 */
async function systemKey(deps: StreamsDeps, scope: Scope, provider: string): Promise<PlaybackSigningKeyRow> {
  const cacheKey = `${scope.tenantId}:${scope.livemode}:${provider}`;
  const known = systemKeys.get(cacheKey);
  if (known) return known;
  const key = await pendingSystemKeys.run(cacheKey, () => findOrMakeSystemKey(deps, scope, provider));
  return remember(systemKeys, cacheKey, key);
}

/**
 * The last token made per key and playback id. RS256 (PKCS#1 v1.5) signatures are deterministic and the
 * claims are whole seconds, so every link for one playback id within the same second is the same token:
 * 3,000 viewers of one stream heartbeating each second cost one signature a second, not 3,000.
 */
const lastTokens = new Map<string, { iat: number; exp: number; token: string }>();

/** An RS256 playback token for `playbackId`: header `kid`, claims `sub` = playback id, `aud` = `v`, `iat`, `exp`. */
export async function signPlaybackToken(
  deps: StreamsDeps,
  scope: Scope,
  provider: string,
  playbackId: string,
  expiresAt: Date,
): Promise<string> {
  const key = await systemKey(deps, scope, provider);
  const iat = Math.floor(deps.now().getTime() / 1000);
  const exp = Math.floor(expiresAt.getTime() / 1000);
  const memoKey = `${key.id}:${playbackId}`;
  const last = lastTokens.get(memoKey);
  if (last && last.iat === iat && last.exp === exp) return last.token;
  let privateKey = parsedPrivate.get(key.id);
  if (!privateKey) {
    privateKey = createPrivateKey(deps.secrets.decrypt(key.private_key_sealed!, privateKeyContext(key.id)));
    parsedPrivate.set(key.id, privateKey);
  }
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: key.id, typ: 'JWT' })
    .setSubject(playbackId)
    .setAudience(PLAYBACK_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(privateKey);
  lastTokens.delete(memoKey);
  remember(lastTokens, memoKey, { iat, exp, token });
  return token;
}

/**
 * Checks a playback token against the playback id it is used for: RS256 with a `kid` naming a key (the
 * service's or the tenant's own) of the playback id's tenant and environment that is not revoked, a valid
 * signature, `aud` = `v`, `sub` = the playback id and an `exp` not yet passed. Throws `401 invalid_playback_token`.
 */
export async function verifyPlaybackToken(db: Executor, playback: PlaybackIdRow, token: string | undefined, now: Date): Promise<void> {
  if (!token) throw refuse('missing', 'This playback id is signed: add the playback token as `token`.');
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'RS256') throw new Error('alg');
    kid = header.kid;
  } catch {
    throw refuse('malformed', 'The playback token is not an RS256 JWT.');
  }
  if (!kid) throw refuse('malformed', 'The playback token has no `kid` header.');
  const scope = { tenantId: playback.tenant_id, livemode: playback.livemode };
  const key = await findSigningKeyRow(db, scope, kid);
  if (!key) throw refuse('unknown_key', 'The playback token\'s `kid` is not a signing key of this account and environment.');
  if (key.revoked_at) throw refuse('key_revoked', 'The playback token was signed with a revoked key.');
  let publicKey = parsedPublic.get(key.id);
  if (!publicKey) {
    publicKey = createPublicKey(key.public_key_pem);
    parsedPublic.set(key.id, publicKey);
  }
  try {
    await jwtVerify(token, publicKey, {
      algorithms: ['RS256'],
      audience: PLAYBACK_AUDIENCE,
      subject: playback.id,
      requiredClaims: ['exp', 'sub', 'aud'],
      currentDate: now,
    });
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw refuse('token_expired', 'The playback token has expired.');
    if (err instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw refuse('invalid_signature', 'The playback token\'s signature does not match its key.');
    }
    if (err instanceof joseErrors.JWTClaimValidationFailed) {
      throw refuse('invalid_claims', `The playback token's \`${err.claim}\` claim is wrong for this playback id.`);
    }
    throw refuse('malformed', 'The playback token cannot be read.');
  }
}
