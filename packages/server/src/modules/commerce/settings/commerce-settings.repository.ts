import type { Insertable } from 'kysely';
import type { CommerceSettingsTable } from '../../../db/commerce.schema';
import type { Executor } from '../../../db/database';
import { scoped, type Scope } from '../../../core/scope';

export async function findSettings(db: Executor, scope: Scope, organizationId: string) {
  return scoped(db, scope).selectFrom('commerce_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
}

/** Writes the given fields, keeping the others (their defaults on a first write). */
export async function upsertSettings(db: Executor, row: Insertable<CommerceSettingsTable>, changed: readonly (keyof CommerceSettingsTable)[]) {
  return db
    .insertInto('commerce_settings')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'livemode', 'organization_id']).doUpdateSet((eb) => Object.fromEntries([...changed, 'updated_at'].map((c) => [c, eb.ref(`excluded.${c}` as 'excluded.updated_at')]))),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}
