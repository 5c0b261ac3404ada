import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { analyticsAnswer, analyticsReports as r } from './analytics.service';

const s = initServer();

export const analyticsRouter = (ctx: AppContext) =>
  s.router(contract.analytics, {
    overview: async ({ query, req }) => ({ status: 200, body: await analyticsAnswer(ctx, actorOf(req), 'overview', query, r.overview) }),
    revenue: async ({ query, req }) => ({ status: 200, body: await analyticsAnswer(ctx, actorOf(req), 'revenue', query, r.revenue) }),
    tickets: async ({ query, req }) => ({ status: 200, body: await analyticsAnswer(ctx, actorOf(req), 'tickets', query, r.tickets) }),
    events: async ({ query, req }) => ({ status: 200, body: await analyticsAnswer(ctx, actorOf(req), 'events', query, r.events) }),
    audience: async ({ query, req }) => ({ status: 200, body: await analyticsAnswer(ctx, actorOf(req), 'audience', query, r.audience) }),
    conversions: async ({ query, req }) => ({ status: 200, body: await analyticsAnswer(ctx, actorOf(req), 'conversions', query, r.conversions) }),
  });
