import { z } from 'zod';

export const CONTENT_TYPES = ['drop', 'video', 'post'] as const;
export const CONTENT_VISIBILITIES = ['public', 'unlisted'] as const;
export const CONTENT_STATUSES = ['draft', 'pending_review', 'changes_requested', 'approved', 'published', 'rejected'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
export const APPROVAL_ACTIONS = ['submitted', 'approved', 'published', 'rejected', 'changes_requested'] as const;

const AssetIdSchema = z.string().regex(/^ast_[0-9a-z]{26}$/, 'An `ast_` asset id.');
const SlugSchema = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'A slug is a-z, 0-9 and single hyphens.').min(3).max(80);

export const PriceSchema = z
  .object({
    amount: z.number().int().min(0).max(100_000_000).describe('In the currency\'s minor unit.'),
    currency: z.string().regex(/^[A-Z]{3}$/, 'An ISO 4217 code, e.g. KES.'),
  })
  .meta({ id: 'ContentPrice' });

export const CONTENT_GATE_TYPES = ['members', 'tiers'] as const;

/** Who may see the content's media: `members` of the organization's fanbase, or members holding one of `tiers`. */
export const ContentGateSchema = z
  .object({
    type: z.enum(CONTENT_GATE_TYPES).describe('`members`: any active member; `tiers`: members holding one of `tiers` now.'),
    tiers: z.array(z.string()).describe('`mtr_` tiers of the organization\'s fanbase; empty for `members`.'),
  })
  .meta({ id: 'ContentGate' });
export type ContentGate = z.infer<typeof ContentGateSchema>;

export const ContentGateInputSchema = z
  .object({
    type: z.enum(CONTENT_GATE_TYPES),
    tiers: z.array(z.string().regex(/^mtr_[0-9a-z]{26}$/, 'An `mtr_` tier id.')).max(20).optional(),
  })
  .meta({ id: 'ContentGateInput' });

export const ContentSchema = z
  .object({
    id: z.string().describe('Starts `cnt_`.'),
    object: z.literal('content'),
    livemode: z.boolean(),
    organization: z.string().describe('The creator organization (`org_`).'),
    type: z.enum(CONTENT_TYPES),
    title: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    trailer: z.string().nullable().describe('An `ast_` asset.'),
    items: z.array(z.string()).describe('`ast_` assets.'),
    visibility: z.enum(CONTENT_VISIBILITIES),
    price: PriceSchema.nullable(),
    gate: ContentGateSchema.nullable().describe('`null`: anyone may see it.'),
    status: z.enum(CONTENT_STATUSES),
    review_note: z.string().nullable().describe('The last reason or message of a review (reject, request changes).'),
    requested_items: z.array(z.string()).describe('After `request-changes`: the items the changes concern.'),
    submitted_at: z.string().nullable(),
    approved_at: z.string().nullable(),
    published_at: z.string().nullable(),
    rejected_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Content' });
export type Content = z.infer<typeof ContentSchema>;

export const ContentAssetSchema = z
  .object({
    id: z.string(),
    status: z.string().describe('`preparing`, `ready` or `errored`; `deleted` when the asset is gone.'),
    duration: z.number().nullable(),
    playback_ids: z.array(z.object({ id: z.string(), policy: z.string() })),
  })
  .meta({ id: 'ContentAsset' });

export const ContentOrganizationSchema = z
  .object({ id: z.string(), name: z.string(), handle: z.string() })
  .meta({ id: 'ContentOrganization' });

export const ApprovalSchema = z
  .object({
    action: z.enum(APPROVAL_ACTIONS),
    actor: z.object({ type: z.enum(['user', 'api_key']), id: z.string() }).describe('Who acted: a signed-in person (`usr_`) or an API key (`key_`).'),
    note: z.string().nullable(),
    items: z.array(z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'ContentApproval' });

/** The tenant admin's record: the content with its trailer, items and organization inline. */
export const ApprovalContentSchema = ContentSchema.extend({
  trailer: ContentAssetSchema.nullable(),
  items: z.array(ContentAssetSchema),
  organization: ContentOrganizationSchema,
}).meta({ id: 'ApprovalContent' });
export const ApprovalContentDetailSchema = ApprovalContentSchema.extend({ approvals: z.array(ApprovalSchema) }).meta({ id: 'ApprovalContentDetail' });

/** What anyone may see of published content. */
export const PublicContentSchema = z
  .object({
    id: z.string(),
    object: z.literal('content'),
    type: z.enum(CONTENT_TYPES),
    title: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    trailer: ContentAssetSchema.nullable().describe('Its public playback ids only.'),
    items_count: z.number().int(),
    price: PriceSchema.nullable(),
    gate: ContentGateSchema.nullable(),
    locked: z.boolean().describe('Gated and the viewer is not entitled: `description` and `trailer` are `null`.'),
    items: z.array(ContentAssetSchema).nullable().describe('Gated content the viewer is entitled to: its item assets. Otherwise `null`.'),
    organization: ContentOrganizationSchema,
    published_at: z.string(),
  })
  .meta({ id: 'PublicContent' });
export type PublicContent = z.infer<typeof PublicContentSchema>;

const fields = {
  title: z.string().min(1).max(200),
  slug: SlugSchema,
  description: z.string().max(5000).nullable(),
  trailer: AssetIdSchema.nullable(),
  items: z.array(AssetIdSchema).max(50),
  visibility: z.enum(CONTENT_VISIBILITIES),
  price: PriceSchema.nullable(),
  gate: ContentGateInputSchema.nullable().describe('`tiers` needs at least one tier; `members` takes none.'),
};

export const CreateContentSchema = z
  .object({
    type: z.enum(CONTENT_TYPES),
    title: fields.title,
    slug: fields.slug.optional().describe('Defaults to the title\'s slug (with a short suffix when taken).'),
    description: fields.description.optional(),
    trailer: fields.trailer.optional(),
    items: fields.items.optional(),
    visibility: fields.visibility.optional(),
    price: fields.price.optional(),
    gate: fields.gate.optional(),
  })
  .meta({ id: 'CreateContentRequest' });
export type CreateContent = z.infer<typeof CreateContentSchema>;

export const UpdateContentSchema = z
  .object({
    title: fields.title.optional(),
    slug: fields.slug.optional(),
    description: fields.description.optional(),
    trailer: fields.trailer.optional(),
    items: fields.items.optional(),
    visibility: fields.visibility.optional(),
    price: fields.price.optional(),
    gate: fields.gate.optional(),
  })
  .meta({ id: 'UpdateContentRequest' });
export type UpdateContent = z.infer<typeof UpdateContentSchema>;

export const ApproveContentSchema = z.object({ note: z.string().max(1000).nullable().optional() }).meta({ id: 'ApproveContentRequest' });
export const RejectContentSchema = z.object({ reason: z.string().min(1).max(1000) }).meta({ id: 'RejectContentRequest' });
export const RequestChangesSchema = z
  .object({
    message: z.string().min(1).max(1000),
    items: z.array(AssetIdSchema).max(50).optional().describe('The content\'s trailer or items the changes concern.'),
  })
  .meta({ id: 'RequestChangesRequest' });
