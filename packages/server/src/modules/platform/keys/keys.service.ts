import type { ApiKey, ApiKeyType, CreateApiKeySchema, Scope as ScopeName } from '@svc/contract';
import type { z } from 'zod';
import type { Database, Executor } from '../../../db/database';
import type { ApiKeyRow } from '../../../db/schema';
import { generateApiKey } from '../../../core/auth/api-key-secret';
import { hasScope } from '../../../core/auth/authenticate';
import { notifyCredentialsChanged } from '../../../core/auth/credential-cache';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { expand, type ExpandSpec } from '../../../core/expand';
import { isIdOf, newId } from '../../../core/ids';
import type { KeyPrincipal, UserPrincipal } from '../../../core/principal';

/** Who manages keys: a key, or a member signed in to the console whose role grants `developers:write`. */
type KeyManager = KeyPrincipal | UserPrincipal;

/** The key that made a key, or `null` when a member or the operator did. */
const creatorOf = (principal: KeyManager) => ('key' in principal ? principal.key.id : null);
import type { Scope } from '../../../core/scope';
import * as repo from './keys.repository';
import { keyStatus, serializeKey } from './keys.serializer';

type CreateKeyInput = z.infer<typeof CreateApiKeySchema>;

/** What may be inlined with `expand[]` on a key: the key that created it, and that key's creator. */
export function keyExpandSpec(db: Executor, scope: Scope): ExpandSpec {
  return {
    created_by: {
      load: async (ids) => new Map((await repo.findKeys(db, scope, ids)).map((r) => [r.id, serializeKey(r)])),
      nested: () => keyExpandSpec(db, scope),
    },
  };
}

/** Checks `expand[]` paths before a single read loads anything, so a bad path is a `400` even for a missing key. */
export async function checkKeyExpand(db: Executor, scope: Scope, paths: string[] | undefined): Promise<void> {
  await expand([], paths, keyExpandSpec(db, scope));
}

export async function expandKeys(db: Executor, scope: Scope, keys: ApiKey[], paths: string[] | undefined) {
  return expand(keys, paths, keyExpandSpec(db, scope));
}

/** A restricted key may hand out only what it holds: restricted keys within its scopes, or publishable keys. */
function checkGrantable(principal: KeyManager, type: ApiKeyType, scopes: readonly ScopeName[] | undefined): void {
  if (principal.kind !== 'restricted' || type === 'publishable') return;
  const held = principal.key.scopes ?? [];
  const beyond = type === 'secret' ? ['every scope'] : (scopes ?? []).filter((s) => !hasScope(held, s));
  if (beyond.length > 0) {
    throw ApiError.of('missing_scope', {
      message: `A restricted key cannot create a key with ${beyond.join(', ')}.`,
      param: type === 'secret' ? 'type' : 'scopes',
    });
  }
}

function validateShape(input: CreateKeyInput): void {
  if (input.type === 'restricted' && !input.scopes) {
    throw ApiError.of('validation_failed', { param: 'scopes', details: { scopes: ['Required for a restricted key.'] } });
  }
  if (input.type !== 'restricted' && input.scopes) {
    throw ApiError.of('validation_failed', { param: 'scopes', details: { scopes: ['Only restricted keys take scopes.'] } });
  }
  if (input.expires_at && new Date(input.expires_at).getTime() <= Date.now()) {
    throw ApiError.of('validation_failed', { param: 'expires_at', details: { expires_at: ['Must be in the future.'] } });
  }
}

async function insertNewKey(db: Executor, scope: Scope, fields: Omit<repo.NewKey, 'id' | 'secret_hash' | 'redacted'>) {
  const { secret, secretHash, redacted } = generateApiKey(fields.type, scope.livemode);
  try {
    const row = await repo.insertKey(db, scope, { ...fields, id: newId('api_key'), secret_hash: secretHash, redacted });
    return { row, secret };
  } catch (err) {
    if (isUniqueViolation(err, 'api_keys_external_id')) {
      throw ApiError.of('external_id_taken', { param: 'external_id' });
    }
    throw err;
  }
}

/**
 * A restricted key's limits travel with what it creates: a key made by it is confined to the creator's IP
 * allowlist and ends no later than the creator does, so a narrow key cannot mint itself a freer one.
 */
function inheritedLimits(principal: KeyManager, input: CreateKeyInput) {
  const requestedExpiry = input.expires_at ? new Date(input.expires_at) : null;
  if (principal.kind !== 'restricted') return { ip_allowlist: input.ip_allowlist ?? null, expires_at: requestedExpiry };
  const { ipAllowlist, expiresAt } = principal.key;
  if (ipAllowlist && input.ip_allowlist?.some((entry) => !ipAllowlist.includes(entry))) {
    throw ApiError.of('missing_scope', { message: 'A restricted key can only allow addresses of its own allowlist.', param: 'ip_allowlist' });
  }
  const expires = expiresAt && (!requestedExpiry || requestedExpiry > expiresAt) ? expiresAt : requestedExpiry;
  return { ip_allowlist: input.ip_allowlist ?? (ipAllowlist ? [...ipAllowlist] : null), expires_at: expires };
}

