import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { actorOf } from '../../core/principal';
import { approveNow } from './ledger/approve-commissions.job';
import { listCommissionsFor } from './ledger/commissions-list.service';
import * as payouts from './payouts/payouts.service';

const s = initServer();

export const commissionsRouter = (ctx: AppContext) =>
  s.router(contract.commissions, {
    listCommissions: async ({ query: { promoter, order, status, type, payout, ...page }, req }) => ({
      status: 200,
      body: await listCommissionsFor(ctx, actorOf(req), { promoter, order, status, type, payout }, page),
    }),
    createPayout: async ({ params, body, req }) => ({ status: 201, body: { data: await payouts.createPayout(ctx, actorOf(req), params.id, body) } }),
    listPayouts: async ({ query: { promoter, status, method, ...page }, req }) => ({ status: 200, body: await payouts.listPayouts(ctx, actorOf(req), { promoter, status, method }, page) }),
    retrievePayout: async ({ params, req }) => ({ status: 200, body: { data: await payouts.retrievePayout(ctx, actorOf(req), params.id) } }),
    approveCommission: async ({ params, req }) => ({ status: 200, body: { data: await approveNow(ctx, actorOf(req).scope, params.id) } }),
  });
