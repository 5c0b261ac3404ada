import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { attendeeDashboard } from '../dashboard/attendee-dashboard.service';
import { activityFeed } from './activity-feed.service';

const s = initServer();

export const activityRouter = (ctx: AppContext) =>
  s.router(contract.activity, {
    feed: async ({ query, req }) => ({ status: 200, body: await activityFeed(ctx, actorOf(req), query) }),
    attendeeDashboard: async ({ req }) => ({ status: 200, body: { data: await attendeeDashboard(ctx, actorOf(req)) } }),
  });
