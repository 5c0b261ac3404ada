import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { listEventCheckins, scanTicket, syncScans } from './scan.service';

const s = initServer();

export const checkinsRouter = (ctx: AppContext) =>
  s.router(contract.checkins, {
    scan: async ({ params, body, req }) => ({ status: 200, body: { data: await scanTicket(ctx, actorOf(req), params.event, body) } }),
    sync: async ({ params, body, req }) => ({ status: 200, body: { data: await syncScans(ctx, actorOf(req), params.event, body.scans) } }),
    list: async ({ params, query, req }) => ({ status: 200, body: await listEventCheckins(ctx, actorOf(req), params.event, query) }),
  });
