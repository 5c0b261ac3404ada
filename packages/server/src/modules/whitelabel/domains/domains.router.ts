import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { requireBrandingPermission } from '../whitelabel-access';
import * as domains from './domains.service';

const s = initServer();

export const domainsRouter = (ctx: AppContext) => {
  /** The domain, once the caller may act on it (a member in its organization, or staff for a tenant-wide one). */
  const guarded = async (req: Parameters<typeof actorOf>[0], id: string, permission: 'branding:read' | 'branding:write') => {
    const caller = actorOf(req);
    const domain = await domains.getDomain(ctx, caller.scope, id);
    await requireBrandingPermission(ctx, caller, domain.organization, permission);
    return { caller, domain };
  };
  return s.router(contract.domains, {
    create: async ({ body, req }) => {
      const caller = actorOf(req);
      await requireBrandingPermission(ctx, caller, body.organization ?? null, 'branding:write');
      return { status: 201, body: { data: await domains.createDomain(ctx, caller.scope, body) } };
    },
    list: async ({ query: { status, organization, ...page }, req }) => {
      const caller = actorOf(req);
      await requireBrandingPermission(ctx, caller, organization ?? null, 'branding:read');
      return { status: 200, body: await domains.listDomains(ctx, caller.scope, { status, organization }, page) };
    },
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: (await guarded(req, params.id, 'branding:read')).domain } }),
    update: async ({ params, body, req }) => {
      const { caller } = await guarded(req, params.id, 'branding:write');
      return { status: 200, body: { data: await domains.updateDomain(ctx, caller.scope, params.id, body) } };
    },
    verify: async ({ params, req }) => {
      const { caller } = await guarded(req, params.id, 'branding:write');
      return { status: 200, body: { data: await domains.verifyDomain(ctx, caller.scope, params.id) } };
    },
    remove: async ({ params, req }) => {
      const { caller } = await guarded(req, params.id, 'branding:write');
      return { status: 200, body: { data: await domains.deleteDomain(ctx, caller.scope, params.id) } };
    },
    simulate: async ({ params, body, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await domains.simulateDomain(ctx, caller.scope, params.id, body.outcome) } };
    },
  });
};
