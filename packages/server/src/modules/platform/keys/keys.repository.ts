import type { PageNumberQuery } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { ApiKeyRow, NewApiKeyRow } from '../../../db/schema';
import { paginateByNumber } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

export type NewKey = Omit<NewApiKeyRow, 'tenant_id' | 'livemode'>;

export async function insertKey(db: Executor, scope: Scope, key: NewKey): Promise<ApiKeyRow> {
  return scoped(db, scope).insertInto('api_keys', key).returningAll().executeTakeFirstOrThrow();
}

export async function findKey(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('api_keys').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findKeyByExternalId(db: Executor, scope: Scope, externalId: string) {
  return scoped(db, scope).selectFrom('api_keys').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

export async function findKeys(db: Executor, scope: Scope, ids: string[]): Promise<ApiKeyRow[]> {
  if (ids.length === 0) return [];
  return scoped(db, scope).selectFrom('api_keys').selectAll().where('id', 'in', ids).execute();
}

export async function listKeys(db: Executor, scope: Scope, page: PageNumberQuery) {
  return paginateByNumber(scoped(db, scope).selectFrom('api_keys').selectAll(), 'api_keys.id', page);
}

export async function revokeKeyRow(db: Executor, scope: Scope, id: string): Promise<ApiKeyRow | undefined> {
  return scoped(db, scope)
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function setKeyExpiry(db: Executor, scope: Scope, id: string, expiresAt: Date): Promise<void> {
  await scoped(db, scope).updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}
