import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { Request } from 'express';
import type { AppContext } from '../../../core/context';
import { keyPrincipal } from '../../../core/principal';
import { accessDeps } from '../access-deps';
import { heartbeatSession } from './heartbeat-session';
import { sessionCaller } from './session-caller';
import * as sessions from './sessions.service';

const s = initServer();

const callerOf = (req: Request) => sessionCaller(req.principal, req.get('Origin'));

export const accessSessionsRouter = (ctx: AppContext) => {
  const deps = accessDeps(ctx);
  const open = async ({ body, req }: { body: Parameters<typeof sessions.openSession>[3]; req: Request }) => ({
    status: 201 as const,
    body: { data: await sessions.openSession(deps, keyPrincipal(req).scope, callerOf(req), body) },
  });
  return s.router(contract.access.sessions, {
    open,
    createPlaybackToken: open,
    heartbeat: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await heartbeatSession(deps, keyPrincipal(req).scope, callerOf(req), params.id, body) },
    }),
    end: async ({ params, query, req }) => ({
      status: 200,
      body: { data: await sessions.endSessionByCaller(deps, keyPrincipal(req).scope, callerOf(req), params.id, query) },
    }),
  });
};
