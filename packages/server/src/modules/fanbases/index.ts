import type { ModuleDefinition } from '../../core/modules/module-definition';
import { capsuleFanbasePart } from '../creators';
import { registerSavedCardDependents } from '../payments';
import { eventMembershipPart, registerOrderKind } from '../ticketing';
import { fanbasesRouter } from './fanbases/fanbases.router';
import { onTierChanged } from './memberships/member-entitlements';
import { onMembershipEnding } from './memberships/memberships.service';
import { capsuleFanbaseSource } from './public/capsule-source';
import { fanbasesPublicRouter } from './public/public.router';
import { renewSubscriptionsJob } from './subscriptions/renew-subscriptions.job';
import { renewalChargeJob } from './subscriptions/renewal-charge.job';
import { renewalPromptJob } from './subscriptions/renewal-prompt.job';
import { subscriptionOrderKind } from './subscriptions/subscription-kind';
import { endWithMembership, renewingOnConfig, syncSubscriptionsOfTier } from './subscriptions/subscriptions.service';
import { subscriptionsRouter } from './subscriptions/subscriptions.router';
import { syncTierJob } from './tiers/sync-tier.job';

let wired = false;

/**
 * Fanbases: an organization's community of fans, its membership tiers (free or paid), memberships (joined,
 * subscribed or comp), subscriptions with their renewal, and the Access entitlements that follow them.
 * Subscription orders are ticketing's orders of kind `subscription`, whose moves reach this module through the
 * handler registered here; the public capsule (creators) reads the fanbase through the source registered here.
 */
export const fanbasesModule: ModuleDefinition = {
  name: 'fanbases',
  setup: (ctx) => {
    capsuleFanbasePart.set(ctx, capsuleFanbaseSource);
    // Gated events ask the fanbase who is a member, through this part (ticketing imports no fanbases code).
    eventMembershipPart.set(ctx, { heldTiers: capsuleFanbaseSource.heldTiers, tiersOfOrganization: capsuleFanbaseSource.tiersOfOrganization });
    registerOrderKind(subscriptionOrderKind);
    // A payment configuration whose kept cards renew subscriptions is not deleted under them.
    registerSavedCardDependents(renewingOnConfig);
    // The module's own resources, wired once per process: memberships end subscriptions, tiers reach subscribers.
    if (wired) return;
    wired = true;
    onMembershipEnding((trx, scope, m, how, now) => endWithMembership(trx, scope, m, how, now));
    onTierChanged((c, scope, tier) => syncSubscriptionsOfTier(c, scope, tier.id));
  },
  routers: (ctx) => ({ fanbases: fanbasesRouter(ctx), fanbasesPublic: fanbasesPublicRouter(ctx), subscriptions: subscriptionsRouter(ctx) }),
  jobs: (ctx) => [syncTierJob(ctx), renewSubscriptionsJob(ctx), renewalPromptJob(ctx), renewalChargeJob(ctx)],
};
