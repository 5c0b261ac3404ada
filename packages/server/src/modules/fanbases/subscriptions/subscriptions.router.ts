import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import * as subscriptions from './subscriptions.service';

const s = initServer();

export const subscriptionsRouter = (ctx: AppContext) =>
  s.router(contract.subscriptions, {
    list: async ({ query: { fanbase, customer, status, tier, metadata, expand, ...page }, req }) => ({
      status: 200,
      body: await subscriptions.listSubscriptions(ctx, actorOf(req), { fanbase, customer, status, tier, metadata }, page, expand),
    }),
    retrieve: async ({ params, query, req }) => ({ status: 200, body: { data: await subscriptions.getSubscription(ctx, actorOf(req), params.id, query.expand) } }),
    cancel: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await subscriptions.cancelByOrganizer(ctx, actorOf(req), params.id, body?.at_period_end ?? true) },
    }),
    resume: async ({ params, req }) => ({ status: 200, body: { data: await subscriptions.resumeByOrganizer(ctx, actorOf(req), params.id) } }),
    advance: async ({ params, body, req }) => ({ status: 200, body: { data: await subscriptions.advanceSubscription(ctx, actorOf(req).scope, params.id, body.to) } }),
  });
