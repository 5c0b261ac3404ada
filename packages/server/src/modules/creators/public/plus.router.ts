import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { getPublicCapsule, setFollowing } from './public-capsule.service';
import { getPublicContent, listPublicContents } from './public-contents.service';
import { requireViewer, viewerOf } from './viewer';

const s = initServer();

/** Public reads (a publishable key or the tenant header), and following for signed-in customers. */
export const plusRouter = (ctx: AppContext) =>
  s.router(contract.creators.plus, {
    listPublicContents: async ({ query: { organization, type, ...page }, req }) => {
      const caller = actorOf(req);
      const viewer = await viewerOf(ctx, caller, req.headers.authorization);
      return { status: 200, body: await listPublicContents(ctx, caller.scope, { organization, type }, page, viewer) };
    },
    retrievePublicContent: async ({ params, req }) => {
      const caller = actorOf(req);
      const viewer = await viewerOf(ctx, caller, req.headers.authorization);
      return { status: 200, body: { data: await getPublicContent(ctx, caller.scope, params.content, viewer) } };
    },
    retrievePublicCapsule: async ({ params, req }) => {
      const caller = actorOf(req);
      const viewer = await viewerOf(ctx, caller, req.headers.authorization);
      return { status: 200, body: { data: await getPublicCapsule(ctx, caller.scope, params.slug, viewer, req.domain) } };
    },
    followCapsule: async ({ params, req }) => {
      const caller = actorOf(req);
      const customer = await requireViewer(ctx, caller, req.headers.authorization);
      return { status: 200, body: { data: await setFollowing(ctx, caller.scope, params.slug, customer, true) } };
    },
    unfollowCapsule: async ({ params, req }) => {
      const caller = actorOf(req);
      const customer = await requireViewer(ctx, caller, req.headers.authorization);
      return { status: 200, body: { data: await setFollowing(ctx, caller.scope, params.slug, customer, false) } };
    },
  });
