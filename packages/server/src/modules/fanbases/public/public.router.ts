import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { customerPrincipal } from '../../../core/auth/customer-token';
import type { AppContext } from '../../../core/context';
import { actorOf, type TenantPrincipal } from '../../../core/principal';
import { customerOf, requireCustomer } from '../fanbases-access';
import * as members from '../memberships/memberships.service';
import { subscribe } from '../subscriptions/subscribe.service';
import * as subscriptions from '../subscriptions/subscriptions.service';
import { getPublicFanbase } from './public-fanbase.service';

const s = initServer();

/** The viewer of a public read: a signed-in person's customer, or a customer token beside a publishable key (which must then be valid). */
async function viewerOf(ctx: AppContext, caller: TenantPrincipal, authorization: string | undefined): Promise<string | null> {
  if (caller.kind === 'publishable' && authorization) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    return (await customerPrincipal(ctx, caller, bearer)).customer;
  }
  return customerOf(caller);
}

export const fanbasesPublicRouter = (ctx: AppContext) =>
  s.router(contract.fanbasesPublic, {
    retrievePublicFanbase: async ({ params, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await getPublicFanbase(ctx, caller.scope, params.fanbase, await viewerOf(ctx, caller, req.headers.authorization)) } };
    },
    join: async ({ params, req }) => {
      const caller = actorOf(req);
      const { created, membership } = await members.joinFanbase(ctx, caller.scope, params.fanbase, requireCustomer(caller));
      return created ? { status: 201, body: { data: membership } } : { status: 200, body: { data: membership } };
    },
    leave: async ({ params, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await members.leaveFanbase(ctx, caller.scope, params.fanbase, requireCustomer(caller)) } };
    },
    subscribe: async ({ params, body, req }) => {
      const caller = actorOf(req);
      return { status: 201, body: { data: await subscribe(ctx, caller.scope, params.fanbase, requireCustomer(caller), body) } };
    },
    listMySubscriptions: async ({ req }) => {
      const caller = actorOf(req);
      return { status: 200, body: await subscriptions.mySubscriptions(ctx, caller.scope, requireCustomer(caller)) };
    },
    cancelMySubscription: async ({ params, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await subscriptions.cancelByFan(ctx, caller.scope, requireCustomer(caller), params.id) } };
    },
    resumeMySubscription: async ({ params, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await subscriptions.resumeByFan(ctx, caller.scope, requireCustomer(caller), params.id) } };
    },
    renewMySubscription: async ({ params, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await subscriptions.renewByFan(ctx, caller.scope, requireCustomer(caller), params.id) } };
    },
    changeMySubscriptionTier: async ({ params, body, req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: await subscriptions.changeTierByFan(ctx, caller.scope, requireCustomer(caller), params.id, body.tier) } };
    },
    listMyMemberships: async ({ req }) => {
      const caller = actorOf(req);
      return { status: 200, body: await members.myMemberships(ctx, caller.scope, requireCustomer(caller)) };
    },
  });
