import { z } from 'zod';

/** The items of a capsule's readiness, each worth its weight when done (docs/decisions.md, "Creators"). */
export const READINESS_WEIGHTS = {
  name: 15,
  handle: 15,
  avatar: 15,
  bio: 15,
  cover: 10,
  contact: 10,
  links: 10,
  audience_enabled: 10,
} as const;
export type ReadinessItem = keyof typeof READINESS_WEIGHTS;
export const READINESS_ITEMS = Object.keys(READINESS_WEIGHTS) as ReadinessItem[];

export const READINESS_WARNINGS = ['bio_short', 'cover_missing', 'storefront_not_https'] as const;
export const SHARE_BLOCKERS = ['name_missing', 'handle_missing', 'not_public'] as const;

export const ReadinessSchema = z
  .object({
    score: z.number().int().describe('The sum of the weights of the completed items (0 to 100).'),
    status: z.enum(['strong', 'shareable', 'draft']).describe('`draft` while any share blocker remains or below 50; `shareable` from 50; `strong` from 80.'),
    public_capsule_url: z.string(),
    completed_items: z.array(z.enum(READINESS_ITEMS as [ReadinessItem, ...ReadinessItem[]])),
    missing_items: z.array(z.enum(READINESS_ITEMS as [ReadinessItem, ...ReadinessItem[]])),
    warnings: z.array(z.enum(READINESS_WARNINGS)),
    share_blockers: z.array(z.enum(SHARE_BLOCKERS)),
  })
  .meta({ id: 'CapsuleReadiness' });
export type Readiness = z.infer<typeof ReadinessSchema>;

export const CapsuleProfileSchema = z
  .object({
    organization_id: z.string(),
    capsule_id: z.string().describe('Starts `cap_`.'),
    name: z.string(),
    handle: z.string(),
    avatar_url: z.string().nullable(),
    cover_url: z.string().nullable(),
    profile: z.union([z.string(), z.array(z.never())]).describe('The bio, or an empty array when there is none.'),
    public_capsule_url: z.string(),
    is_public: z.boolean(),
    readiness: ReadinessSchema,
    // Beside the spec's fields: what PATCH sets, so a form can show it again.
    tagline: z.string().nullable(),
    creator_type: z.string().nullable(),
    category: z.string().nullable(),
    hero_media: z.array(z.string()),
    links: z.array(z.string()),
    external_storefront_url: z.string().nullable(),
    join_enabled: z.boolean(),
    subscription_enabled: z.boolean(),
    avatar_asset: z.string().nullable().describe('The `ast_` asset the avatar comes from, when it is one.'),
    cover_asset: z.string().nullable(),
  })
  .meta({ id: 'CapsuleProfile' });
export type CapsuleProfile = z.infer<typeof CapsuleProfileSchema>;

const HttpsUrl = z.url({ protocol: /^https$/ }).max(2048);
const ImageSchema = z
  .union([z.string().regex(/^ast_[0-9a-z]{26}$/, 'An `ast_` asset id or an https URL.'), HttpsUrl])
  .nullable()
  .optional();

export const UpdateCapsuleProfileSchema = z
  .object({
    tagline: z.string().max(160).nullable().optional(),
    bio: z.string().max(5000).nullable().optional(),
    creator_type: z.string().max(80).optional(),
    category: z.string().max(80).optional(),
    hero_media: z.array(z.string().max(2048)).max(20).nullable().optional(),
    links: z.array(z.string().max(2048)).max(20).nullable().optional(),
    external_storefront_url: z.url().max(2048).nullable().optional(),
    join_enabled: z.boolean().optional(),
    subscription_enabled: z.boolean().optional(),
    is_public: z.boolean().nullable().optional(),
    avatar_asset: ImageSchema.describe('A ready `ast_` asset, or an https URL; `null` clears it.'),
    cover_asset: ImageSchema.describe('A ready `ast_` asset, or an https URL; `null` clears it.'),
  })
  .meta({ id: 'UpdateCapsuleProfileRequest' });
export type UpdateCapsuleProfile = z.infer<typeof UpdateCapsuleProfileSchema>;
