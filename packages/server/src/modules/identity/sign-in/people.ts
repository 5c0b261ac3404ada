import { sql } from 'kysely';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { notifyIdentity } from '../identity-caches';
import type { Destination } from './destination';

/** The person with this verified phone or email, made on their first sign-in anywhere in the service. */
export async function findOrCreateUser(db: Executor, destination: Destination): Promise<{ id: string; phone: string | null; email: string | null }> {
  const column = destination.kind;
  await db
    .insertInto('users')
    .values({ id: newId('user'), [column]: destination.value })
    .onConflict((oc) => oc.column(column).doNothing())
    .execute();
  return db.selectFrom('users').select(['id', 'phone', 'email']).where(column, '=', destination.value).executeTakeFirstOrThrow();
}

/**
 * The person's customer in this tenant and environment: theirs already, else an unlinked customer with the
 * same email or phone, else a new one. Two first sign-ins at once meet at the one-customer-per-person index.
 */
export async function customerForUser(db: Executor, scope: Scope, userId: string, destination: Destination): Promise<string> {
  const own = async () =>
    scoped(db, scope).selectFrom('customers').select('id').where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  const existing = await own();
  if (existing) return existing.id;
  const column = destination.kind;
  const linked = await scoped(db, scope)
    .updateTable('customers')
    .set({ user_id: userId, updated_at: new Date() })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('customers as c')
        .select('c.id')
        .where('c.tenant_id', '=', scope.tenantId)
        .where('c.livemode', '=', scope.livemode)
        .where(`c.${column}`, '=', destination.value)
        .where('c.user_id', 'is', null)
        .where('c.deleted_at', 'is', null)
        .orderBy('c.id')
        .limit(1),
    )
    .returning('id')
    .executeTakeFirst();
  if (linked) return linked.id;
  const inserted = await sql<{ id: string }>`
    insert into customers (id, tenant_id, livemode, ${sql.ref(column)}, user_id)
    values (${newId('customer')}, ${scope.tenantId}, ${scope.livemode}, ${destination.value}, ${userId})
    on conflict do nothing returning id`.execute(db);
  return inserted.rows[0]?.id ?? (await own())!.id;
}

/** Invited members with this email or phone become active on the person's first sign-in to the tenant. */
export async function activateMembers(db: Executor, tenantId: string, userId: string, destination: Destination): Promise<void> {
  const activated = await db
    .updateTable('members')
    .set({ user_id: userId, status: 'active', updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where(destination.kind, '=', destination.value)
    .where('status', '=', 'invited')
    .returning('id')
    .execute();
  if (activated.length > 0) await notifyIdentity(db, ['members:']);
}
