import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { createEvent, getEvent, listEvents, updateEvent } from './events.service';
import { publishEvent } from './publish-event.service';

const s = initServer();

export const organizerEventsRouter = (ctx: AppContext) =>
  s.router(contract.organizerEvents, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await createEvent(ctx, actorOf(req), body) } }),
    list: async ({ query, req }) => ({ status: 200, body: await listEvents(ctx, actorOf(req), query) }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await getEvent(ctx, actorOf(req), params.event) } }),
    update: async ({ params, body, req }) => ({ status: 200, body: { data: await updateEvent(ctx, actorOf(req), params.event, body) } }),
    publish: async ({ params, req }) => ({ status: 200, body: { data: await publishEvent(ctx, actorOf(req), params.event) } }),
  });
