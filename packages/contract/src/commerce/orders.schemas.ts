import { z } from 'zod';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { TextSchema } from '../common/text';
import { EmailSchema, PhoneSchema } from '../identity/session.schemas';

export const SHIPPING_METHODS = ['delivery', 'pickup'] as const;
export type ShippingMethod = (typeof SHIPPING_METHODS)[number];
export const FULFILLMENT_STATUSES = ['unfulfilled', 'fulfilled', 'shipped', 'delivered', 'returned'] as const;
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];
/** Why a line item cannot be ordered (`422 product_unavailable`, `details.reason`). */
export const PRODUCT_UNAVAILABLE_REASONS = ['not_published', 'inactive', 'other_organization', 'currency_mismatch', 'quantity_over_limit'] as const;

export const ShippingAddressSchema = z
  .object({
    name: TextSchema.trim().min(1).max(200),
    phone: PhoneSchema,
    line1: TextSchema.trim().min(1).max(200),
    line2: TextSchema.trim().max(200).nullable().optional(),
    city: TextSchema.trim().min(1).max(100),
    region: TextSchema.trim().max(100).nullable().optional(),
    postal_code: TextSchema.trim().max(20).nullable().optional(),
    country: z.string().regex(/^[A-Z]{2}$/, 'An ISO 3166-1 alpha-2 code in capitals, e.g. KE.'),
    instructions: TextSchema.max(500).nullable().optional(),
  })
  .strict()
  .meta({ id: 'ShippingAddress' });
export type ShippingAddressInput = z.infer<typeof ShippingAddressSchema>;

export const ShippingAddressResponseSchema = z
  .object({
    name: z.string(),
    phone: z.string(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    region: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z.string(),
    instructions: z.string().nullable(),
  })
  .meta({ id: 'ShippingAddressResponse' });

export const FulfillmentSchema = z
  .object({
    carrier: z.string().nullable(),
    tracking_number: z.string().nullable(),
    tracking_url: z.string().nullable(),
    note: z.string().nullable(),
    fulfilled_at: z.string().nullable(),
    shipped_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    returned_at: z.string().nullable(),
  })
  .meta({ id: 'Fulfillment' });

export const CreateProductOrderSchema = z
  .object({
    line_items: z
      .array(
        z
          .object({
            variant: z.string().min(1).max(255).describe('A `var_` id.'),
            quantity: z.number().int().min(1).max(100),
          })
          .strict(),
      )
      .min(1)
      .max(50)
      .describe('Repeats of a variant are summed. Variants of published products of one organization and currency.'),
    buyer: z
      .object({
        name: TextSchema.trim().min(1).max(200).nullable().optional(),
        email: EmailSchema.nullable().optional(),
        phone: PhoneSchema.nullable().optional(),
      })
      .strict()
      .optional()
      .describe('Email or phone required unless the buyer is signed in.'),
    shipping_method: z.enum(SHIPPING_METHODS).nullable().optional().describe('`delivery` (default with a physical item) or `pickup` (when the organization allows it); `null` for digital-only orders.'),
    shipping_address: ShippingAddressSchema.nullable().optional().describe('Required for `delivery`.'),
    referral: z.string().max(1000).nullable().optional().describe('A promoter\'s referral token (`referral.token` of a public read with `?ref=CODE`): attributes the order (last touch within the attribution window). A bad token is ignored.'),
    ref: z.string().max(255).nullable().optional().describe('A promoter\'s tracking code, touched now. An unknown or ended code is ignored: the order goes on.'),
    redirect_url: z.url({ protocol: /^https?$/ }).max(2000).nullable().optional(),
    external_id: ExternalIdSchema.optional().describe('Secret and restricted keys only.'),
    metadata: MetadataSchema.optional().describe('Secret and restricted keys only.'),
  })
  .strict()
  .meta({ id: 'CreateProductOrderRequest' });
export type CreateProductOrderInput = z.infer<typeof CreateProductOrderSchema>;

export const FulfillOrderSchema = z
  .object({
    status: z.enum(['fulfilled', 'shipped', 'delivered', 'returned']),
    carrier: TextSchema.trim().max(100).nullable().optional(),
    tracking_number: TextSchema.trim().max(100).nullable().optional(),
    tracking_url: z.url({ protocol: /^https$/, message: 'Must be an https URL.' }).max(2048).nullable().optional(),
    note: TextSchema.max(500).nullable().optional(),
    notify: z.boolean().optional().describe('Default `true`: the buyer gets a message.'),
  })
  .strict()
  .meta({ id: 'FulfillOrderRequest' });
export type FulfillOrderInput = z.infer<typeof FulfillOrderSchema>;
