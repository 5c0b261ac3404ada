import type { CursorPageQuery } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { MemberRow } from '../../../db/identity.schema';
import { notifyIdentity } from '../identity-caches';
import { writeMessage } from '../../messaging';
import { cachesOf } from '../identity-parts';

export function serializeMember(row: MemberRow) {
  return {
    id: row.id,
    object: 'member' as const,
    organization: row.organization_id,
    email: row.email,
    phone: row.phone,
    person: row.user_id,
    role: row.role,
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** Tenant staff (`organization` null) or the members of one organization. */
export interface MemberGroup {
  tenantId: string;
  organization: { id: string; name: string } | null;
}

const inGroup = (db: Executor, group: MemberGroup) => {
  const q = db.selectFrom('members').selectAll().where('tenant_id', '=', group.tenantId);
  return group.organization ? q.where('organization_id', '=', group.organization.id) : q.where('organization_id', 'is', null);
};

/** An invited member and their invitation, in one transaction; the message goes out in the caller's environment. */
export async function inviteMember(ctx: AppContext, scope: Scope, group: MemberGroup, input: { email?: string; phone?: string; role: string }) {
  if ((input.email === undefined) === (input.phone === undefined)) {
    throw ApiError.of('invalid_request', { message: 'Send exactly one of `email` and `phone`.', param: 'email' });
  }
  const email = input.email?.toLowerCase() ?? null;
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('members')
        .values({ id: newId('member'), tenant_id: group.tenantId, organization_id: group.organization?.id ?? null, email, phone: input.phone ?? null, user_id: null, role: input.role, status: 'invited' })
        .returningAll()
        .executeTakeFirstOrThrow();
      const where = group.organization ? group.organization.name : 'the team';
      await writeMessage(trx, scope, {
        channel: email ? 'email' : 'sms',
        to: (email ?? input.phone)!,
        template: 'member_invitation',
        subject: email ? `You are invited to ${where}` : null,
        body: `You have been invited to ${where} as ${input.role}. Sign in with this ${email ? 'email address' : 'phone number'} to accept.`,
        related: [row.id],
      });
      return serializeMember(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'members_email') || isUniqueViolation(err, 'members_phone')) throw ApiError.of('member_exists');
    throw err;
  }
}

export async function listMembers(db: Executor, group: MemberGroup, page: CursorPageQuery) {
  const result = await paginate(inGroup(db, group), 'members.id', page);
  return { ...result, data: result.data.map(serializeMember) };
}

/**
 * Changes a role or removes a member under a lock on the group's owners, so two changes at once cannot leave
 * the group without one: demoting or removing the last owner answers `409 last_owner`.
 */
async function changeMember(ctx: AppContext, group: MemberGroup, id: string, change: { role: string } | 'delete') {
  const row = await ctx.db.transaction().execute(async (trx) => {
    if (!isIdOf('member', id)) throw ApiError.notFound('member', id);
    // The owners first, in id order, then the member: every change takes its locks in one order, so none deadlock.
    const owners = await inGroup(trx, group).where('role', '=', 'owner').orderBy('id').forUpdate().execute();
    const member = await inGroup(trx, group).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!member) throw ApiError.notFound('member', id);
    const leavesOwners = member.role === 'owner' && (change === 'delete' || change.role !== 'owner');
    if (leavesOwners) {
      if (!owners.some((o) => o.id !== member.id && o.role === 'owner')) {
        throw ApiError.of('last_owner', { message: 'This is the last owner: make another member owner first.' });
      }
    }
    const changed =
      change === 'delete'
        ? await trx.deleteFrom('members').where('id', '=', id).returningAll().executeTakeFirstOrThrow()
        : await trx.updateTable('members').set({ role: change.role, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    await notifyIdentity(trx, ['members:']);
    return changed;
  });
  // This process forgets at once; the others when the notification arrives.
  cachesOf(ctx).forgetMembers();
  return serializeMember(row);
}

export const updateMemberRole = (ctx: AppContext, group: MemberGroup, id: string, role: string) => changeMember(ctx, group, id, { role });
export const removeMember = async (ctx: AppContext, group: MemberGroup, id: string) => ({ ...(await changeMember(ctx, group, id, 'delete')), deleted: true as const });

/** The email addresses of the tenant team's active owners: who the service's notices to a tenant go to. */
export async function tenantOwnerEmails(db: Executor, tenantId: string): Promise<string[]> {
  const rows = await inGroup(db, { tenantId, organization: null })
    .where('role', '=', 'owner')
    .where('status', '=', 'active')
    .where('email', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.email!);
}
