import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { exportMembers } from '../memberships/members-export';
import * as members from '../memberships/memberships.service';
import * as tiers from '../tiers/tiers.service';
import * as fanbases from './fanbases.service';

const s = initServer();

export const fanbasesRouter = (ctx: AppContext) =>
  s.router(contract.fanbases, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await fanbases.createFanbase(ctx, actorOf(req), body) } }),
    list: async ({ query: { organization, status, metadata, ...page }, req }) => ({
      status: 200,
      body: await fanbases.listFanbases(ctx, actorOf(req), { organization, status, metadata }, page),
    }),
    retrieveByExternalId: async ({ params, req }) => ({ status: 200, body: { data: await fanbases.getFanbaseByExternalId(ctx, actorOf(req), params.external_id) } }),
    retrieve: async ({ params, req }) => ({
      status: 200,
      body: { data: await fanbases.presentFanbase(ctx, await fanbases.fanbaseFor(ctx, actorOf(req), params.id, 'fanbases:read')) },
    }),
    update: async ({ params, body, req }) => ({ status: 200, body: { data: await fanbases.updateFanbase(ctx, actorOf(req), params.id, body) } }),
    createTier: async ({ params, body, req }) => ({ status: 201, body: { data: await tiers.createTier(ctx, actorOf(req), params.id, body) } }),
    listTiers: async ({ params, query: { status, ...page }, req }) => ({ status: 200, body: await tiers.listTiers(ctx, actorOf(req), params.id, status, page) }),
    retrieveTier: async ({ params, req }) => ({ status: 200, body: { data: await tiers.getTier(ctx, actorOf(req), params.id, params.tier) } }),
    updateTier: async ({ params, body, req }) => ({ status: 200, body: { data: await tiers.updateTier(ctx, actorOf(req), params.id, params.tier, body) } }),
    listMembers: async ({ params, query: { status, tier, source, subscription_status, search, metadata, expand, ...page }, req }) => ({
      status: 200,
      body: await members.listMembers(ctx, actorOf(req), params.id, { status, tier, source, subscription_status, search, metadata }, page, expand),
    }),
    exportMembers: async ({ params, query, req, res }) => {
      const { csv, filename } = await exportMembers(ctx, actorOf(req), params.id, query);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      return { status: 200, body: csv };
    },
    retrieveMember: async ({ params, query, req }) => ({ status: 200, body: { data: await members.getMember(ctx, actorOf(req), params.id, params.membership, query.expand) } }),
    addMember: async ({ params, body, req }) => ({ status: 201, body: { data: await members.addMember(ctx, actorOf(req), params.id, body) } }),
    removeMember: async ({ params, req }) => ({ status: 200, body: { data: await members.removeMember(ctx, actorOf(req), params.id, params.membership) } }),
  });
