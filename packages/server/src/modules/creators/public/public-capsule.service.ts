import type { PublicCapsule } from '@svc/contract';
import { brandOf, linkBaseOf, type ServedDomain } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { findProfile } from '../capsules/capsules.service';
import { findCapsuleOrganization } from '../creator-access';
import { publicCapsuleUrl } from '../readiness/readiness.service';
import { capsuleLinks } from './capsule-links';
import * as follows from './follows.repository';
import { serializePublicContents } from './public-contents.service';
import { countPublishedByType, latestPublished } from './public-contents.repository';
import { upcomingLiveEvents } from './upcoming-live';
import { capsuleFanbaseOf, type CapsuleFanbaseState } from './capsule-fanbase';
import { capsuleMerchOf } from './capsule-merch';

const FEATURED_DROPS = 6;
const NO_FANBASE: CapsuleFanbaseState = { fanbase: null, active: false, hasPublishedPaidTier: false, paymentsServe: false, joinedAt: null, subscribedTier: null };

/**
 * The creator organization and its profile, if the capsule is public; `404` otherwise, as for an unknown handle,
 * and for another organization's capsule on an organization's custom domain.
 */
export async function publicCapsuleOf(ctx: AppContext, scope: Scope, handle: string, domain?: ServedDomain) {
  const org = await findCapsuleOrganization(ctx, scope, handle);
  const profile = await findProfile(ctx.db, scope, org.id);
  if (!profile?.is_public || (domain?.organizationId && domain.organizationId !== org.id)) throw ApiError.notFound('capsule', handle);
  return { org, profile };
}

/** The whole public capsule; every count is read from rows (followers, published content, upcoming events). */
export async function getPublicCapsule(ctx: AppContext, scope: Scope, handle: string, viewer: string | null, domain?: ServedDomain): Promise<PublicCapsule> {
  const { org, profile } = await publicCapsuleOf(ctx, scope, handle, domain);
  const source = capsuleFanbaseOf(ctx);
  const [audience, counts, drops, posts, upcoming, followed, branding, linkBase, fan, merch] = await Promise.all([
    source ? follows.countAudience(ctx.db, scope, org.id, source.memberCustomers(ctx.db, scope, org.id)) : follows.countFollowers(ctx.db, scope, org.id),
    countPublishedByType(ctx.db, scope, org.id),
    latestPublished(ctx.db, scope, org.id, 'drop', FEATURED_DROPS),
    latestPublished(ctx.db, scope, org.id, 'post', 1),
    upcomingLiveEvents(ctx, scope, org.id),
    viewer ? follows.followedAt(ctx.db, scope, org.id, viewer) : undefined,
    brandOf(ctx, scope, org.id),
    linkBaseOf(ctx, scope, org.id, 'capsule', domain),
    source ? source.stateOf(ctx, scope, org.id, viewer) : Promise.resolve(NO_FANBASE),
    capsuleMerchOf(ctx, scope, org.id),
  ]);
  const [featuredDrops, latestPost] = await Promise.all([serializePublicContents(ctx, scope, drops, viewer), serializePublicContents(ctx, scope, posts, viewer)]);
  return {
    capsule: {
      id: profile.id,
      name: org.name,
      slug: org.handle,
      handle: org.handle,
      bio: profile.bio,
      tagline: profile.tagline,
      creator_type: profile.creator_type,
      category: profile.category,
      avatar_url: profile.avatar_url,
      cover_url: profile.cover_url,
      hero_media: profile.hero_media,
      public_url: publicCapsuleUrl(linkBase, org.handle),
      fanbase: fan.fanbase,
    },
    stats: {
      audience_count: audience,
      drops_count: counts.drop,
      videos_count: counts.video,
      live_count: upcoming.length,
      posts_count: counts.post,
      merch_count: merch.count,
    },
    branding,
    viewer_state: {
      is_following: followed !== undefined,
      is_subscribed: fan.subscribedTier !== null,
      subscription_plan_id: fan.subscribedTier,
      joined_at: fan.joinedAt ? new Date(fan.joinedAt).toISOString() : null,
    },
    featured: { drops: featuredDrops, latest_post: latestPost[0] ?? null, upcoming_live: upcoming, merch: merch.featured },
    links: capsuleLinks(profile.links),
    availability: {
      has_public_drops: counts.drop > 0,
      has_public_posts: counts.post > 0,
      has_merch: merch.count > 0,
      external_storefront_url: profile.external_storefront_url,
      join_enabled: profile.join_enabled && fan.active,
      subscription_enabled: profile.subscription_enabled && fan.active && fan.hasPublishedPaidTier && fan.paymentsServe,
    },
    social_proof: { audience_count: audience },
  };
}

/** Follows or unfollows, then answers the viewer's state and the audience (followers and members, each once) counted after the change. */
export async function setFollowing(ctx: AppContext, scope: Scope, handle: string, customer: string, following: boolean) {
  const { org } = await publicCapsuleOf(ctx, scope, handle);
  if (following) await follows.addFollower(ctx.db, scope, org.id, customer);
  else await follows.removeFollower(ctx.db, scope, org.id, customer);
  const source = capsuleFanbaseOf(ctx);
  const audience = source ? await follows.countAudience(ctx.db, scope, org.id, source.memberCustomers(ctx.db, scope, org.id)) : await follows.countFollowers(ctx.db, scope, org.id);
  return { is_following: following, audience_count: audience };
}
