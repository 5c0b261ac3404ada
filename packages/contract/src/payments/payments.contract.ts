import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CreatedRange, CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { PAYMENT_FAILURE_CODES, PAYMENT_PROVIDERS, PaymentSchema, RefundSchema } from '../ticketing/payments.schemas';
import {
  CreatePaymentProviderConfigSchema,
  OrganizationPaymentSettingsSchema,
  PaymentProviderConfigListQuerySchema,
  PaymentProviderConfigSchema,
  PaymentSettingsSchema,
  UpdateOrganizationPaymentSettingsSchema,
  UpdatePaymentProviderConfigSchema,
  UpdatePaymentSettingsSchema,
} from './provider-configs.schemas';

const c = initContract();

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'payments:read', permission: 'payments:read', product: 'payments' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'payments:write', permission: 'payments:write', product: 'payments' });
const testHelper = access({ auth: 'tenant', credentials: ['secret'], scope: 'payments:write', product: 'payments', liveMode: false });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const paymentProviderConfigsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/payments/provider_configs',
      summary: 'Add a payment provider configuration',
      description:
        'Stores the credentials of one M-Pesa (Daraja), Paystack or Stripe account for this environment, after trying them on the provider: ' +
        'a refusal is `422 payment_credentials_invalid` (`param` the field, `details.reason` `rejected`, `wrong_mode` or `malformed`), an outage `502 provider_unavailable`. ' +
        'Secrets are write-only: sealed at rest and never returned. It serves checkouts once `GET /v1/payments/settings` lists it.',
      body: CreatePaymentProviderConfigSchema,
      responses: { 201: dataOf(PaymentProviderConfigSchema), ...errors, ...errorResponses(404, 409, 422, 502) },
      metadata: write,
    },
    list: {
      method: 'GET',
      path: '/v1/payments/provider_configs',
      summary: 'List payment provider configurations',
      description: 'Newest first; filter by `type`, `organization` and `status`.',
      query: CursorPageQuerySchema.extend(PaymentProviderConfigListQuerySchema.shape),
      responses: { 200: cursorListOf(PaymentProviderConfigSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/payments/provider_configs/:id',
      summary: 'Retrieve a payment provider configuration',
      description: 'One configuration; `secret_fields` names its secrets, never their values.',
      pathParams: IdParams,
      responses: { 200: dataOf(PaymentProviderConfigSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/payments/provider_configs/:id',
      summary: 'Update a payment provider configuration',
      description:
        'Changes `name`, `metadata`, M-Pesa\'s non-secret fields, or secrets of its type. A changed secret is tried on the provider first (as on create); ' +
        'a configuration that passes becomes `active` again.',
      pathParams: IdParams,
      body: UpdatePaymentProviderConfigSchema,
      responses: { 200: dataOf(PaymentProviderConfigSchema), ...errors, ...errorResponses(404, 409, 422, 502) },
      metadata: write,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/payments/provider_configs/:id',
      summary: 'Delete a payment provider configuration',
      description: '`409 provider_config_in_use` while a payment settings list names it, pending payments or refunds depend on it, or automatically renewing subscriptions charge cards kept through it (`details.subscriptions`: how many).',
      pathParams: IdParams,
      body: c.noBody(),
      responses: {
        200: dataOf(z.object({ id: z.string(), object: z.literal('payment_provider_config'), deleted: z.literal(true) })),
        ...errors,
        ...errorResponses(404, 409),
      },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);

export const paymentSettingsContract = c.router(
  {
    retrieve: {
      method: 'GET',
      path: '/v1/payments/settings',
      summary: 'Retrieve the payment settings',
      description: 'The tenant\'s ordered configurations for this environment, and what happens to a payment confirmed after its order expired.',
      responses: { 200: dataOf(PaymentSettingsSchema), ...errors },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/payments/settings',
      summary: 'Update the payment settings',
      description:
        '`provider_configs`: at most 10 `ppc_` ids of this environment, not `failing`, not restricted to an organization (`422 validation_failed`, `param: provider_configs.N`). ' +
        '`late_payment_policy`: `accept_if_available` (default) or `refund`.',
      body: UpdatePaymentSettingsSchema,
      responses: { 200: dataOf(PaymentSettingsSchema), ...errors, ...errorResponses(422) },
      metadata: write,
    },
    retrieveForOrganization: {
      method: 'GET',
      path: '/v1/organizations/:id/payment_settings',
      summary: 'Retrieve an organization\'s payment settings',
      description: '`provider_configs: null` means the organization uses the tenant\'s list.',
      pathParams: IdParams,
      responses: { 200: dataOf(OrganizationPaymentSettingsSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    updateForOrganization: {
      method: 'PATCH',
      path: '/v1/organizations/:id/payment_settings',
      summary: 'Update an organization\'s payment settings',
      description:
        'An ordered list of `ppc_` ids that replaces the tenant\'s for this organization\'s checkouts, or `null` for the tenant\'s. A configuration restricted to ' +
        'another organization, `failing`, or of another environment is `422 validation_failed` (`param: provider_configs.N`).',
      pathParams: IdParams,
      body: UpdateOrganizationPaymentSettingsSchema,
      responses: { 200: dataOf(OrganizationPaymentSettingsSchema), ...errors, ...errorResponses(404, 422) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);

export const paymentsReadContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/payments',
      summary: 'List payments',
      description: 'Every attempt, newest first; filter by `order`, `organization`, `customer`, `status`, `provider`, `method`, `late`, `failure_code` and `created[gte|gt|lte|lt]`. ' +
        'Payments held for review are `late=true` (confirmed after their order expired or was cancelled) and `failure_code=amount_mismatch`.',
      query: CursorPageQuerySchema.extend({
        order: z.string().max(255).optional(),
        organization: z.string().max(255).optional(),
        customer: z.string().max(255).optional(),
        status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']).optional(),
        provider: z.enum(PAYMENT_PROVIDERS).optional(),
        method: z.enum(['mobile_money', 'card', 'comp']).optional(),
        late: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
        failure_code: z.enum(PAYMENT_FAILURE_CODES).optional(),
        created: CreatedRange.optional(),
      }),
      responses: { 200: cursorListOf(PaymentSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/payments/:id',
      summary: 'Retrieve a payment',
      description: 'One payment attempt, with its provider reference and receipt.',
      pathParams: IdParams,
      responses: { 200: dataOf(PaymentSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    listRefunds: {
      method: 'GET',
      path: '/v1/refunds',
      summary: 'List refunds',
      description: 'Newest first; filter by `order`, `payment`, `status`, `source` and `created[gte|gt|lte|lt]`.',
      query: CursorPageQuerySchema.extend({
        order: z.string().max(255).optional(),
        payment: z.string().max(255).optional(),
        status: z.enum(['pending', 'succeeded', 'failed']).optional(),
        source: z.enum(['provider', 'manual', 'external']).optional(),
        created: CreatedRange.optional(),
      }),
      responses: { 200: cursorListOf(RefundSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieveRefund: {
      method: 'GET',
      path: '/v1/refunds/:id',
      summary: 'Retrieve a refund',
      description: 'One refund, with the payment whose money it returns.',
      pathParams: IdParams,
      responses: { 200: dataOf(RefundSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
  },
  { strictStatusCodes: true },
);

export const paymentsTestHelpersContract = c.router(
  {
    settlePayment: {
      method: 'POST',
      path: '/v1/test_helpers/payments/:id/settle',
      summary: 'Settle a pending payment',
      description:
        'Test mode: settles a `pending` payment as a provider confirmation would, the late-payment policy included. `409 invalid_state_transition` when it is not pending.',
      pathParams: IdParams,
      body: z.object({ outcome: z.enum(['succeeded', 'failed']), failure_code: z.enum(PAYMENT_FAILURE_CODES).optional() }),
      responses: { 200: dataOf(PaymentSchema), ...errors, ...errorResponses(404, 409) },
      metadata: testHelper,
    },
    settleRefund: {
      method: 'POST',
      path: '/v1/test_helpers/refunds/:id/settle',
      summary: 'Settle a pending refund',
      description: 'Test mode: settles a `pending` refund (`succeeded` by default). `409 invalid_state_transition` when it is not pending.',
      pathParams: IdParams,
      body: z.object({ outcome: z.enum(['succeeded', 'failed']).optional() }).optional(),
      responses: { 200: dataOf(RefundSchema), ...errors, ...errorResponses(404, 409) },
      metadata: testHelper,
    },
  },
  { strictStatusCodes: true },
);

/** Payments: provider configurations, settings, payments and refunds, test helpers. */
export const paymentsContract = c.router({
  providerConfigs: paymentProviderConfigsContract,
  settings: paymentSettingsContract,
  payments: paymentsReadContract,
  testHelpers: paymentsTestHelpersContract,
});
