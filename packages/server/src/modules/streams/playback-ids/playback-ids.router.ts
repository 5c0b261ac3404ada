import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { actorOf } from '../../../core/principal';
import type { StreamsDeps } from '../streams-deps';
import { createPlaybackId, createPreviewLink, deletePlaybackId } from './playback-ids.service';

const s = initServer();

export const playbackIdsRouter = (deps: StreamsDeps) =>
  s.router(contract.streams.playbackIds, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await createPlaybackId(deps, actorOf(req).scope, body) } }),
    delete: async ({ params, req }) => ({ status: 200, body: { data: await deletePlaybackId(deps, actorOf(req).scope, params.id) } }),
    createPreviewLink: async ({ params, req }) => ({ status: 201, body: { data: await createPreviewLink(deps, actorOf(req).scope, params.id) } }),
  });
