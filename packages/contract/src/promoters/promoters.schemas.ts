import { z } from 'zod';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { EmailSchema, PhoneSchema } from '../identity/session.schemas';

export const PROMOTER_KINDS = ['person', 'organization'] as const;
export const PROMOTER_STATUSES = ['active', 'disabled'] as const;
export const ASSIGNMENT_TARGET_TYPES = ['event', 'product', 'organization'] as const;
export const COMMISSION_TYPES = ['commission', 'reversal'] as const;
export const COMMISSION_STATUSES = ['pending', 'approved', 'paid', 'reversed'] as const;
export const PAYOUT_METHODS = ['manual', 'mpesa_b2c'] as const;
export const PAYOUT_STATUSES = ['pending', 'paid', 'failed'] as const;
export const ATTRIBUTION_SOURCES = ['coupon', 'link'] as const;

/** Codes are compared without case; `A–Z a–z 0–9 _ -`. */
export const TrackingCodeTextSchema = z.string().regex(/^[A-Za-z0-9_-]{3,40}$/, 'Use 3 to 40 of A–Z, a–z, 0–9, _ and -.');

export const BalanceSchema = z.object({ currency: z.string(), pending: z.number().int(), approved: z.number().int() });

export const PromoterSchema = z
  .object({
    id: z.string().describe('Starts `prm_`.'),
    object: z.literal('promoter'),
    livemode: z.boolean(),
    organization: z.string().describe('The `org_` the promoter sells for.'),
    kind: z.enum(PROMOTER_KINDS),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable().describe('E.164; the default M-Pesa payout number.'),
    customer: z.string().nullable().describe('The `cus_` who signs in as this promoter; linked at the first sign-in with the verified email or phone when left out.'),
    status: z.enum(PROMOTER_STATUSES).describe('`disabled`: codes stop attributing; existing entries still approve and can be paid.'),
    balances: z.array(BalanceSchema).describe('Per currency: `pending` and `approved` (not yet paid out) commission, in minor units.'),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Promoter' });
export type Promoter = z.infer<typeof PromoterSchema>;

export const CreatePromoterSchema = z
  .object({
    organization: z.string().max(255),
    kind: z.enum(PROMOTER_KINDS).optional().describe('Default `person`.'),
    name: z.string().trim().min(1).max(200),
    email: EmailSchema.nullable().optional(),
    phone: PhoneSchema.nullable().optional(),
    customer: z.string().max(255).nullable().optional(),
    external_id: ExternalIdSchema.optional(),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'CreatePromoter' });

export const UpdatePromoterSchema = z
  .object({
    kind: z.enum(PROMOTER_KINDS).optional(),
    name: z.string().trim().min(1).max(200).optional(),
    email: EmailSchema.nullable().optional(),
    phone: PhoneSchema.nullable().optional(),
    customer: z.string().max(255).nullable().optional(),
    status: z.enum(PROMOTER_STATUSES).optional(),
    external_id: ExternalIdSchema.nullable().optional(),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'UpdatePromoter' });

export const AssignmentTargetSchema = z.object({ type: z.enum(ASSIGNMENT_TARGET_TYPES), id: z.string().min(1).max(255) });

export const CommissionRuleSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('percent'), basis_points: z.number().int().min(1).max(10_000), max_per_order: z.number().int().min(1).nullable().optional() }),
    z.object({ type: z.literal('fixed'), amount: z.number().int().min(1).max(2_000_000_000), max_per_order: z.number().int().min(1).nullable().optional() }),
  ])
  .meta({ id: 'CommissionRule', description: '`percent` of the covered net amount (`basis_points`, 1000 = 10 %), or a `fixed` amount per ticket or unit; capped at `max_per_order`.' });

export const AssignmentSchema = z
  .object({
    id: z.string().describe('Starts `pra_`.'),
    object: z.literal('promoter_assignment'),
    livemode: z.boolean(),
    promoter: z.string(),
    target: AssignmentTargetSchema,
    ticket_type_ids: z.array(z.string()).nullable().describe('Limits an event target to these ticket types; `null`: all.'),
    commission: z.object({
      type: z.enum(['percent', 'fixed']),
      basis_points: z.number().int().nullable(),
      amount: z.number().int().nullable(),
      max_per_order: z.number().int().nullable(),
    }),
    active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'PromoterAssignment' });
export type Assignment = z.infer<typeof AssignmentSchema>;

export const CreateAssignmentSchema = z
  .object({
    target: AssignmentTargetSchema,
    ticket_type_ids: z.array(z.uuid()).min(1).max(100).nullable().optional(),
    commission: CommissionRuleSchema,
  })
  .meta({ id: 'CreatePromoterAssignment' });

export const UpdateAssignmentSchema = z
  .object({
    commission: CommissionRuleSchema.optional(),
    ticket_type_ids: z.array(z.uuid()).min(1).max(100).nullable().optional(),
    active: z.boolean().optional(),
  })
  .meta({ id: 'UpdatePromoterAssignment' });

export const TrackingCodeSchema = z
  .object({
    id: z.string().describe('Starts `trk_`.'),
    object: z.literal('tracking_code'),
    livemode: z.boolean(),
    promoter: z.string(),
    code: z.string(),
    target: z.object({ type: z.enum(['event', 'product']), id: z.string() }).nullable(),
    active: z.boolean(),
    clicks: z.number().int(),
    orders: z.number().int().describe('Orders attributed through this code.'),
    url: z.string().nullable().describe('Built from the settings\' `link_template`; `null` without one.'),
    created_at: z.string(),
  })
  .meta({ id: 'TrackingCode' });
export type TrackingCode = z.infer<typeof TrackingCodeSchema>;

export const CreateTrackingCodeSchema = z
  .object({
    code: TrackingCodeTextSchema.describe('Unique per environment without case (`409 tracking_code_taken`); never changes.'),
    target: z.object({ type: z.enum(['event', 'product']), id: z.string().min(1).max(255) }).nullable().optional(),
  })
  .meta({ id: 'CreateTrackingCode' });

export const UpdateTrackingCodeSchema = z.object({ active: z.boolean() }).meta({ id: 'UpdateTrackingCode' });

export const PromoterSettingsSchema = z
  .object({
    object: z.literal('promoter_settings'),
    livemode: z.boolean(),
    attribution_window_days: z.number().int(),
    refund_window_days: z.number().int(),
    link_template: z.string().nullable(),
    self_referral: z.enum(['ignore', 'allow']).describe('`ignore` (default): a promoter buying through their own code earns nothing.'),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'PromoterSettings' });
export type PromoterSettings = z.infer<typeof PromoterSettingsSchema>;

export const UpdatePromoterSettingsSchema = z
  .object({
    attribution_window_days: z.number().int().min(1).max(90).optional(),
    refund_window_days: z.number().int().min(0).max(90).optional(),
    link_template: z
      .url({ protocol: /^https$/ })
      .max(2000)
      .refine((u) => u.includes('{code}'), 'Must contain {code}.')
      .nullable()
      .optional(),
    self_referral: z.enum(['ignore', 'allow']).optional(),
  })
  .meta({ id: 'UpdatePromoterSettings' });

export const AttributionSchema = z
  .object({
    promoter: z.string(),
    tracking_code: z.string().nullable(),
    assignment: z.string(),
    source: z.enum(ATTRIBUTION_SOURCES),
    touched_at: z.string(),
  })
  .meta({ id: 'OrderAttribution', description: 'The promoter who brought the order (the last touch), fixed when the order is made.' });
export type Attribution = z.infer<typeof AttributionSchema>;
