import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { analyticsAnswer, analyticsReports } from './analytics.service';

const s = initServer();

export const analyticsRouter = (ctx: AppContext) =>
  s.router(contract.analytics, {
    overview: async ({ query, req }) => ({ status: 200, body: (await analyticsAnswer(ctx, actorOf(req), 'overview', query, analyticsReports.overview)) as any }),
    revenue: async ({ query, req }) => ({ status: 200, body: (await analyticsAnswer(ctx, actorOf(req), 'revenue', query, analyticsReports.revenue)) as any }),
    tickets: async ({ query, req }) => ({ status: 200, body: (await analyticsAnswer(ctx, actorOf(req), 'tickets', query, analyticsReports.tickets)) as any }),
    events: async ({ query, req }) => ({ status: 200, body: (await analyticsAnswer(ctx, actorOf(req), 'events', query, analyticsReports.events)) as any }),
    audience: async ({ query, req }) => ({ status: 200, body: (await analyticsAnswer(ctx, actorOf(req), 'audience', query, analyticsReports.audience)) as any }),
    conversions: async ({ query, req }) => ({ status: 200, body: (await analyticsAnswer(ctx, actorOf(req), 'conversions', query, analyticsReports.conversions)) as any }),
  });
