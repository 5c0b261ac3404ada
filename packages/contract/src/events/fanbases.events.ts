import { FanbaseSchema, FanbaseMembershipSchema, SubscriptionSchema } from '../fanbases/fanbases.schemas';
import { defineEvents } from './define-events';

export const fanbasesEvents = defineEvents({
  'fanbases.fanbase.created': { payload: FanbaseSchema, description: 'An organization\'s fanbase was created.' },
  'fanbases.membership.joined': { payload: FanbaseMembershipSchema, description: 'A customer joined (or joined again, or was added by the organizer).' },
  'fanbases.membership.left': { payload: FanbaseMembershipSchema, description: 'A customer left, or was removed by the organizer.' },
  'fanbases.membership.updated': { payload: FanbaseMembershipSchema, description: 'The membership\'s tier changed.' },
  'fanbases.subscription.created': { payload: SubscriptionSchema, description: 'A customer subscribed; the subscription is `incomplete` until its first order is paid.' },
  'fanbases.subscription.activated': { payload: SubscriptionSchema, description: 'The first order was paid: the subscription is `active` and its entitlements granted.' },
  'fanbases.subscription.renewed': { payload: SubscriptionSchema, description: 'A renewal order was paid: the next period began and the entitlements were extended.' },
  'fanbases.subscription.past_due': { payload: SubscriptionSchema, description: 'The period ended unpaid: access continues until `grace_ends_at`.' },
  'fanbases.subscription.updated': { payload: SubscriptionSchema, description: '`cancel_at_period_end` or `pending_tier` changed.' },
  'fanbases.subscription.cancelled': { payload: SubscriptionSchema, description: 'The subscription was cancelled (`cancellation_reason`); its entitlements were revoked.' },
  'fanbases.subscription.expired': { payload: SubscriptionSchema, description: 'The first order was never paid, or the grace period ended unpaid; its entitlements ended.' },
});
