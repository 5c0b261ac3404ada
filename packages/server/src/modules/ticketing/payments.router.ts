import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { actorOf } from '../../core/principal';
import { retrieveSession } from './checkout/checkout-sessions.service';
import { paySession } from './checkout/pay-session.service';
import { cancelEvent } from './event-cancel/cancel-event.service';
import { payLater } from './pay-later/pay-later.service';
import { createRefund, listOrderRefunds } from './refunds/refunds.service';

const s = initServer();

/** Checkout (the simulator's two public calls), refunds, pay-later and event cancellation. */
export const ticketingPaymentsRouter = (ctx: AppContext) =>
  s.router(contract.ticketingPayments, {
    checkout: {
      retrieveSession: async ({ params, req }) => ({ status: 200, body: { data: await retrieveSession(ctx, params.id, req.domain) } }),
      paySession: async ({ params, body, req }) => ({ status: 200, body: { data: await paySession(ctx, params.id, body, req, req.get('Idempotency-Key')) } }),
    },
    refunds: {
      create: async ({ params, body, req }) => ({ status: 201, body: { data: await createRefund(ctx, actorOf(req), params.id, body) } }),
      list: async ({ params, query, req }) => ({ status: 200, body: await listOrderRefunds(ctx, actorOf(req), params.id, query) }),
    },
    payLater: {
      payFixed: async ({ params, req }) => ({ status: 200, body: { data: await payLater(ctx, actorOf(req).scope, params.code, 'fixed') } }),
      payOpen: async ({ params, body, req }) => ({
        status: 200,
        body: { data: await payLater(ctx, actorOf(req).scope, params.code, 'open', body?.amount) },
      }),
    },
    eventCancel: {
      cancel: async ({ params, req }) => ({
        status: 200,
        body: { data: await cancelEvent(ctx, actorOf(req), params.event) },
      }),
    },
  });
