import type { CursorPageQuery, CustomerTokenKey } from '@svc/contract';
import type { CustomerTokenKeyRow } from '../../../db/access.schema';
import type { Database } from '../../../db/database';
import { customerTokenSecretContext, notifyCustomerTokenKeyChanged } from '../../../core/auth/customer-token-keys';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId, randomToken } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { SecretBox } from '../../../core/secret-box';

const SECRET_PREFIX = 'cts_';

function serialize(row: CustomerTokenKeyRow, secret?: string): CustomerTokenKey {
  return {
    id: row.id,
    object: 'customer_token_key',
    name: row.name,
    status: row.revoked_at ? 'revoked' : 'active',
    livemode: row.livemode,
    created_at: new Date(row.created_at).toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
    ...(secret !== undefined && { secret }),
  };
}

/** A new key; its secret (`cts_` and 48 random base62 characters, about 285 bits) is sealed at rest and shown once. */
export async function createCustomerTokenKey(db: Database, secrets: SecretBox, scope: Scope, input: { name: string }) {
  const id = newId('customer_token_key');
  const secret = `${SECRET_PREFIX}${randomToken(48)}`;
  const row = await scoped(db, scope)
    .insertInto('customer_token_keys', {
      id,
      name: input.name,
      secret_sealed: secrets.encrypt(secret, customerTokenSecretContext(id)),
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return serialize(row, secret);
}

export async function listCustomerTokenKeys(db: Database, scope: Scope, page: CursorPageQuery) {
  const result = await paginate(scoped(db, scope).selectFrom('customer_token_keys').selectAll(), 'customer_token_keys.id', page);
  return { ...result, data: result.data.map((row) => serialize(row)) };
}

/**
 * Revokes a key at once on every process: the change and its notification commit together, and every
 * process drops the key from its cache when the notification arrives. Revoking again answers the key.
 */
export async function revokeCustomerTokenKey(db: Database, scope: Scope, id: string, at: Date): Promise<CustomerTokenKey> {
  return db.transaction().execute(async (trx) => {
    const row = isIdOf('customer_token_key', id)
      ? await scoped(trx, scope).selectFrom('customer_token_keys').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
      : undefined;
    if (!row) throw ApiError.notFound('customer token key', id);
    if (row.revoked_at) return serialize(row);
    const revoked = await scoped(trx, scope)
      .updateTable('customer_token_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await notifyCustomerTokenKeyChanged(trx, id);
    return serialize(revoked);
  });
}
