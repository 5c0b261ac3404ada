import { ORGANIZATION_ROLE_PERMISSIONS, type OrganizationRole } from '@svc/contract';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { OrganizationRow } from '../../../db/identity.schema';

// What other products read of organizations and their members (creators' capsules are creator organizations).

/** The organization with this handle in the scope, if any. */
export async function findOrganizationByHandle(db: Executor, scope: Scope, handle: string): Promise<OrganizationRow | undefined> {
  return scoped(db, scope).selectFrom('organizations').selectAll().where('handle', '=', handle).executeTakeFirst();
}

/** Organizations by id in the scope (for lists that show each item's organization). */
export async function findOrganizationsByIds(db: Executor, scope: Scope, ids: readonly string[]): Promise<OrganizationRow[]> {
  if (ids.length === 0) return [];
  return scoped(db, scope).selectFrom('organizations').selectAll().where('id', 'in', [...new Set(ids)]).execute();
}

/**
 * Whether a signed-in person's own role in this organization grants `permission`: `not_member` when they hold
 * no active role in it (the organization is then not theirs to see), `denied` when their role lacks it.
 */
export async function organizationAccessOf(
  db: Executor,
  tenantId: string,
  userId: string,
  organizationId: string,
  permission: string,
): Promise<'granted' | 'denied' | 'not_member'> {
  const rows = await db
    .selectFrom('members')
    .select('role')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .execute();
  if (rows.length === 0) return 'not_member';
  const grants = rows.some((r) => (ORGANIZATION_ROLE_PERMISSIONS[r.role as OrganizationRole] ?? []).includes(permission as never));
  return grants ? 'granted' : 'denied';
}

/** The organization's owners' email and phone (invited ones too), oldest first: where messages about it go. */
export async function organizationOwnerContacts(db: Executor, tenantId: string, organizationId: string) {
  return db
    .selectFrom('members')
    .select(['id', 'email', 'phone'])
    .where('tenant_id', '=', tenantId)
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .orderBy('id')
    .execute();
}

/** Whether an active member (one who signed in with it, so verified) has an email or a phone. */
export async function hasVerifiedMemberContact(db: Executor, tenantId: string, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('email', 'is not', null), eb('phone', 'is not', null)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many organizations of the scope use this handle (readiness: a handle is unique when it is one). */
export async function countOrganizationsWithHandle(db: Executor, scope: Scope, handle: string): Promise<number> {
  const row = await scoped(db, scope)
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('handle', '=', handle)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
