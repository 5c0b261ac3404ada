import type { PublicFanbase } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import { getOrganizationRow } from '../../identity';
import { findPublicFanbase } from '../fanbases/fanbases.service';
import { fanbaseOpenings } from '../memberships/fanbase-gates';
import * as memberships from '../memberships/membership-rows.service';
import { serializeMembership } from '../memberships/memberships.serializer';
import * as tiers from '../tiers/tier-rows.service';

/** The fanbase as fans see it: published tiers (whether each can be taken now, never counts) and the viewer's membership. */
export async function getPublicFanbase(ctx: AppContext, scope: Scope, ref: string, viewer: string | null): Promise<PublicFanbase> {
  const fanbase = await findPublicFanbase(ctx, scope, ref);
  const [org, open, published, own] = await Promise.all([
    getOrganizationRow(ctx.db, scope, fanbase.organization_id),
    fanbaseOpenings(ctx, scope, fanbase),
    tiers.publishedTiers(ctx.db, scope, fanbase.id),
    viewer ? memberships.findOfCustomer(ctx.db, scope, fanbase.id, viewer) : undefined,
  ]);
  const available = await Promise.all(
    published.map(async (t) => {
      if (Number(t.price) === 0) return open.join;
      if (!open.subscribe) return false;
      return t.max_members === null || (await tiers.liveSubscriptionCount(ctx.db, t.id)) < t.max_members;
    }),
  );
  const view = own ? (await memberships.findViews(ctx.db, scope, [own.id]))[0] : undefined;
  return {
    id: fanbase.id,
    object: 'fanbase',
    organization: { id: org.id, name: org.name, handle: org.handle },
    name: fanbase.name,
    description: fanbase.description,
    status: fanbase.status,
    currency: fanbase.currency,
    join_enabled: open.join,
    subscription_enabled: open.subscribe,
    tiers: published.map((t, i) => ({
      id: t.id,
      object: 'membership_tier',
      name: t.name,
      description: t.description,
      price: Number(t.price),
      currency: t.currency,
      interval: t.interval,
      benefits: t.benefits,
      position: t.position,
      available: available[i]!,
    })),
    membership: view ? serializeMembership(view) : null,
  };
}
