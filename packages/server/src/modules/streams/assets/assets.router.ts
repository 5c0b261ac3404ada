import { initServer } from '@ts-rest/express';
import { streamsContract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import * as assets from './assets.service';
import { mediaDeps } from './media-deps';

const s = initServer();

export const assetsRouter = (ctx: AppContext) => {
  const deps = mediaDeps(ctx);
  return s.router(streamsContract.assets, {
    list: async ({ query: { status, source, external_id, live_stream, metadata, ...page }, req }) => ({
      status: 200,
      body: await assets.listAssets(ctx.db, actorOf(req).scope, { status, source, external_id, live_stream, metadata }, page),
    }),
    create: async ({ body, req }) => ({ status: 201, body: { data: await assets.createAsset(deps, actorOf(req).scope, body) } }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await assets.getAsset(ctx.db, actorOf(req).scope, params.id) } }),
    retrieveByExternalId: async ({ params, req }) => ({
      status: 200,
      body: { data: await assets.getAssetByExternalId(ctx.db, actorOf(req).scope, params.external_id) },
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await assets.updateAsset(deps, actorOf(req).scope, params.id, body) },
    }),
    delete: async ({ params, req }) => ({ status: 200, body: { data: await assets.deleteAsset(deps, actorOf(req).scope, params.id) } }),
    simulate: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await assets.simulateAsset(deps, actorOf(req).scope, params.id, body) },
    }),
  });
};
