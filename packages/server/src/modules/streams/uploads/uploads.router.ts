import { initServer } from '@ts-rest/express';
import { streamsContract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { mediaDeps } from '../assets/media-deps';
import * as uploads from './uploads.service';

const s = initServer();

export const uploadsRouter = (ctx: AppContext) => {
  const deps = mediaDeps(ctx);
  return s.router(streamsContract.uploads, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await uploads.createUpload(deps, actorOf(req).scope, body) } }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await uploads.getUpload(deps, actorOf(req).scope, params.id) } }),
  });
};
