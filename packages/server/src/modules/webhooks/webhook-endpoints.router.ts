import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { actorOf } from '../../core/principal';
import { listAttempts } from './webhook-attempts.repository';
import * as endpoints from './webhook-endpoints.service';
import { replayEvents, sendTestEvent } from './webhook-replay.service';

const s = initServer();

export const webhookEndpointsRouter = (ctx: AppContext) =>
  s.router(contract.webhookEndpoints, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await endpoints.createEndpoint(ctx, actorOf(req).scope, body) } }),
    list: async ({ query, req }) => ({ status: 200, body: await endpoints.listEndpoints(ctx.db, actorOf(req).scope, query) }),
    retrieve: async ({ params, req }) => ({
      status: 200,
      body: { data: await endpoints.getEndpoint(ctx.db, actorOf(req).scope, params.id) },
    }),
    retrieveByExternalId: async ({ params, req }) => ({
      status: 200,
      body: { data: await endpoints.getEndpointByExternalId(ctx.db, actorOf(req).scope, params.external_id) },
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await endpoints.updateEndpoint(ctx, actorOf(req).scope, params.id, body) },
    }),
    delete: async ({ params, req }) => ({
      status: 200,
      body: { data: await endpoints.deleteEndpoint(ctx.db, actorOf(req).scope, params.id) },
    }),
    rollSecret: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await endpoints.rollEndpointSecret(ctx, actorOf(req).scope, params.id, body?.expires_in_seconds) },
    }),
    replay: async ({ params, body, req }) => ({
      status: 202,
      body: { data: await replayEvents(ctx.db, actorOf(req).scope, params.id, body) },
    }),
    test: async ({ params, req }) => ({ status: 202, body: { data: await sendTestEvent(ctx.db, actorOf(req).scope, params.id) } }),
    listAttempts: async ({ params, query, req }) => {
      const { scope } = actorOf(req);
      const endpoint = await endpoints.getEndpointRow(ctx.db, scope, params.id);
      return { status: 200, body: await listAttempts(ctx.db, scope, endpoint.id, query) };
    },
  });
