import { createHash, createPublicKey } from 'node:crypto';
import { sql } from 'kysely';
import type { CursorPageQuery, SigningKey } from '@svc/contract';
import { SIGNING_KEY_LIMITS } from '@svc/contract';
import type { PlaybackSigningKeyRow } from '../../../db/streams-live.schema';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { callNetwork } from '../network/video-networks';
import type { StreamsDeps } from '../streams-deps';
import * as repo from './signing-keys.repository';

/** SHA-256 of the public key's DER (SubjectPublicKeyInfo), hex: what the service keeps to recognise a key. */
export function fingerprintOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex');
}

export function serializeSigningKey(row: PlaybackSigningKeyRow, privateKey?: string): SigningKey {
  return {
    id: row.id,
    object: 'signing_key',
    livemode: row.livemode,
    key_id: row.id,
    status: row.revoked_at ? 'revoked' : 'active',
    fingerprint: row.fingerprint,
    created_at: new Date(row.created_at).toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    ...(privateKey !== undefined && { private_key: privateKey }),
  };
}

async function requireDedicatedEnvironment(deps: StreamsDeps, scope: Scope): Promise<void> {
  const tenant = await deps.db
    .selectFrom('tenants')
    .select('video_dedicated_environment')
    .where('id', '=', scope.tenantId)
    .executeTakeFirst();
  if (!tenant?.video_dedicated_environment) {
    throw ApiError.of('dedicated_environment_required', {
      message: 'Playback signing keys are available only to accounts with their own video environment; ask the operator.',
    });
  }
}

/**
 * A new RS256 key pair from the network. The private half goes back to the caller this once and is not
 * kept; the public half and its fingerprint stay, to verify the caller's tokens.
 */
export async function createSigningKey(deps: StreamsDeps, scope: Scope): Promise<SigningKey> {
  await requireDedicatedEnvironment(deps, scope);
  const max = SIGNING_KEY_LIMITS.maxActivePerEnvironment;
  const network = await deps.videoNetworks.forNewObject(deps.db, scope);
  // One creation at a time per tenant and environment, so concurrent requests cannot pass the limit.
  return deps.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`signing-keys:${scope.tenantId}:${scope.livemode}`}))`.execute(trx);
    if ((await repo.countActiveTenantKeys(trx, scope)) >= max) {
      throw ApiError.of('signing_key_limit_reached', { message: `At most ${max} active signing keys per environment; revoke one first.` });
    }
    const pair = await callNetwork(() => network.createSigningKey());
    const row = await repo.insertSigningKey(trx, scope, {
      id: newId('signing_key'),
      kind: 'tenant',
      provider: network.provider,
      provider_ref: pair.providerRef,
      public_key_pem: pair.publicKeyPem,
      fingerprint: fingerprintOf(pair.publicKeyPem),
      private_key_sealed: null,
      created_at: deps.now(),
    });
    return serializeSigningKey(row, pair.privateKeyPem);
  });
}

export async function listSigningKeys(deps: StreamsDeps, scope: Scope, page: CursorPageQuery) {
  const result = await repo.listTenantSigningKeys(deps.db, scope, page);
  return { ...result, data: result.data.map((r) => serializeSigningKey(r)) };
}

/** Final and idempotent: tokens signed with the key are refused from the next request on. */
export async function revokeSigningKey(deps: StreamsDeps, scope: Scope, id: string): Promise<SigningKey> {
  const row = isIdOf('signing_key', id) ? await repo.findTenantSigningKey(deps.db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('signing key', id);
  if (row.revoked_at) return serializeSigningKey(row);
  // The network first: if it fails the key stays active here and a retry tries again; deleting twice is harmless.
  await callNetwork(() => deps.videoNetworks.byProvider(row.provider).deleteSigningKey(row.provider_ref));
  const revoked = await repo.revokeSigningKeyRow(deps.db, scope, id, deps.now());
  return serializeSigningKey(revoked ?? (await repo.findTenantSigningKey(deps.db, scope, id))!);
}
