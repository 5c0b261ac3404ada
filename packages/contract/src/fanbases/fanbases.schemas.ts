import { z } from 'zod';
import { EntitlementLimitsSchema } from '../access/entitlements.schemas';
import { ExternalIdSchema, MetadataFilterSchema, MetadataSchema } from '../common/metadata';
import { ExpandQuerySchema } from '../common/expand';
import { CursorPageQuerySchema } from '../common/pagination';
import { TextSchema } from '../common/text';

const CurrencySchema = z.string().regex(/^[A-Z]{3}$/, 'An ISO 4217 code, e.g. KES.');

export const FANBASE_STATUSES = ['active', 'archived'] as const;
export const TIER_STATUSES = ['draft', 'published', 'archived'] as const;
export const TIER_INTERVALS = ['month', 'year', 'one_time'] as const;
export type TierInterval = (typeof TIER_INTERVALS)[number];
export const TIER_GRANT_TYPES = ['ls', 'ast', 'cnt'] as const;
export const MEMBERSHIP_STATUSES = ['active', 'left'] as const;
export const MEMBERSHIP_SOURCES = ['join', 'subscription', 'comp'] as const;
export const SUBSCRIPTION_STATUSES = ['incomplete', 'active', 'past_due', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const FanbaseSchema = z
  .object({
    id: z.string().describe('Starts `fan_`.'),
    object: z.literal('fanbase'),
    livemode: z.boolean(),
    organization: z.string().describe('The `org_` whose community it is; one fanbase per organization.'),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(FANBASE_STATUSES).describe('`archived`: no joins or new subscriptions; running ones continue.'),
    currency: z.string(),
    grace_period_days: z.number().int().describe('How long an unpaid renewal keeps access (`past_due`).'),
    renewal_notice_hours: z.number().int().describe('How long before the period end prompt renewals start.'),
    member_count: z.number().int().describe('Active memberships.'),
    subscriber_count: z.number().int().describe('Subscriptions `active` or `past_due`.'),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Fanbase' });
export type Fanbase = z.infer<typeof FanbaseSchema>;

const fanbaseFields = {
  name: TextSchema.min(1).max(100),
  description: TextSchema.max(5000).nullable().optional(),
  currency: CurrencySchema.optional().describe("Default: the organization's."),
  grace_period_days: z.number().int().min(0).max(30).optional().describe('Default 7.'),
  renewal_notice_hours: z.number().int().min(1).max(168).optional().describe('Default 24.'),
  metadata: MetadataSchema.optional(),
};

export const CreateFanbaseSchema = z
  .object({ organization: z.string().max(255), ...fanbaseFields, external_id: ExternalIdSchema.optional() })
  .strict()
  .meta({ id: 'CreateFanbaseRequest' });

export const UpdateFanbaseSchema = z
  .object({ ...fanbaseFields, name: fanbaseFields.name.optional(), status: z.enum(FANBASE_STATUSES).optional(), external_id: ExternalIdSchema.nullable().optional() })
  .strict()
  .meta({ id: 'UpdateFanbaseRequest' });

export const ListFanbasesQuerySchema = CursorPageQuerySchema.extend({
  organization: z.string().max(255).optional(),
  status: z.enum(FANBASE_STATUSES).optional(),
  metadata: MetadataFilterSchema,
});

export const TierGrantSchema = z
  .object({
    type: z.enum(TIER_GRANT_TYPES).describe('`ls` a live stream, `ast` an asset, `cnt` every asset among a published content item\'s items.'),
    id: z.string().min(1).max(255),
  })
  .meta({ id: 'TierGrant' });

export const MembershipTierSchema = z
  .object({
    id: z.string().describe('Starts `mtr_`.'),
    object: z.literal('membership_tier'),
    livemode: z.boolean(),
    fanbase: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    price: z.number().int().describe('Minor units; `0` is the free tier, which joining gives.'),
    currency: z.string(),
    interval: z.enum(TIER_INTERVALS).nullable().describe('`null` for the free tier; `one_time`: one payment, no end, no renewal.'),
    benefits: z.array(z.string()),
    grants: z.array(TierGrantSchema),
    limits: EntitlementLimitsSchema.nullable().describe("Applied to the tier's entitlements."),
    max_members: z.number().int().nullable().describe('A full tier refuses new subscriptions.'),
    status: z.enum(TIER_STATUSES),
    position: z.number().int(),
    member_count: z.number().int(),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'MembershipTier' });
export type MembershipTier = z.infer<typeof MembershipTierSchema>;

const tierFields = {
  name: TextSchema.min(1).max(100),
  description: TextSchema.max(2000).nullable().optional(),
  price: z.number().int().min(0).max(100_000_000_000),
  interval: z.enum(TIER_INTERVALS).nullable().optional().describe('Required for a paid tier; absent or `null` for the free tier.'),
  benefits: z.array(TextSchema.min(1).max(200)).max(20).optional(),
  grants: z.array(TierGrantSchema).max(50).optional(),
  limits: EntitlementLimitsSchema.nullable().optional(),
  max_members: z.number().int().min(1).max(100_000_000).nullable().optional(),
  status: z.enum(TIER_STATUSES).optional().describe('Default `draft`.'),
  position: z.number().int().min(0).max(10_000).optional(),
  metadata: MetadataSchema.optional(),
};

export const CreateTierSchema = z.object({ ...tierFields, external_id: ExternalIdSchema.optional() }).strict().meta({ id: 'CreateMembershipTierRequest' });

export const UpdateTierSchema = z
  .object({ ...tierFields, name: tierFields.name.optional(), price: tierFields.price.optional(), external_id: ExternalIdSchema.nullable().optional() })
  .strict()
  .meta({ id: 'UpdateMembershipTierRequest' });

export const CustomerRefSchema = z.looseObject({ id: z.string(), object: z.literal('customer') });

export const FanbaseMembershipSchema = z
  .object({
    id: z.string().describe('Starts `fmb_`.'),
    object: z.literal('membership'),
    livemode: z.boolean(),
    fanbase: z.string(),
    customer: z.union([z.string(), CustomerRefSchema]).describe('The `cus_` id, or the customer with `expand[]=customer`.'),
    status: z.enum(MEMBERSHIP_STATUSES),
    tier: z.string().nullable().describe("The subscription's tier while it is `active` or `past_due`, else the comp's tier, else the free tier, else `null`."),
    source: z.enum(MEMBERSHIP_SOURCES),
    subscription: z.string().nullable().describe('The live `sub_`, or `null`.'),
    ends_at: z.string().nullable().describe("When a comp membership's access ends; `null`: no end."),
    joined_at: z.string(),
    left_at: z.string().nullable(),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'FanbaseMembership' });
export type FanbaseMembership = z.infer<typeof FanbaseMembershipSchema>;

export const AddMemberSchema = z
  .object({
    customer: z.string().max(255).describe('A `cus_` customer of the tenant.'),
    tier: z.string().max(255).nullable().optional().describe('The tier whose grants the comp member gets (source `comp`).'),
    ends_at: z.iso.datetime({ offset: true }).nullable().optional().describe('When the comp access ends; absent: no end.'),
    external_id: ExternalIdSchema.optional(),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .meta({ id: 'AddMemberRequest' });

export const ListMembersQuerySchema = CursorPageQuerySchema.extend({
  status: z.enum(MEMBERSHIP_STATUSES).optional(),
  tier: z.string().max(255).optional(),
  source: z.enum(MEMBERSHIP_SOURCES).optional(),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  search: z.string().max(200).optional().describe("Part of the customer's email, phone or name, without case."),
  metadata: MetadataFilterSchema,
  expand: ExpandQuerySchema,
});

export const ExpandMembershipQuerySchema = z.object({ expand: ExpandQuerySchema });

export const ExportMembersQuerySchema = z.object({
  status: z.enum(MEMBERSHIP_STATUSES).optional(),
  tier: z.string().max(255).optional(),
  source: z.enum(MEMBERSHIP_SOURCES).optional(),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  search: z.string().max(200).optional(),
});

export const PublicTierSchema = z
  .object({
    id: z.string(),
    object: z.literal('membership_tier'),
    name: z.string(),
    description: z.string().nullable(),
    price: z.number().int(),
    currency: z.string(),
    interval: z.enum(TIER_INTERVALS).nullable(),
    benefits: z.array(z.string()),
    position: z.number().int(),
    available: z.boolean().describe('Whether it can be joined or subscribed to now (never how many members it has).'),
  })
  .meta({ id: 'PublicMembershipTier' });

export const PublicFanbaseSchema = z
  .object({
    id: z.string(),
    object: z.literal('fanbase'),
    organization: z.object({ id: z.string(), name: z.string(), handle: z.string() }),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(FANBASE_STATUSES),
    currency: z.string(),
    join_enabled: z.boolean(),
    subscription_enabled: z.boolean(),
    tiers: z.array(PublicTierSchema).describe('Published tiers, by `position`.'),
    membership: FanbaseMembershipSchema.nullable().describe("The signed-in viewer's membership, else `null`."),
  })
  .meta({ id: 'PublicFanbase' });
export type PublicFanbase = z.infer<typeof PublicFanbaseSchema>;

export const RENEWAL_MODES = ['automatic', 'prompt', 'none'] as const;
export const CANCELLATION_REASONS = ['customer', 'organizer', 'refund', 'member_removed'] as const;

export const SubscriptionSchema = z
  .object({
    id: z.string().describe('Starts `sub_`.'),
    object: z.literal('subscription'),
    livemode: z.boolean(),
    fanbase: z.string(),
    organization: z.string(),
    tier: z.string(),
    customer: z.union([z.string(), CustomerRefSchema]).describe('The `cus_` id, or the customer with `expand[]=customer`.'),
    membership: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES).describe('`cancelled` and `expired` are final.'),
    amount: z.number().int().describe('Charged each period; fixed at subscribe time (a tier change takes effect at the next renewal).'),
    currency: z.string(),
    interval: z.enum(TIER_INTERVALS),
    current_period_start: z.string().nullable().describe('`null` while `incomplete` and always for `one_time`.'),
    current_period_end: z.string().nullable(),
    cancel_at_period_end: z.boolean(),
    pending_tier: z.string().nullable().describe('A tier change taking effect at the next renewal.'),
    renewal: z.object({
      mode: z.enum(RENEWAL_MODES),
      phone_hint: z.string().nullable(),
      next_attempt_at: z.string().nullable(),
      attempts: z.number().int(),
    }),
    latest_order: z.string().nullable().describe('`ord_` of the first or current renewal period.'),
    checkout_url: z.string().nullable().describe("The latest order's checkout page while it is unpaid, else `null`."),
    grace_ends_at: z.string().nullable().describe('While `past_due`.'),
    cancelled_at: z.string().nullable(),
    ended_at: z.string().nullable(),
    cancellation_reason: z.enum(CANCELLATION_REASONS).nullable(),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof SubscriptionSchema>;
