import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { actorFrom, creatorOrganization } from '../creator-access';
import * as contents from '../contents/contents.service';
import { serializeContent } from '../contents/contents.serializer';
import * as capsules from './capsules.service';

const s = initServer();

/** A creator's own routes: the capsule profile, its readiness, and content. `{org}` is the handle. */
export const creatorRouter = (ctx: AppContext) =>
  s.router(contract.creators.creator, {
    retrieveCapsuleProfile: async ({ params, req }) => {
      const caller = actorOf(req);
      const org = await creatorOrganization(ctx, caller, params.org, 'capsules:read');
      return { status: 200, body: { data: await capsules.getProfile(ctx, caller.scope, org) } };
    },
    updateCapsuleProfile: async ({ params, body, req }) => {
      const caller = actorOf(req);
      const org = await creatorOrganization(ctx, caller, params.org, 'capsules:write');
      return { status: 200, body: { data: await capsules.updateProfile(ctx, caller.scope, org, body) } };
    },
    retrieveReadiness: async ({ params, req }) => {
      const caller = actorOf(req);
      const org = await creatorOrganization(ctx, caller, params.org, 'capsules:read');
      return { status: 200, body: { data: await capsules.getReadiness(ctx, caller.scope, org) } };
    },
    createContent: async ({ params, body, req }) => {
      const caller = actorOf(req);
      const org = await creatorOrganization(ctx, caller, params.org, 'capsules:write');
      return { status: 201, body: { data: await contents.createContent(ctx, caller.scope, org, body) } };
    },
    listContents: async ({ params, query: { status, ...page }, req }) => {
      const caller = actorOf(req);
      const org = await creatorOrganization(ctx, caller, params.org, 'capsules:read');
      return { status: 200, body: await contents.listContents(ctx, caller.scope, org, status, page) };
    },
    retrieveContent: async ({ params, req }) => {
      const caller = actorOf(req);
      const org = await creatorOrganization(ctx, caller, params.org, 'capsules:read');
      return { status: 200, body: { data: serializeContent(await contents.getContentRow(ctx, caller.scope, org, params.content)) } };
    },
    updateContent: async ({ params, body, req }) => {
      const caller = actorOf(req);
      const org = await creatorOrganization(ctx, caller, params.org, 'capsules:write');
      return { status: 200, body: { data: await contents.updateContent(ctx, caller.scope, org, params.content, body) } };
    },
    submitContent: async ({ params, req }) => {
      const caller = actorOf(req);
      const org = await creatorOrganization(ctx, caller, params.org, 'capsules:write');
      return { status: 200, body: { data: await contents.submitContent(ctx, caller.scope, org, params.content, actorFrom(caller)) } };
    },
  });
