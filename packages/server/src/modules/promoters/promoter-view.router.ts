import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { actorOf } from '../../core/principal';
import * as view from './promoter-view/promoter-view.service';

const s = initServer();

export const promoterViewRouter = (ctx: AppContext) =>
  s.router(contract.promoterView, {
    listProfiles: async ({ req }) => ({ status: 200, body: { data: await view.listProfiles(ctx, actorOf(req)) } }),
    listTrackingCodes: async ({ query, req }) => ({ status: 200, body: await view.listMyTrackingCodes(ctx, actorOf(req), query) }),
    listSales: async ({ query, req }) => ({ status: 200, body: await view.listMySales(ctx, actorOf(req), query) }),
    listCommissions: async ({ query, req }) => ({ status: 200, body: await view.listMyCommissions(ctx, actorOf(req), query) }),
    listPayouts: async ({ query, req }) => ({ status: 200, body: await view.listMyPayouts(ctx, actorOf(req), query) }),
  });
