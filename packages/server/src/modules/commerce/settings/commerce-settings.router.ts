import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { requireCommercePermission } from '../commerce-access';
import * as settings from './commerce-settings.service';

const s = initServer();

export const commerceSettingsRouter = (ctx: AppContext) =>
  s.router(contract.commerce.settings, {
    retrieve: async ({ params, req }) => {
      const caller = actorOf(req);
      await requireCommercePermission(ctx, caller, params.id, 'commerce:read');
      return { status: 200, body: { data: await settings.getCommerceSettings(ctx, caller.scope, params.id) } };
    },
    update: async ({ params, body, req }) => {
      const caller = actorOf(req);
      await requireCommercePermission(ctx, caller, params.id, 'commerce:write');
      return { status: 200, body: { data: await settings.updateCommerceSettings(ctx, caller.scope, params.id, body) } };
    },
  });
