import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { actorOf } from '../../../core/principal';
import { VersionedPages } from '../../../core/versioned-pages';
import type { StreamsDeps } from '../streams-deps';
import { signalLiveStream } from './live-stream-actions.service';
import * as streams from './live-streams.service';
import { addSimulcastTarget, removeSimulcastTarget } from './simulcast-targets.service';

const s = initServer();

export const liveStreamsRouter = (deps: StreamsDeps, pages = new VersionedPages(deps.db, 'live_streams')) =>
  s.router(contract.streams.liveStreams, {
    list: async ({ query: { external_id, metadata, expand, ...page }, req }) => ({
      status: 200,
      body: await streams.listLiveStreams(deps, pages, actorOf(req).scope, { external_id, metadata, expand }, page),
    }),
    create: async ({ body, req }) => ({ status: 201, body: { data: await streams.createLiveStream(deps, actorOf(req).scope, body) } }),
    retrieve: async ({ params, query, req }) => ({
      status: 200,
      body: { data: await streams.getLiveStream(deps, actorOf(req).scope, params.id, query.expand) },
    }),
    retrieveByExternalId: async ({ params, query, req }) => ({
      status: 200,
      body: { data: await streams.getLiveStreamByExternalId(deps, actorOf(req).scope, params.external_id, query.expand) },
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await streams.updateLiveStream(deps, actorOf(req).scope, params.id, body) },
    }),
    delete: async ({ params, req }) => ({ status: 200, body: { data: await streams.deleteLiveStream(deps, actorOf(req).scope, params.id) } }),
    disable: async ({ params, req }) => ({ status: 200, body: { data: await signalLiveStream(deps, actorOf(req).scope, params.id, 'disable') } }),
    enable: async ({ params, req }) => ({ status: 200, body: { data: await signalLiveStream(deps, actorOf(req).scope, params.id, 'enable') } }),
    complete: async ({ params, req }) => ({ status: 200, body: { data: await signalLiveStream(deps, actorOf(req).scope, params.id, 'complete') } }),
    resetStreamKey: async ({ params, req }) => ({
      status: 200,
      body: { data: await streams.resetStreamKey(deps, actorOf(req).scope, params.id) },
    }),
    createSimulcastTarget: async ({ params, body, req }) => ({
      status: 201,
      body: { data: await addSimulcastTarget(deps, actorOf(req).scope, params.id, body) },
    }),
    deleteSimulcastTarget: async ({ params, req }) => ({
      status: 200,
      body: { data: await removeSimulcastTarget(deps, actorOf(req).scope, params.id, params.target_id) },
    }),
  });
