import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { createCoupon, listCoupons, updateCoupon } from './coupons.service';

const s = initServer();

export const couponsRouter = (ctx: AppContext) =>
  s.router(contract.coupons, {
    create: async ({ params, body, req }) => ({ status: 201, body: { data: await createCoupon(ctx, actorOf(req), params.event, body) } }),
    list: async ({ params, query, req }) => ({ status: 200, body: await listCoupons(ctx, actorOf(req), params.event, query) }),
    update: async ({ params, body, req }) => ({ status: 200, body: { data: await updateCoupon(ctx, actorOf(req), params.event, params.id, body) } }),
  });
