import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { attendeeTickets, creatorBooking } from './tickets.service';

const s = initServer();

export const ticketsRouter = (ctx: AppContext) =>
  s.router(contract.tickets, {
    attendeeTickets: async ({ query, req }) => ({ status: 200, body: await attendeeTickets(ctx, actorOf(req), query) }),
    creatorBooking: async ({ params, req }) => ({ status: 200, body: { data: await creatorBooking(ctx, actorOf(req), params.code) } }),
  });
