import { z } from 'zod';
import { MetadataSchema } from '../common/metadata';
import { PhoneSchema } from '../identity/session.schemas';
import { COMMISSION_STATUSES, COMMISSION_TYPES, PAYOUT_METHODS, PAYOUT_STATUSES } from './promoters.schemas';

export const CommissionSchema = z
  .object({
    id: z.string().describe('Starts `com_`.'),
    object: z.literal('commission'),
    livemode: z.boolean(),
    promoter: z.string(),
    assignment: z.string(),
    order: z.string().describe('The `ord_` id.'),
    type: z.enum(COMMISSION_TYPES).describe('`commission` (> 0) or `reversal` (< 0, after a refund).'),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(COMMISSION_STATUSES),
    available_at: z.string().describe('When a `pending` entry is approved: the event\'s end (tickets) or the payment (products), plus `refund_window_days`.'),
    reverses: z.string().nullable(),
    payout: z.string().nullable(),
    approved_at: z.string().nullable(),
    paid_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Commission' });
export type Commission = z.infer<typeof CommissionSchema>;

export const PayoutSchema = z
  .object({
    id: z.string().describe('Starts `po_`.'),
    object: z.literal('payout'),
    livemode: z.boolean(),
    promoter: z.string(),
    organization: z.string(),
    amount: z.number().int().describe('The sum of the entries included.'),
    currency: z.string(),
    method: z.enum(PAYOUT_METHODS),
    status: z.enum(PAYOUT_STATUSES),
    reference: z.string().nullable().describe('`manual`: the organizer\'s text; `mpesa_b2c`: the M-Pesa receipt once paid.'),
    phone_hint: z.string().nullable(),
    provider_config: z.string().nullable(),
    failure_code: z.string().nullable(),
    failure_message: z.string().nullable(),
    paid_at: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'Payout' });
export type Payout = z.infer<typeof PayoutSchema>;

export const CreatePayoutSchema = z
  .object({
    method: z.enum(PAYOUT_METHODS),
    currency: z.string().regex(/^[A-Z]{3}$/).optional().describe('Default: the currency of the promoter\'s approved balance (the only one, else required).'),
    reference: z.string().trim().min(1).max(100).optional().describe('`manual`: where the money went (a bank or M-Pesa reference).'),
    phone: PhoneSchema.optional().describe('`mpesa_b2c`: default the promoter\'s phone; `+254` only.'),
    provider_config: z.string().max(255).optional().describe('`mpesa_b2c`: default the first M-Pesa configuration with `payouts` in the organization\'s effective list.'),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'CreatePayout' });

const Money = z.number().int();
export const ReportRowSchema = z
  .object({
    promoter: z.object({ id: z.string(), name: z.string() }),
    clicks: z.number().int(),
    orders: z.number().int(),
    items: z.number().int(),
    gross: Money,
    net: Money,
    commission: z.object({ pending: Money, approved: Money, paid: Money, reversed: Money }),
    currency: z.string(),
  })
  .meta({ id: 'PromoterReportRow' });
export type ReportRow = z.infer<typeof ReportRowSchema>;

export const PromoterTargetReportRowSchema = ReportRowSchema.omit({ promoter: true, clicks: true })
  .extend({ target: z.object({ type: z.enum(['event', 'product']), id: z.string() }) })
  .meta({ id: 'PromoterTargetReportRow' });

export const ReportQuerySchema = z.object({
  organization: z.string().max(255).optional(),
  event: z.uuid().optional(),
  product: z.string().max(255).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

export const PromoterSaleSchema = z
  .object({
    order: z.object({ id: z.string(), code: z.string(), kind: z.string(), status: z.string(), created_at: z.string() }),
    items: z.number().int(),
    net: Money,
    commission: Money,
    currency: z.string(),
  })
  .meta({ id: 'PromoterSale' });

export const PromoterProfileSchema = z
  .object({
    id: z.string(),
    object: z.literal('promoter_profile'),
    name: z.string(),
    status: z.string(),
    organization: z.object({ id: z.string(), name: z.string(), handle: z.string().nullable() }),
    balances: z.array(z.object({ currency: z.string(), pending: Money, approved: Money })),
  })
  .meta({ id: 'PromoterProfile' });
