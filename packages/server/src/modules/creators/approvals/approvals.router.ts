import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { actorFrom } from '../creator-access';
import { listApprovals } from './approvals-list';
import * as approvals from './approvals.service';

const s = initServer();

/** The tenant admin's review queue and decisions; `{content}` is the slug (a `cnt_` id works too). */
export const approvalsRouter = (ctx: AppContext) =>
  s.router(contract.creators.approvals, {
    listApprovals: async ({ query, req }) => ({ status: 200, body: await listApprovals(ctx, actorOf(req).scope, query) }),
    retrieveApproval: async ({ params, req }) => ({ status: 200, body: { data: await approvals.getApproval(ctx, actorOf(req).scope, params.content) } }),
    approve: async ({ params, body, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await approvals.approveContent(ctx, caller.scope, params.content, actorFrom(caller), body.note ?? null) } };
    },
    reject: async ({ params, body, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await approvals.rejectContent(ctx, caller.scope, params.content, actorFrom(caller), body.reason) } };
    },
    requestChanges: async ({ params, body, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await approvals.requestChanges(ctx, caller.scope, params.content, actorFrom(caller), body) } };
    },
    publish: async ({ params, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await approvals.publishContent(ctx, caller.scope, params.content, actorFrom(caller)) } };
    },
  });
