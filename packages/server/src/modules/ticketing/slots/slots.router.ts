import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { createSlot, listSlots } from './slots.service';

const s = initServer();

export const eventSlotsRouter = (ctx: AppContext) =>
  s.router(contract.eventSlots, {
    create: async ({ params, body, req }) => ({ status: 201, body: { data: await createSlot(ctx, actorOf(req), params.event, body) } }),
    list: async ({ params, query, req }) => ({ status: 200, body: await listSlots(ctx, actorOf(req), params.event, query) }),
  });
