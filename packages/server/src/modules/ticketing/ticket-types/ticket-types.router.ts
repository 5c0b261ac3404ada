import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { createTicketType, listTicketTypes, updateTicketType } from './ticket-types.service';

const s = initServer();

export const ticketTypesRouter = (ctx: AppContext) =>
  s.router(contract.ticketTypes, {
    create: async ({ params, body, req }) => ({ status: 201, body: { data: await createTicketType(ctx, actorOf(req), params.event, body) } }),
    list: async ({ params, query, req }) => ({ status: 200, body: await listTicketTypes(ctx, actorOf(req), params.event, query) }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await updateTicketType(ctx, actorOf(req), params.event, params.id, body) },
    }),
  });
