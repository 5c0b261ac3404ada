import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import type { Principal } from '../../../core/principal';
import * as members from './members.service';
import * as orgs from './organizations.service';
import { requireOrganizationPermission } from '../auth/member-permissions';

const s = initServer();

const scopeOf = (req: { principal?: Principal }) => {
  const p = req.principal;
  if (!p || !('scope' in p)) throw new Error('route reached without a tenant principal');
  return p.scope;
};
const staff = (req: { principal?: Principal }): members.MemberGroup => ({ tenantId: scopeOf(req).tenantId, organization: null });

export const organizationsRouter = (ctx: AppContext) => {
  /** The organization's members; a signed-in person needs the permission in the tenant or in this organization. */
  const orgGroup = async (req: { principal?: Principal }, id: string, permission: string): Promise<members.MemberGroup> => {
    const org = await orgs.getOrganizationRow(ctx.db, scopeOf(req), id);
    const p = req.principal;
    if (p?.kind === 'user') await requireOrganizationPermission(ctx, org.tenant_id, p.userId, org.id, permission);
    return { tenantId: org.tenant_id, organization: { id: org.id, name: org.name } };
  };
  return s.router(contract.organizations, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await orgs.createOrganization(ctx.db, scopeOf(req), body) } }),
    list: async ({ query, req }) => ({ status: 200, body: await orgs.listOrganizations(ctx.db, scopeOf(req), query) }),
    retrieve: async ({ params, req }) => ({
      status: 200,
      body: { data: orgs.serializeOrganization(await orgs.getOrganizationRow(ctx.db, scopeOf(req), params.id)) },
    }),
    update: async ({ params, body, req }) => ({ status: 200, body: { data: await orgs.updateOrganization(ctx.db, scopeOf(req), params.id, body) } }),
    createStaffMember: async ({ body, req }) => ({ status: 201, body: { data: await members.inviteMember(ctx, scopeOf(req), staff(req), body) } }),
    listStaffMembers: async ({ query, req }) => ({ status: 200, body: await members.listMembers(ctx.db, staff(req), query) }),
    updateStaffMember: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await members.updateMemberRole(ctx, staff(req), params.id, body.role) },
    }),
    deleteStaffMember: async ({ params, req }) => ({ status: 200, body: { data: await members.removeMember(ctx, staff(req), params.id) } }),
    createMember: async ({ params, body, req }) => ({
      status: 201,
      body: { data: await members.inviteMember(ctx, scopeOf(req), await orgGroup(req, params.id, 'organization_members:write'), body) },
    }),
    listMembers: async ({ params, query, req }) => ({ status: 200, body: await members.listMembers(ctx.db, await orgGroup(req, params.id, 'organization_members:read'), query) }),
    updateMember: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await members.updateMemberRole(ctx, await orgGroup(req, params.id, 'organization_members:write'), params.member, body.role) },
    }),
    deleteMember: async ({ params, req }) => ({
      status: 200,
      body: { data: await members.removeMember(ctx, await orgGroup(req, params.id, 'organization_members:write'), params.member) },
    }),
  });
};
