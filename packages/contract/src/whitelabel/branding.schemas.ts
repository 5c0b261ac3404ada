import { z } from 'zod';
import { TextSchema } from '../common/text';
import { EmailSchema, PhoneSchema } from '../identity/session.schemas';

/** An absolute URL; the server refuses credentials in it, and anything but `https://` in live mode (`param` names the field). */
export const BrandUrlSchema = z.string().max(2048).url();
export const HexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'A colour is #RRGGBB.');

const colorFields = { primary: HexColorSchema.nullable(), accent: HexColorSchema.nullable(), background: HexColorSchema.nullable(), text: HexColorSchema.nullable() };
const legalFields = { terms_url: BrandUrlSchema.nullable(), privacy_url: BrandUrlSchema.nullable(), refund_policy_url: BrandUrlSchema.nullable() };

export const BrandColorsSchema = z.object(colorFields).meta({ id: 'BrandColors' });
export const BrandLegalSchema = z.object(legalFields).meta({ id: 'BrandLegal' });

/** A check the branding passed validation but may still be a bad idea (text hard to read on the primary colour). */
export const BrandingWarningSchema = z
  .object({ code: z.enum(['low_contrast']), param: z.string(), message: z.string(), ratio: z.number() })
  .meta({ id: 'BrandingWarning' });

const brandingFields = {
  logo_url: z.string().nullable(),
  icon_url: z.string().nullable(),
  colors: BrandColorsSchema,
  support_email: z.string().nullable(),
  support_phone: z.string().nullable(),
  support_url: z.string().nullable(),
  legal: BrandLegalSchema,
  email_sender_name: z.string().nullable(),
  footer_text: z.string().nullable(),
};

export const BrandingSchema = z
  .object({
    object: z.literal('branding'),
    livemode: z.boolean(),
    display_name: z.string().describe('The tenant\'s name until set.'),
    ...brandingFields,
    updated_at: z.string().nullable().describe('`null` until the branding is first changed.'),
    warnings: z.array(BrandingWarningSchema),
  })
  .meta({ id: 'Branding' });
export type Branding = z.infer<typeof BrandingSchema>;

export const OrganizationBrandingSchema = z
  .object({
    object: z.literal('organization_branding'),
    livemode: z.boolean(),
    organization: z.string(),
    display_name: z.string().nullable().describe('`null` (as every field here) inherits the tenant\'s.'),
    ...brandingFields,
    updated_at: z.string().nullable(),
    warnings: z.array(BrandingWarningSchema),
  })
  .meta({ id: 'OrganizationBranding' });

/** What a page or message shows: field by field the organization's, else the tenant's, else the service's neutral default. */
export const EffectiveBrandingSchema = z
  .object({
    object: z.literal('effective_branding'),
    organization: z.string().nullable(),
    display_name: z.string(),
    ...brandingFields,
    colors: z.object({ primary: z.string(), accent: z.string(), background: z.string(), text: z.string() }),
  })
  .meta({ id: 'EffectiveBranding' });
export type EffectiveBranding = z.infer<typeof EffectiveBrandingSchema>;

/** PATCH bodies: every field optional; `null` clears it (on an organization, `null` inherits). */
const patchFields = {
  logo_url: BrandUrlSchema.nullable().optional(),
  icon_url: BrandUrlSchema.nullable().optional(),
  colors: z.object(colorFields).partial().optional(),
  support_email: EmailSchema.nullable().optional(),
  support_phone: PhoneSchema.nullable().optional(),
  support_url: BrandUrlSchema.nullable().optional(),
  legal: z.object(legalFields).partial().optional(),
  email_sender_name: TextSchema.min(1).max(60).nullable().optional(),
  footer_text: TextSchema.min(1).max(500).nullable().optional(),
};

export const UpdateBrandingSchema = z
  .object({ display_name: TextSchema.min(1).max(100).optional(), ...patchFields })
  .strict()
  .meta({ id: 'UpdateBrandingRequest' });
export type UpdateBranding = z.infer<typeof UpdateBrandingSchema>;

export const UpdateOrganizationBrandingSchema = z
  .object({ display_name: TextSchema.min(1).max(100).nullable().optional(), ...patchFields })
  .strict()
  .meta({ id: 'UpdateOrganizationBrandingRequest' });
export type UpdateOrganizationBranding = z.infer<typeof UpdateOrganizationBrandingSchema>;
