import { linkBaseOf } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { CapsuleProfileRow } from '../../../db/creators.schema';
import { countOrganizationsWithHandle, hasVerifiedMemberContact, type OrganizationRow } from '../../identity';
import { computeReadiness } from './readiness';

/** The address of the public capsule: the public read of it, on `base` (the organization's or tenant's capsule domain, else this server). */
export const publicCapsuleUrl = (base: string, handle: string) => `${base}/v1/public/capsules/${encodeURIComponent(handle)}`;

/** Readiness of a capsule, read from its organization, profile and members. */
export async function readinessOf(ctx: AppContext, scope: Scope, org: OrganizationRow, profile: CapsuleProfileRow) {
  const [sameHandle, hasContact, base] = await Promise.all([
    countOrganizationsWithHandle(ctx.db, scope, org.handle),
    hasVerifiedMemberContact(ctx.db, org.tenant_id, org.id),
    linkBaseOf(ctx, scope, org.id, 'capsule'),
  ]);
  return computeReadiness({
    name: org.name,
    handle: org.handle,
    handleUnique: sameHandle === 1,
    hasAvatar: profile.avatar_url !== null,
    hasCover: profile.cover_url !== null,
    bio: profile.bio,
    hasVerifiedContact: hasContact,
    links: profile.links,
    joinEnabled: profile.join_enabled,
    subscriptionEnabled: profile.subscription_enabled,
    isPublic: profile.is_public,
    externalStorefrontUrl: profile.external_storefront_url,
    publicCapsuleUrl: publicCapsuleUrl(base, org.handle),
  });
}
