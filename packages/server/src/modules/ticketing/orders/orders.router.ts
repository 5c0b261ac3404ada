import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import * as orders from './orders.service';

const s = initServer();

export const ordersRouter = (ctx: AppContext) =>
  s.router(contract.orders, {
    list: async ({ query: { kind, organization, event, status, fulfillment_status, customer, created, ...page }, req }) => ({
      status: 200,
      body: await orders.listOrders(ctx, actorOf(req), { kind, organization, event, status, fulfillment_status, customer, created }, page),
    }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await orders.getOrder(ctx, actorOf(req), params.id) } }),
    retrieveByExternalId: async ({ params, req }) => ({
      status: 200,
      body: { data: await orders.getOrderByExternalId(ctx, actorOf(req), params.external_id) },
    }),
    cancel: async ({ params, req }) => ({ status: 200, body: { data: await orders.cancelOrder(ctx, actorOf(req), params.id) } }),
    expire: async ({ params, req }) => ({ status: 200, body: { data: await orders.expireOrderNow(ctx, actorOf(req), params.id) } }),
  });
