import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { getEvent, listEvents } from './event-log.service';

const s = initServer();

export const eventLogRouter = ({ db }: AppContext) =>
  s.router(contract.eventLog, {
    list: async ({ query, req }) => ({ status: 200, body: await listEvents(db, actorOf(req).scope, query) }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await getEvent(db, actorOf(req).scope, params.id) } }),
  });
