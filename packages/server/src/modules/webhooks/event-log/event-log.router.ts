import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { customerViewerOf, listPublicEvents, showPublicEventReferred } from '../../ticketing';
import { countsPageViews, readsTicketedEvents } from './event-log-dispatch';
import { getEvent, listEvents } from './event-log.service';

const s = initServer();

export const eventLogRouter = (ctx: AppContext) =>
  s.router(contract.eventLog, {
    list: async ({ query, req }) => {
      const caller = actorOf(req);
      if (readsTicketedEvents(caller, { object: query.object })) return { status: 200, body: await listPublicEvents(ctx, caller.scope, query, await customerViewerOf(ctx, caller, req.headers.authorization)) };
      return { status: 200, body: await listEvents(ctx.db, caller.scope, query) };
    },
    retrieve: async ({ params, query, req }) => {
      const caller = actorOf(req);
      if (!readsTicketedEvents(caller, { id: params.id })) return { status: 200, body: { data: await getEvent(ctx.db, caller.scope, params.id) } };
      const visitor = countsPageViews(caller) ? { ip: req.ip ?? '', userAgent: req.get('user-agent') ?? '', source: query.source } : null;
      const { view, referral } = await showPublicEventReferred(ctx, caller.scope, params.id, visitor, query.ref, await customerViewerOf(ctx, caller, req.headers.authorization));
      return { status: 200, body: { data: view, ...(referral && { referral }) } };
    },
  });
