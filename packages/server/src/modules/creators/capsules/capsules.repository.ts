import type { Updateable } from 'kysely';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { CapsuleProfileRow, CapsuleProfilesTable } from '../../../db/creators.schema';

/** The organization's profile, made with its defaults the first time it is read (a second maker finds the first's). */
export async function ensureProfile(db: Executor, scope: Scope, organizationId: string): Promise<CapsuleProfileRow> {
  await scoped(db, scope)
    .insertInto('capsule_profiles', { organization_id: organizationId, id: newId('capsule') })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
  return scoped(db, scope).selectFrom('capsule_profiles').selectAll().where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
}

export async function findProfile(db: Executor, scope: Scope, organizationId: string): Promise<CapsuleProfileRow | undefined> {
  return scoped(db, scope).selectFrom('capsule_profiles').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
}

export async function updateProfile(db: Executor, scope: Scope, organizationId: string, changes: Updateable<CapsuleProfilesTable>) {
  return scoped(db, scope)
    .updateTable('capsule_profiles')
    .set({ ...changes, updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
