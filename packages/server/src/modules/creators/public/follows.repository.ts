import { sql, type SelectQueryBuilder } from 'kysely';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { Executor } from '../../../db/database';

/** A second follow by the same customer finds the row there (the primary key) and changes nothing. */
export async function addFollower(db: Executor, scope: Scope, organizationId: string, customer: string) {
  await scoped(db, scope)
    .insertInto('capsule_followers', { organization_id: organizationId, customer })
    .onConflict((oc) => oc.columns(['organization_id', 'customer']).doNothing())
    .execute();
}

export async function removeFollower(db: Executor, scope: Scope, organizationId: string, customer: string) {
  await scoped(db, scope).deleteFrom('capsule_followers').where('organization_id', '=', organizationId).where('customer', '=', customer).execute();
}

/** The audience is counted from the follower rows themselves, so it can never drift from them. */
export async function countFollowers(db: Executor, scope: Scope, organizationId: string): Promise<number> {
  const row = await scoped(db, scope)
    .selectFrom('capsule_followers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function followedAt(db: Executor, scope: Scope, organizationId: string, customer: string) {
  const row = await scoped(db, scope)
    .selectFrom('capsule_followers')
    .select('created_at')
    .where('organization_id', '=', organizationId)
    .where('customer', '=', customer)
    .executeTakeFirst();
  return row?.created_at;
}

/** Followers and `others` (the fanbase's active members) together, each customer counted once. */
export async function countAudience(db: Executor, scope: Scope, organizationId: string, others: SelectQueryBuilder<DB, any, { customer: string }>): Promise<number> {
  const followers = scoped(db, scope).selectFrom('capsule_followers').select('customer').where('organization_id', '=', organizationId);
  const { rows } = await sql<{ n: string }>`select count(*) as n from (${followers} union ${others}) audience`.execute(db);
  return Number(rows[0]!.n);
}
