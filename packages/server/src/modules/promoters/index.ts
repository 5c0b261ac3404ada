import type { AppContext } from '../../core/context';
import type { ModuleDefinition } from '../../core/modules/module-definition';
import { scoped } from '../../core/scope';
import { registerPayoutTarget } from '../payments';
import { registerOrderListener } from '../ticketing';
import { attributeOrder } from './attribution/attribute-order';
import { touchReferral } from './attribution/referral-touch';
import { commissionsRouter } from './commissions.router';
import { approveCommissionsJob } from './ledger/approve-commissions.job';
import { recordPaidOrder, reverseForRefund } from './ledger/commissions.service';
import { settlePayout } from './payouts/payouts.service';
import { providerPayoutJobs } from './payouts/provider-payouts';
import { simulatedPayoutJob } from './payouts/simulated-payout.job';
import { promoterViewRouter } from './promoter-view.router';
import { promotersRouter } from './promoters.router';

const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());

/**
 * Promoters: people and organizations selling an organization's events for a commission. Tracking codes and
 * promoter-bound coupons attribute orders (through ticketing's order listener); paid orders write commission
 * entries, refunds reverse them, the approval job makes them payable and payouts pay them.
 */
export const promotersModule: ModuleDefinition = {
  name: 'promoters',
  setup: (ctx) => {
    registerOrderListener({
      attribute: (db, scope, request) => attributeOrder(ctx.secrets, db, scope, request),
      paid: (trx, scope, order, items) => recordPaidOrder(trx, scope, order, items, nowOf(ctx)),
      refunded: (trx, scope, order) => reverseForRefund(trx, scope, order, nowOf(ctx)),
      touched: (db, scope, touch) => touchReferral(ctx.secrets, db, scope, touch),
      promoterOrganization: async (db, scope, id) => (await scoped(db, scope).selectFrom('promoters').select('organization_id').where('id', '=', id).executeTakeFirst())?.organization_id ?? null,
    });
    registerPayoutTarget({
      payoutSettled: async (c, scope, id, state) => Boolean(await settlePayout(c, scope, id, state)),
      pendingOn: async (db, scope, configId) => Boolean(await scoped(db, scope).selectFrom('payouts').select('id').where('provider_config_id', '=', configId).where('status', '=', 'pending').executeTakeFirst()),
    });
  },
  routers: (ctx) => ({ promoters: promotersRouter(ctx), commissions: commissionsRouter(ctx), promoterView: promoterViewRouter(ctx) }),
  jobs: (ctx) => [
    approveCommissionsJob(ctx),
    ...providerPayoutJobs(ctx),
    simulatedPayoutJob(ctx, settlePayout, async (c, scope, id) => (await scoped(c.db, scope).selectFrom('payouts').select('phone').where('id', '=', id).executeTakeFirst())?.phone ?? null),
  ],
};
