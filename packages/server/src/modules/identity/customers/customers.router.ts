import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import type { Principal } from '../../../core/principal';
import * as customers from './customers.service';

const s = initServer();

const scopeOf = (req: { principal?: Principal }) => {
  const p = req.principal;
  if (!p || !('scope' in p)) throw new Error('route reached without a tenant principal');
  return p.scope;
};

export const customersRouter = (ctx: AppContext) =>
  s.router(contract.customers, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await customers.createCustomer(ctx.db, scopeOf(req), body) } }),
    list: async ({ query: { email, phone, ...page }, req }) => ({
      status: 200,
      body: await customers.listCustomers(ctx.db, scopeOf(req), { email, phone }, page),
    }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await customers.getCustomer(ctx.db, scopeOf(req), params.id) } }),
    retrieveByExternalId: async ({ params, req }) => ({
      status: 200,
      body: { data: await customers.getCustomerByExternalId(ctx.db, scopeOf(req), params.external_id) },
    }),
    update: async ({ params, body, req }) => ({ status: 200, body: { data: await customers.updateCustomer(ctx.db, scopeOf(req), params.id, body) } }),
    delete: async ({ params, req }) => ({ status: 200, body: { data: await customers.deleteCustomer(ctx, scopeOf(req), params.id) } }),
  });
