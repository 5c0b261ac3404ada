import { z } from 'zod';
import { PublicContentSchema } from './contents.schemas';
import { EffectiveBrandingSchema } from '../whitelabel/branding.schemas';
import { PublicProductSchema } from '../commerce/products.schemas';

/** A public ticketed event as ticketing's public reads answer it (that module owns its fields). */
export const PublicEventRefSchema = z.looseObject({ id: z.string() }).meta({ id: 'PublicEventRef' });
export type PublicEventRef = z.infer<typeof PublicEventRefSchema>;

export const CapsuleLinkSchema = z.object({ type: z.string(), label: z.string(), url: z.string() }).meta({ id: 'CapsuleLink' });

export const PublicCapsuleSchema = z
  .object({
    capsule: z.object({
      id: z.string(),
      name: z.string(),
      slug: z.string(),
      handle: z.string(),
      bio: z.string().nullable(),
      tagline: z.string().nullable(),
      creator_type: z.string().nullable(),
      category: z.string().nullable(),
      avatar_url: z.string().nullable(),
      cover_url: z.string().nullable(),
      hero_media: z.array(z.string()).nullable(),
      public_url: z.string(),
      fanbase: z.string().nullable().describe("The organization's fanbase (`fan_`), or `null`."),
    }),
    stats: z.object({
      audience_count: z.number().int().min(0),
      drops_count: z.number().int().min(0),
      videos_count: z.number().int().min(0),
      live_count: z.number().int(),
      posts_count: z.number().int(),
      merch_count: z.number().int(),
    }),
    branding: EffectiveBrandingSchema.describe('The creator organization\'s effective branding (its own, else the tenant\'s).'),
    viewer_state: z.object({
      is_following: z.boolean(),
      is_subscribed: z.boolean().describe('The viewer has a subscription to the fanbase that is `active` or `past_due`.'),
      subscription_plan_id: z.string().nullable().describe("That subscription's tier (`mtr_`), else `null`."),
      joined_at: z.string().nullable().describe("The viewer's active membership's `joined_at`, else `null`."),
    }),
    featured: z.object({
      drops: z.array(PublicContentSchema),
      latest_post: PublicContentSchema.nullable(),
      upcoming_live: z.array(PublicEventRefSchema),
      merch: z.array(PublicProductSchema).nullable().describe('Up to 6 published products of the organization, newest published first; `null` when it has none.'),
    }),
    links: z.array(CapsuleLinkSchema),
    availability: z.object({
      has_public_drops: z.boolean(),
      has_public_posts: z.boolean(),
      has_merch: z.boolean(),
      external_storefront_url: z.string().nullable(),
      join_enabled: z.boolean().describe("The profile's `join_enabled` and an `active` fanbase."),
      subscription_enabled: z.boolean().describe("The profile's `subscription_enabled`, an `active` fanbase with a published paid tier, and in live mode a payment configuration serving the organization."),
    }),
    social_proof: z.object({ audience_count: z.number().int().min(0) }),
  })
  .meta({ id: 'PublicCapsule' });
export type PublicCapsule = z.infer<typeof PublicCapsuleSchema>;

export const FollowStateSchema = z
  .object({ is_following: z.boolean(), audience_count: z.number().int().min(0) })
  .meta({ id: 'CapsuleFollowState' });

/** The older page-numbered list (the approvals queue), field for field as the spec gives it. */
export const pageLinksListOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    links: z.object({ first: z.string(), last: z.string(), prev: z.string().nullable(), next: z.string().nullable() }),
    meta: z.object({
      current_page: z.number().int(),
      from: z.number().int().nullable(),
      last_page: z.number().int(),
      links: z.array(z.object({ url: z.string().nullable(), label: z.string(), active: z.boolean() })),
      path: z.string(),
      per_page: z.number().int(),
      to: z.number().int().nullable(),
      total: z.number().int(),
    }),
  });
