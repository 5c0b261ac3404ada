import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { book } from './book.service';
import { bookingPayload } from './booking-payload';

const s = initServer();

export const bookingRouter = (ctx: AppContext) =>
  s.router(contract.booking, {
    payload: async ({ params, query, req }) => ({ status: 200, body: { data: await bookingPayload(ctx, actorOf(req).scope, params.event, query) } }),
    book: async ({ params, body, req }) => ({ status: 201, body: { data: await book(ctx, actorOf(req), params.event, body) } }),
  });
