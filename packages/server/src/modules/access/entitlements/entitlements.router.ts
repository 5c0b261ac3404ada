import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { accessDeps } from '../access-deps';
import { checkAccess } from './check-access';
import * as entitlements from './entitlements.service';
import { grantEntitlement } from './grant-entitlement';

const s = initServer();

export const entitlementsRouter = (ctx: AppContext) => {
  const deps = accessDeps(ctx);
  return s.router(contract.access.entitlements, {
    grant: async ({ body, req }) => {
      const { created, entitlement } = await grantEntitlement(deps, actorOf(req).scope, body);
      return created ? { status: 201, body: { data: entitlement } } : { status: 200, body: { data: entitlement } };
    },
    list: async ({ query: { customer, contact_hash, resource, status, metadata, ...page }, req }) => ({
      status: 200,
      body: await entitlements.listEntitlements(deps, actorOf(req).scope, { customer, contact_hash, resource, status, metadata }, page),
    }),
    retrieve: async ({ params, req }) => ({
      status: 200,
      body: { data: await entitlements.getEntitlement(deps, actorOf(req).scope, params.id) },
    }),
    retrieveByExternalId: async ({ params, req }) => ({
      status: 200,
      body: { data: await entitlements.getEntitlementByExternalId(deps, actorOf(req).scope, params.external_id) },
    }),
    revoke: async ({ params, req }) => ({
      status: 200,
      body: { data: await entitlements.revokeEntitlement(deps, actorOf(req).scope, params.id) },
    }),
    suspend: async ({ params, req }) => ({
      status: 200,
      body: { data: await entitlements.suspendEntitlement(deps, actorOf(req).scope, params.id) },
    }),
    resume: async ({ params, req }) => ({
      status: 200,
      body: { data: await entitlements.resumeEntitlement(deps, actorOf(req).scope, params.id) },
    }),
  });
};

export const accessChecksRouter = (ctx: AppContext) => {
  const deps = accessDeps(ctx);
  return s.router(contract.access.checks, {
    check: async ({ body, req }) => ({ status: 200, body: { data: await checkAccess(deps, actorOf(req).scope, body) } }),
  });
};
