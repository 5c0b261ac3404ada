import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { Request } from 'express';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { accessDeps } from '../access-deps';
import { heartbeatSession } from './heartbeat-session';
import { sessionCaller } from './session-caller';
import { endSessionByCaller } from './end-session';
import { openSession } from './open-session';

const s = initServer();

const callerOf = (req: Request) => sessionCaller(actorOf(req), req.get('Origin'));

export const accessSessionsRouter = (ctx: AppContext) => {
  const deps = accessDeps(ctx);
  const open = async ({ body, req }: { body: Parameters<typeof openSession>[3]; req: Request }) => ({
    status: 201 as const,
    body: { data: await openSession(deps, actorOf(req).scope, callerOf(req), body) },
  });
  return s.router(contract.access.sessions, {
    open,
    createPlaybackToken: open,
    heartbeat: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await heartbeatSession(deps, actorOf(req).scope, callerOf(req), params.id, body) },
    }),
    end: async ({ params, query, req }) => ({
      status: 200,
      body: { data: await endSessionByCaller(deps, actorOf(req).scope, callerOf(req), params.id, query) },
    }),
  });
};
