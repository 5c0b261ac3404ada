import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { book } from './book.service';
import { bookingPayload } from './booking-payload';
import { customerViewerOf } from '../public/viewer';

const s = initServer();

export const bookingRouter = (ctx: AppContext) =>
  s.router(contract.booking, {
    payload: async ({ params, query, req }) => ({ status: 200, body: { data: await bookingPayload(ctx, actorOf(req).scope, params.event, query) } }),
    book: async ({ params, body, req }) => {
      const caller = actorOf(req);
      // Only a gated event asks who the customer is (a customer token is checked then).
      const viewer = () => customerViewerOf(ctx, caller, req.headers.authorization);
      return { status: 201, body: { data: await book(ctx, caller, params.event, body, viewer) } };
    },
  });
