import type { webcrypto } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { newId } from '../../../core/ids';
import type { Executor } from '../../../db/database';
import { notifyIdentity } from '../identity-caches';
import { cachesOf } from '../identity-parts';

export const ACCESS_TOKEN_ALG = 'ES256';
const sealContext = (kid: string) => `${kid}:identity_signing_key`;

async function newKeyRow(ctx: AppContext, status: 'standby' | 'current') {
  const id = newId('identity_signing_key');
  const { publicKey, privateKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: id, alg: ACCESS_TOKEN_ALG, use: 'sig' };
  const privateJwk = await exportJWK(privateKey);
  return {
    id,
    status,
    public_jwk: JSON.stringify(publicJwk),
    private_sealed: ctx.secrets.encrypt(JSON.stringify(privateJwk), sealContext(id)),
  };
}

/** Serialises key changes across processes (the first sign-in, rotations). */
const lock = (db: Executor) =>
  sql`select pg_advisory_xact_lock(hashtext('identity_signing_keys'))`.execute(db);

/** A current key and a standby exist; made once, by whichever process signs first. */
async function ensureKeys(ctx: AppContext): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await lock(trx);
    const rows = await trx.selectFrom('identity_signing_keys').select(['status']).where('status', 'in', ['current', 'standby']).execute();
    if (!rows.some((r) => r.status === 'current')) await trx.insertInto('identity_signing_keys').values(await newKeyRow(ctx, 'current')).execute();
    if (!rows.some((r) => r.status === 'standby')) await trx.insertInto('identity_signing_keys').values(await newKeyRow(ctx, 'standby')).execute();
  });
}

const signers = new WeakMap<object, { kid: string; key: webcrypto.CryptoKey; generation: number }>();

/** The current private key; re-read after any rotation (the keys notification bumps the cache's generation). */
export async function currentSigningKey(ctx: AppContext): Promise<{ kid: string; key: webcrypto.CryptoKey }> {
  const generation = cachesOf(ctx).signingKeys.generation;
  const signer = signers.get(cachesOf(ctx));
  if (signer && signer.generation === generation) return signer;
  let row = await ctx.db.selectFrom('identity_signing_keys').select(['id', 'private_sealed']).where('status', '=', 'current').executeTakeFirst();
  if (!row) {
    await ensureKeys(ctx);
    row = await ctx.db.selectFrom('identity_signing_keys').select(['id', 'private_sealed']).where('status', '=', 'current').executeTakeFirstOrThrow();
  }
  const jwk = JSON.parse(ctx.secrets.decrypt(row.private_sealed, sealContext(row.id))) as JWK;
  const key = (await importJWK(jwk, ACCESS_TOKEN_ALG)) as webcrypto.CryptoKey;
  signers.set(cachesOf(ctx), { kid: row.id, key, generation });
  return { kid: row.id, key };
}

/** The public key of `kid` if tokens signed with it are still accepted (current, previous or standby). */
export async function verificationKey(ctx: AppContext, kid: string): Promise<webcrypto.CryptoKey | null> {
  const cached = cachesOf(ctx).signingKeys.get(kid);
  if (cached !== undefined) return cached;
  const readAt = cachesOf(ctx).signingKeys.generation;
  const row = await ctx.db.selectFrom('identity_signing_keys').select(['public_jwk', 'status']).where('id', '=', kid).executeTakeFirst();
  const key = row && row.status !== 'revoked' ? ((await importJWK(row.public_jwk as JWK, ACCESS_TOKEN_ALG)) as webcrypto.CryptoKey) : null;
  cachesOf(ctx).signingKeys.set(kid, key, readAt);
  return key;
}

/** The JWK set: every key whose tokens are accepted, the standby included so verifiers know it before it signs. */
export async function publicJwks(ctx: AppContext): Promise<{ keys: Record<string, string>[] }> {
  await currentSigningKey(ctx);
  const rows = await ctx.db
    .selectFrom('identity_signing_keys')
    .select(['public_jwk'])
    .where('status', 'in', ['current', 'previous', 'standby'])
    .orderBy('id', 'desc')
    .execute();
  return { keys: rows.map((r) => r.public_jwk) };
}

/**
 * Rotates without downtime: the standby (already published) starts signing, the current key stays valid as
 * previous until its tokens have expired, the old previous is revoked, and a new standby is made.
 */
export async function rotateSigningKeys(ctx: AppContext): Promise<{ current: string }> {
  await ensureKeys(ctx);
  const current = await ctx.db.transaction().execute(async (trx) => {
    await lock(trx);
    const now = new Date();
    await trx.updateTable('identity_signing_keys').set({ status: 'revoked', updated_at: now }).where('status', '=', 'previous').execute();
    await trx.updateTable('identity_signing_keys').set({ status: 'previous', updated_at: now }).where('status', '=', 'current').execute();
    const promoted = await trx
      .updateTable('identity_signing_keys')
      .set({ status: 'current', updated_at: now })
      .where('status', '=', 'standby')
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('identity_signing_keys').values(await newKeyRow(ctx, 'standby')).execute();
    await notifyIdentity(trx, ['keys:']);
    return promoted.id;
  });
  cachesOf(ctx).signingKeys.forget();
  return { current };
}
