import { initServer } from '@ts-rest/express';
import { streamsContract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { mediaDeps } from '../assets/media-deps';
import * as moments from './moments.service';

const s = initServer();

export const momentsRouter = (ctx: AppContext) => {
  const deps = mediaDeps(ctx);
  return s.router(streamsContract.moments, {
    create: async ({ params, body, req }) => ({
      status: 201,
      body: { data: await moments.createMoment(deps, actorOf(req).scope, params.id, body) },
    }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await moments.getMoment(ctx.db, actorOf(req).scope, params.id) } }),
    cancel: async ({ params, req }) => ({ status: 200, body: { data: await moments.cancelMoment(deps, actorOf(req).scope, params.id) } }),
    listForAsset: async ({ params, query, req }) => ({
      status: 200,
      body: await moments.listMomentsForAsset(ctx.db, actorOf(req).scope, params.id, query),
    }),
  });
};
