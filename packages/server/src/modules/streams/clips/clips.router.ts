import { initServer } from '@ts-rest/express';
import { streamsContract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { mediaDeps } from '../assets/media-deps';
import * as clips from './clips.service';

const s = initServer();

export const clipsRouter = (ctx: AppContext) => {
  const deps = mediaDeps(ctx);
  return s.router(streamsContract.clips, {
    create: async ({ params, body, req }) => ({
      status: 201,
      body: { data: await clips.createClip(deps, actorOf(req).scope, params.id, body) },
    }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await clips.getClip(ctx.db, actorOf(req).scope, params.id) } }),
  });
};
