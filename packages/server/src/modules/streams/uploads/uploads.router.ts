import { initServer } from '@ts-rest/express';
import { streamsContract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { keyPrincipal } from '../../../core/principal';
import { mediaDeps } from '../assets/media-deps';
import * as uploads from './uploads.service';

const s = initServer();

export const uploadsRouter = (ctx: AppContext) => {
  const deps = mediaDeps(ctx);
  return s.router(streamsContract.uploads, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await uploads.createUpload(deps, keyPrincipal(req).scope, body) } }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await uploads.getUpload(deps, keyPrincipal(req).scope, params.id) } }),
  });
};