export async function createKey(db: Database, principal: KeyManager, input: CreateKeyInput) {
  validateShape(input);
  checkGrantable(principal, input.type, input.scopes);
  const { row, secret } = await insertNewKey(db, principal.scope, {
    type: input.type,
    name: input.name ?? null,
    scopes: input.scopes ?? null,
    ...inheritedLimits(principal, input),
    created_by: creatorOf(principal),
    external_id: input.external_id ?? null,
    metadata: JSON.stringify(input.metadata ?? {}),
  });
  return serializeKey(row, secret);
}

/** The first keys of a new tenant: a secret and a publishable key per environment, created by the operator. */
export async function createInitialKeys(db: Executor, tenantId: string) {
  const pair = async (livemode: boolean) => {
    const scope = { tenantId, livemode };
    const base = { scopes: null, ip_allowlist: null, expires_at: null, created_by: null, external_id: null, metadata: '{}' };
    const secret = await insertNewKey(db, scope, { ...base, type: 'secret', name: 'Default secret key' });
    const publishable = await insertNewKey(db, scope, { ...base, type: 'publishable', name: 'Default publishable key' });
    return { secret: secret.secret, publishable: publishable.secret };
  };
  return { test: await pair(false), live: await pair(true) };
}

async function getRow(db: Executor, scope: Scope, id: string, forUpdate = false): Promise<ApiKeyRow> {
  const row = isIdOf('api_key', id) ? await repo.findKey(db, scope, id, { forUpdate }) : undefined;
  if (!row) throw ApiError.notFound('API key', id);
  return row;
}

export async function getKey(db: Executor, scope: Scope, id: string) {
  return serializeKey(await getRow(db, scope, id));
}

export async function getKeyByExternalId(db: Executor, scope: Scope, externalId: string) {
  const row = await repo.findKeyByExternalId(db, scope, externalId);
  if (!row) throw ApiError.notFound('API key with external_id', externalId);
  return serializeKey(row);
}

export async function listKeys(db: Executor, scope: Scope, page: { page: number; per_page: number }) {
  const result = await repo.listKeys(db, scope, page);
  return { ...result, data: result.data.map((r) => serializeKey(r)) };
}

/** Revoking is final and idempotent; every process forgets the key once the change commits. */
export async function revokeKey(db: Database, principal: KeyManager, id: string) {
  const scope = principal.scope;
  return db.transaction().execute(async (trx) => {
    const row = await getRow(trx, scope, id, true);
    // Like rolling: a restricted key may only revoke keys it could have created.
    checkGrantable(principal, row.type, (row.scopes ?? undefined) as ScopeName[] | undefined);
    if (row.revoked_at) return serializeKey(row);
    const revoked = (await repo.revokeKeyRow(trx, scope, id))!;
    await notifyCredentialsChanged(trx, { keyId: id });
    return serializeKey(revoked);
  });
}

/** A new key like the old one; the old one expires after `expiresInSeconds` (never later than it already would). */
export async function rollKey(db: Database, principal: KeyManager, id: string, expiresInSeconds = 0) {
  const scope = principal.scope;
  return db.transaction().execute(async (trx) => {
    const old = await getRow(trx, scope, id, true);
    // Rolling hands out a new key like the old one, so the caller must be allowed to create it.
    checkGrantable(principal, old.type, (old.scopes ?? undefined) as ScopeName[] | undefined);
    if (keyStatus(old) !== 'active') {
      throw ApiError.of('key_inactive', { message: `The key is ${keyStatus(old)} and cannot be rolled.` });
    }
    const { row, secret } = await insertNewKey(trx, scope, {
      type: old.type,
      name: old.name,
      scopes: old.scopes,
      ip_allowlist: old.ip_allowlist,
      // A key that was made to expire stays so: rolling replaces it, it does not extend it.
      expires_at: old.expires_at,
      created_by: creatorOf(principal),
      external_id: null,
      metadata: JSON.stringify(old.metadata),
    });
    const expiresAt = new Date(Date.now() + expiresInSeconds * 1000);
    if (!old.expires_at || old.expires_at > expiresAt) await repo.setKeyExpiry(trx, scope, id, expiresAt);
    await notifyCredentialsChanged(trx, { keyId: id });
    return serializeKey(row, secret);
  });
}
