import type { CapsuleProfile, UpdateCapsuleProfile } from '@svc/contract';
import type { Updateable } from 'kysely';
import { linkBaseOf } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { CapsuleProfileRow, CapsuleProfilesTable } from '../../../db/creators.schema';
import type { OrganizationRow } from '../../identity';
import { publicCapsuleUrl, readinessOf } from '../readiness/readiness.service';
import { resolveImage } from './capsule-images';
import * as repo from './capsules.repository';

export async function serializeProfile(ctx: AppContext, scope: Scope, org: OrganizationRow, row: CapsuleProfileRow): Promise<CapsuleProfile> {
  const base = await linkBaseOf(ctx, scope, org.id, 'capsule');
  return {
    organization_id: org.id,
    capsule_id: row.id,
    name: org.name,
    handle: org.handle,
    avatar_url: row.avatar_url,
    cover_url: row.cover_url,
    profile: row.bio ?? [],
    public_capsule_url: publicCapsuleUrl(base, org.handle),
    is_public: row.is_public,
    readiness: await readinessOf(ctx, scope, org, row),
    tagline: row.tagline,
    creator_type: row.creator_type,
    category: row.category,
    hero_media: row.hero_media,
    links: row.links,
    external_storefront_url: row.external_storefront_url,
    join_enabled: row.join_enabled,
    subscription_enabled: row.subscription_enabled,
    avatar_asset: row.avatar_asset_id,
    cover_asset: row.cover_asset_id,
  };
}

export async function getProfile(ctx: AppContext, scope: Scope, org: OrganizationRow) {
  return serializeProfile(ctx, scope, org, await repo.ensureProfile(ctx.db, scope, org.id));
}

export async function getReadiness(ctx: AppContext, scope: Scope, org: OrganizationRow) {
  return readinessOf(ctx, scope, org, await repo.ensureProfile(ctx.db, scope, org.id));
}

/** Sets the fields given; images are checked before anything is written. */
export async function updateProfile(ctx: AppContext, scope: Scope, org: OrganizationRow, input: UpdateCapsuleProfile) {
  const changes: Updateable<CapsuleProfilesTable> = {};
  if (input.tagline !== undefined) changes.tagline = input.tagline;
  if (input.bio !== undefined) changes.bio = input.bio;
  if (input.creator_type !== undefined) changes.creator_type = input.creator_type;
  if (input.category !== undefined) changes.category = input.category;
  if (input.hero_media !== undefined) changes.hero_media = JSON.stringify(input.hero_media ?? []);
  if (input.links !== undefined) changes.links = JSON.stringify(input.links ?? []);
  if (input.external_storefront_url !== undefined) changes.external_storefront_url = input.external_storefront_url;
  if (input.join_enabled !== undefined) changes.join_enabled = input.join_enabled;
  if (input.subscription_enabled !== undefined) changes.subscription_enabled = input.subscription_enabled;
  // `null` is "not public", the safe reading of a cleared switch.
  if (input.is_public !== undefined) changes.is_public = input.is_public ?? false;
  if (input.avatar_asset !== undefined) {
    const image = await resolveImage(ctx, scope, 'avatar_asset', input.avatar_asset);
    Object.assign(changes, { avatar_asset_id: image.assetId, avatar_url: image.url });
  }
  if (input.cover_asset !== undefined) {
    const image = await resolveImage(ctx, scope, 'cover_asset', input.cover_asset);
    Object.assign(changes, { cover_asset_id: image.assetId, cover_url: image.url });
  }
  await repo.ensureProfile(ctx.db, scope, org.id);
  const row = await repo.updateProfile(ctx.db, scope, org.id, changes);
  return serializeProfile(ctx, scope, org, row);
}

export { findProfile } from './capsules.repository';
