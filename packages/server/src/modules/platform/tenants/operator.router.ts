import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import * as tenants from './tenants.service';

const s = initServer();

export const operatorRouter = ({ db, credentials }: AppContext) =>
  s.router(contract.operator, {
    createTenant: async ({ body }) => ({ status: 201, body: { data: await tenants.createTenant(db, body) } }),
    listTenants: async ({ query: { external_id, metadata, ...page } }) => ({
      status: 200,
      body: await tenants.listTenants(db, { external_id, metadata }, page),
    }),
    retrieveTenant: async ({ params }) => ({ status: 200, body: { data: await tenants.getTenant(db, params.id) } }),
    retrieveTenantByExternalId: async ({ params }) => ({
      status: 200,
      body: { data: await tenants.getTenantByExternalId(db, params.external_id) },
    }),
    updateTenant: async ({ params, body }) => {
      const tenant = await tenants.updateTenant(db, params.id, body);
      credentials.forget({ tenantId: tenant.id });
      return { status: 200, body: { data: tenant } };
    },
  });
