import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { actorOf } from '../../../core/principal';
import { requireBrandingPermission } from '../whitelabel-access';
import * as branding from './branding.service';

const s = initServer();

export const brandingRouter = (ctx: AppContext) =>
  s.router(contract.branding, {
    retrieve: async ({ req }) => {
      const caller = actorOf(req);
      await requireBrandingPermission(ctx, caller, null, 'branding:read');
      return { status: 200, body: { data: await branding.getTenantBranding(ctx, caller.scope) } };
    },
    update: async ({ body, req }) => {
      const caller = actorOf(req);
      await requireBrandingPermission(ctx, caller, null, 'branding:write');
      return { status: 200, body: { data: await branding.updateTenantBranding(ctx, caller.scope, body) } };
    },
    retrieveOrganization: async ({ params, req }) => {
      const caller = actorOf(req);
      const data = await branding.getOrganizationBranding(ctx, caller.scope, params.id);
      await requireBrandingPermission(ctx, caller, data.organization, 'branding:read');
      return { status: 200, body: { data } };
    },
    updateOrganization: async ({ params, body, req }) => {
      const caller = actorOf(req);
      await branding.getOrganizationBranding(ctx, caller.scope, params.id);
      await requireBrandingPermission(ctx, caller, params.id, 'branding:write');
      return { status: 200, body: { data: await branding.updateOrganizationBranding(ctx, caller.scope, params.id, body) } };
    },
    retrievePublic: async ({ query, req }) => {
      const caller = actorOf(req);
      const domain = req.domain;
      // On an organization's domain, its brand, and no other organization's.
      if (domain?.organizationId && query.organization && query.organization !== domain.organizationId) throw ApiError.notFound('organization', query.organization);
      const organizationId = domain?.organizationId ?? (query.organization ? (await branding.getOrganizationBranding(ctx, caller.scope, query.organization)).organization : null);
      return { status: 200, body: { data: await branding.effectiveBrand(ctx, caller.scope, organizationId) } };
    },
  });
