import { z } from 'zod';
import { EntitlementLimitsResponseSchema, EntitlementLimitsSchema, RESOURCE_TYPES } from '../access/entitlements.schemas';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { TextSchema } from '../common/text';

export const PRODUCT_KINDS = ['physical', 'digital'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];
export const PRODUCT_STATUSES = ['draft', 'published', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** Limits of § 3.2 of the products design. */
export const COMMERCE_LIMITS = {
  variants: 100,
  images: 10,
  grants: 20,
  options: 3,
  maxPerOrder: 100,
  price: 2_000_000_000,
} as const;

const CurrencySchema = z.string().regex(/^[A-Z]{3}$/, 'An ISO 4217 code in capitals, e.g. KES.');
const ImageUrlSchema = z.url({ protocol: /^https$/, message: 'Must be an https URL.' }).max(2048);
const SkuSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9._-]+$/, 'Letters, digits, `.`, `_` and `-` only.');
const OptionsSchema = z
  .record(TextSchema.min(1).max(40), TextSchema.min(1).max(100))
  .refine((o) => Object.keys(o).length <= COMMERCE_LIMITS.options, { message: `At most ${COMMERCE_LIMITS.options} options.` });

export const ProductGrantSchema = z
  .object({
    type: z.enum(RESOURCE_TYPES).describe('`ls` for a live stream, `ast` for an asset.'),
    id: z.string().min(1).max(255),
  })
  .strict()
  .meta({ id: 'ProductGrant' });

