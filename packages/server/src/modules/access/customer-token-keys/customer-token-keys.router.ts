import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import * as keys from './customer-token-keys.service';

const s = initServer();

export const customerTokenKeysRouter = (ctx: AppContext) =>
  s.router(contract.access.customerTokenKeys, {
    create: async ({ body, req }) => ({
      status: 201,
      body: { data: await keys.createCustomerTokenKey(ctx.db, ctx.secrets, actorOf(req).scope, body) },
    }),
    list: async ({ query, req }) => ({ status: 200, body: await keys.listCustomerTokenKeys(ctx.db, actorOf(req).scope, query) }),
    // This process drops the key before answering; the others hear of it by NOTIFY.
    revoke: async ({ params, req }) => {
      const key = await keys.revokeCustomerTokenKey(ctx.db, actorOf(req).scope, params.id, ctx.clock ? ctx.clock() : new Date());
      ctx.customerTokenKeys.forget(params.id);
      return { status: 200, body: { data: key } };
    },
  });
