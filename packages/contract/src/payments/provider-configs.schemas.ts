import { z } from 'zod';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';

/** A secret a tenant pastes from its provider's dashboard: sealed at rest, never returned, logged or echoed. */
const secret = (what: string) => z.string().min(1).max(4096).describe(`${what}. Write-only: stored sealed, never returned.`);
const digits = (what: string) => z.string().regex(/^\d{5,8}$/, `${what}: 5 to 8 digits.`);
const orgId = z.string().max(255).nullable().optional().describe('When set, only this organization\'s checkouts may use it.');

const common = {
  name: z.string().min(1).max(100),
  organization: orgId,
  metadata: MetadataSchema.optional(),
  external_id: ExternalIdSchema.optional(),
};

export const CreateMpesaConfigSchema = z.object({
  type: z.literal('mpesa'),
  ...common,
  shortcode: digits('The paybill or till shortcode'),
  shortcode_type: z.enum(['paybill', 'till']),
  till_number: digits('The till number').optional().describe('Required when `shortcode_type` is `till`.'),
  consumer_key: secret('The Daraja app\'s consumer key'),
  consumer_secret: secret('The Daraja app\'s consumer secret'),
  passkey: secret('The Lipa na M-Pesa Online passkey'),
  initiator_name: z.string().min(1).max(100).optional().describe('With `initiator_password`: refunds by reversal.'),
  initiator_password: secret('The initiator\'s password').optional(),
  b2c_shortcode: digits('The B2C shortcode').optional(),
});

export const CreatePaystackConfigSchema = z.object({
  type: z.literal('paystack'),
  ...common,
  secret_key: secret('`sk_live_…` in live mode, `sk_test_…` in test mode'),
});

export const CreateStripeConfigSchema = z.object({
  type: z.literal('stripe'),
  ...common,
  secret_key: secret('`sk_`/`rk_` key of the matching mode'),
  webhook_secret: secret('The webhook endpoint\'s signing secret, `whsec_…`'),
});

export const CreatePaymentProviderConfigSchema = z
  .discriminatedUnion('type', [CreateMpesaConfigSchema, CreatePaystackConfigSchema, CreateStripeConfigSchema])
  .meta({ id: 'CreatePaymentProviderConfigRequest' });

/** Secrets of any type; one of another type than the configuration's is `422 validation_failed`. */
export const UpdatePaymentProviderConfigSchema = z
  .object({
    name: common.name.optional(),
    metadata: MetadataSchema.optional(),
    shortcode: CreateMpesaConfigSchema.shape.shortcode.optional(),
    shortcode_type: CreateMpesaConfigSchema.shape.shortcode_type.optional(),
    till_number: CreateMpesaConfigSchema.shape.till_number,
    initiator_name: CreateMpesaConfigSchema.shape.initiator_name,
    b2c_shortcode: CreateMpesaConfigSchema.shape.b2c_shortcode,
    consumer_key: secret('The Daraja consumer key').optional(),
    consumer_secret: secret('The Daraja consumer secret').optional(),
    passkey: secret('The passkey').optional(),
    initiator_password: secret('The initiator\'s password').optional(),
    secret_key: secret('The Paystack or Stripe secret key').optional(),
    webhook_secret: secret('The Stripe webhook signing secret').optional(),
  })
  .strict()
  .meta({ id: 'UpdatePaymentProviderConfigRequest' });

export const PAYMENT_PROVIDER_SECRET_FIELDS = ['consumer_key', 'consumer_secret', 'passkey', 'initiator_password', 'secret_key', 'webhook_secret'] as const;

export const PaymentProviderConfigSchema = z
  .object({
    id: z.string().describe('Starts `ppc_`.'),
    object: z.literal('payment_provider_config'),
    livemode: z.boolean(),
    type: z.enum(['mpesa', 'paystack', 'stripe']),
    name: z.string(),
    organization: z.string().nullable(),
    methods: z.array(z.enum(['mobile_money', 'card'])),
    account: z.record(z.string(), z.string().nullable()).describe('Non-secret identifiers of the account.'),
    capabilities: z.object({ refunds: z.boolean(), payouts: z.boolean(), automatic_renewal: z.boolean() }),
    secret_fields: z.array(z.string()).describe('The names of the stored secrets; never their values.'),
    webhook_url: z.string().describe('`{base_url}/api/v1/payments/{type}/webhooks/{id}`: paste it into the Paystack or Stripe dashboard.'),
    status: z.enum(['active', 'failing']),
    last_error: z.object({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
    verified_at: z.string().nullable(),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'PaymentProviderConfig' });
export type PaymentProviderConfig = z.infer<typeof PaymentProviderConfigSchema>;

export const PaymentProviderConfigListQuerySchema = z.object({
  type: z.enum(['mpesa', 'paystack', 'stripe']).optional(),
  organization: z.string().max(255).optional(),
  status: z.enum(['active', 'failing']).optional(),
});

const configIds = z.array(z.string().max(255)).max(10);

export const PaymentSettingsSchema = z
  .object({
    object: z.literal('payment_settings'),
    livemode: z.boolean(),
    provider_configs: z.array(z.string()).describe('Ordered `ppc_` ids; each method is served by the first active one offering it.'),
    late_payment_policy: z.enum(['accept_if_available', 'refund']),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'PaymentSettings' });
export type PaymentSettings = z.infer<typeof PaymentSettingsSchema>;

export const UpdatePaymentSettingsSchema = z
  .object({ provider_configs: configIds.optional(), late_payment_policy: z.enum(['accept_if_available', 'refund']).optional() })
  .strict();

export const OrganizationPaymentSettingsSchema = z
  .object({
    object: z.literal('organization_payment_settings'),
    livemode: z.boolean(),
    organization: z.string(),
    provider_configs: z.array(z.string()).nullable().describe('`null`: the tenant\'s list.'),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'OrganizationPaymentSettings' });
export type OrganizationPaymentSettings = z.infer<typeof OrganizationPaymentSettingsSchema>;

export const UpdateOrganizationPaymentSettingsSchema = z.object({ provider_configs: configIds.nullable() }).strict();
