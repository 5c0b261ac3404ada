import type { CursorPageQuery } from '@svc/contract';
import type { Insertable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { PlaybackSigningKeyRow, PlaybackSigningKeysTable } from '../../../db/streams-live.schema';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

export type NewSigningKey = Omit<Insertable<PlaybackSigningKeysTable>, 'tenant_id' | 'livemode'>;

export async function insertSigningKey(db: Executor, scope: Scope, row: NewSigningKey): Promise<PlaybackSigningKeyRow> {
  return scoped(db, scope).insertInto('playback_signing_keys', row).returningAll().executeTakeFirstOrThrow();
}

/** Any key of the scope by id, the tenant's own or the service's (a token's `kid` may name either). */
export async function findSigningKey(db: Executor, scope: Scope, id: string) {
  return scoped(db, scope).selectFrom('playback_signing_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findTenantSigningKey(db: Executor, scope: Scope, id: string) {
  return scoped(db, scope)
    .selectFrom('playback_signing_keys')
    .selectAll()
    .where('kind', '=', 'tenant')
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findActiveSystemKey(db: Executor, scope: Scope, provider: string) {
  return scoped(db, scope)
    .selectFrom('playback_signing_keys')
    .selectAll()
    .where('kind', '=', 'system')
    .where('provider', '=', provider)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function countActiveTenantKeys(db: Executor, scope: Scope): Promise<number> {
  const { n } = await scoped(db, scope)
    .selectFrom('playback_signing_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'tenant')
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function listTenantSigningKeys(db: Executor, scope: Scope, page: CursorPageQuery) {
  const q = scoped(db, scope).selectFrom('playback_signing_keys').selectAll().where('kind', '=', 'tenant');
  return paginate(q, 'playback_signing_keys.id', page);
}

export async function revokeSigningKeyRow(db: Executor, scope: Scope, id: string, at: Date) {
  return scoped(db, scope)
    .updateTable('playback_signing_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
