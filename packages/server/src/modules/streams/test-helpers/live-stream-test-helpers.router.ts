import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { actorOf } from '../../../core/principal';
import type { StreamsDeps } from '../streams-deps';
import { simulateLiveStream } from './simulate-live-stream';

const s = initServer();

export const liveStreamTestHelpersRouter = (deps: StreamsDeps) =>
  s.router(contract.streams.liveStreamTestHelpers, {
    simulate: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await simulateLiveStream(deps, actorOf(req).scope, params.id, body) },
    }),
  });