export const VariantSchema = z
  .object({
    id: z.string().describe('Starts `var_`.'),
    object: z.literal('product_variant'),
    livemode: z.boolean(),
    product: z.string(),
    name: z.string(),
    sku: z.string(),
    options: z.record(z.string(), z.string()),
    price: z.number().int().describe('In the product currency\'s minor unit.'),
    stock: z.number().int().nullable().describe('Units on hand; `null` is unlimited.'),
    reserved: z.number().int().describe('Units held by pending orders.'),
    available: z.number().int().nullable().describe('`stock − reserved`, or `null` when unlimited.'),
    sold: z.number().int().describe('Units sold, net of restocks.'),
    active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ProductVariant' });
export type ProductVariant = z.infer<typeof VariantSchema>;

export const ProductSchema = z
  .object({
    id: z.string().describe('Starts `prd_`.'),
    object: z.literal('product'),
    livemode: z.boolean(),
    organization: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    kind: z.enum(PRODUCT_KINDS),
    status: z.enum(PRODUCT_STATUSES),
    currency: z.string(),
    images: z.array(z.string()),
    variants: z.array(VariantSchema),
    grants: z.array(ProductGrantSchema).describe('Digital products: what a paid unit grants. `[]` for physical ones.'),
    grant_duration_days: z.number().int().nullable(),
    grant_limits: EntitlementLimitsResponseSchema.nullable(),
    max_per_order: z.number().int(),
    published_at: z.string().nullable(),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Product' });
export type CommerceProduct = z.infer<typeof ProductSchema>;

export const CreateVariantSchema = z
  .object({
    name: TextSchema.trim().min(1).max(100),
    sku: SkuSchema.describe('Unique per environment, compared without case (`409 sku_taken`).'),
    options: OptionsSchema.optional(),
    price: z.number().int().min(0).max(COMMERCE_LIMITS.price),
    stock: z.number().int().min(0).max(COMMERCE_LIMITS.price).nullable().optional().describe('Default `null`: unlimited.'),
    active: z.boolean().optional().describe('Default `true`.'),
  })
  .strict()
  .meta({ id: 'CreateProductVariantRequest' });
export type CreateVariantInput = z.infer<typeof CreateVariantSchema>;

export const UpdateVariantSchema = z
  .object({
    name: TextSchema.trim().min(1).max(100).optional(),
    sku: SkuSchema.optional(),
    options: OptionsSchema.optional(),
    price: z.number().int().min(0).max(COMMERCE_LIMITS.price).optional().describe('Orders already made keep the price they were made with.'),
    stock: z.number().int().min(0).max(COMMERCE_LIMITS.price).nullable().optional().describe('Below `reserved`: `422`, `param: stock`.'),
    active: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'UpdateProductVariantRequest' });
export type UpdateVariantInput = z.infer<typeof UpdateVariantSchema>;

const productFields = {
  name: TextSchema.trim().min(1).max(200),
  description: TextSchema.max(20_000).nullable(),
  status: z.enum(PRODUCT_STATUSES),
  currency: CurrencySchema,
  images: z.array(ImageUrlSchema).max(COMMERCE_LIMITS.images),
  grants: z.array(ProductGrantSchema).max(COMMERCE_LIMITS.grants),
  grant_duration_days: z.number().int().min(1).max(3650).nullable(),
  grant_limits: EntitlementLimitsSchema.nullable(),
  max_per_order: z.number().int().min(1).max(COMMERCE_LIMITS.maxPerOrder),
  metadata: MetadataSchema,
};

export const CreateProductSchema = z
  .object({
    organization: z.string().min(1).max(255).describe('The `org_` that sells it.'),
    kind: z.enum(PRODUCT_KINDS),
    name: productFields.name,
    description: productFields.description.optional(),
    status: productFields.status.optional().describe('Default `draft`.'),
    currency: productFields.currency.optional().describe('Default: the organization\'s.'),
    images: productFields.images.optional(),
    variants: z.array(CreateVariantSchema).max(COMMERCE_LIMITS.variants).optional(),
    grants: productFields.grants.optional().describe('`digital` only: the live streams and assets a paid unit grants.'),
    grant_duration_days: productFields.grant_duration_days.optional().describe('`null` (default): the grant has no end.'),
    grant_limits: productFields.grant_limits.optional(),
    max_per_order: productFields.max_per_order.optional().describe('Units of one variant per order; default 10.'),
    external_id: ExternalIdSchema.optional(),
    metadata: productFields.metadata.optional(),
  })
  .strict()
  .meta({ id: 'CreateProductRequest' });
export type CreateProductInput = z.infer<typeof CreateProductSchema>;

export const UpdateProductSchema = z
  .object({
    name: productFields.name.optional(),
    description: productFields.description.optional(),
    status: productFields.status.optional(),
    currency: productFields.currency.optional(),
    images: productFields.images.optional(),
    grants: productFields.grants.optional(),
    grant_duration_days: productFields.grant_duration_days.optional(),
    grant_limits: productFields.grant_limits.optional(),
    max_per_order: productFields.max_per_order.optional(),
    external_id: ExternalIdSchema.nullable().optional(),
    metadata: productFields.metadata.optional(),
  })
  .strict()
  .meta({ id: 'UpdateProductRequest' });
export type UpdateProductInput = z.infer<typeof UpdateProductSchema>;

export const CommerceSettingsSchema = z
  .object({
    object: z.literal('commerce_settings'),
    organization: z.string(),
    hold_minutes: z.number().int().describe('How long a pending product order holds its stock.'),
    shipping_fee: z.number().int().describe('Added once to a `delivery` order, in the order\'s currency.'),
    pickup_enabled: z.boolean(),
    pickup_instructions: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'CommerceSettings' });
export type CommerceSettings = z.infer<typeof CommerceSettingsSchema>;

export const UpdateCommerceSettingsSchema = z
  .object({
    hold_minutes: z.number().int().min(5).max(1440).optional(),
    shipping_fee: z.number().int().min(0).max(COMMERCE_LIMITS.price).optional(),
    pickup_enabled: z.boolean().optional(),
    pickup_instructions: TextSchema.max(500).nullable().optional(),
  })
  .strict()
  .meta({ id: 'UpdateCommerceSettingsRequest' });
export type UpdateCommerceSettingsInput = z.infer<typeof UpdateCommerceSettingsSchema>;

/** A published product as anyone may read it: never a stock figure. */
export const PublicProductSchema = z
  .object({
    id: z.string(),
    object: z.literal('product'),
    name: z.string(),
    description: z.string().nullable(),
    kind: z.enum(PRODUCT_KINDS),
    images: z.array(z.string()),
    currency: z.string(),
    price_from: z.number().int().nullable().describe('The lowest price of its active variants.'),
    variants: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        options: z.record(z.string(), z.string()),
        price: z.number().int(),
        available: z.boolean().describe('Whether a unit can be ordered now.'),
      }),
    ),
    organization: z.object({ id: z.string(), name: z.string(), handle: z.string() }),
  })
  .meta({ id: 'PublicProduct' });
export type PublicProduct = z.infer<typeof PublicProductSchema>;
