import { z } from 'zod';
import { EffectiveBrandingSchema } from '../whitelabel/branding.schemas';

/** The phone numbers and cards the test-mode checkout simulator answers in a set way (docs/ticketing.md). */
export const MAGIC_PAYERS = {
  succeeds: ['+254711000000', '4242424242424242'],
  insufficientFunds: ['+254711000001', '4000000000009995'],
  declined: ['+254711000002', '4000000000000002'],
  neverAnswers: ['+254711000003'],
  /** The payment succeeds; every refund of it fails (`declined`). */
  refundFails: ['+254711000005', '4000000000005126'],
  /** Fails with `cancelled_by_user` (the payer dismissed the prompt). */
  cancelledByUser: ['+254711000004'],
  /** Fails with `timeout` (the prompt was never answered). */
  timesOut: ['+254711000006'],
  /** The payment succeeds; its refunds stay `pending` until the test helper settles them. */
  refundsPending: ['+254711000008', '4000000000007726'],
  /** The payment succeeds and its card is kept for automatic renewal; every renewal charge of it fails (`declined`). */
  renewalDeclined: ['4000000000000341'],
} as const;

/** The stable reasons of a failed payment; clients read an unknown code as `declined`. */
export const PAYMENT_FAILURE_CODES = [
  'insufficient_funds',
  'declined',
  'cancelled_by_user',
  'timeout',
  'invalid_pin',
  'subscriber_busy',
  'amount_mismatch',
  'provider_error',
] as const;

export const PAYMENT_PROVIDERS = ['simulated', 'mpesa', 'paystack', 'stripe'] as const;

export const NextActionSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('confirm_on_phone'), phone_hint: z.string(), expires_at: z.string() }),
    z.object({ type: z.literal('redirect'), url: z.string() }),
  ])
  .meta({ id: 'PaymentNextAction' });

export const PaymentSchema = z
  .object({
    id: z.string().describe('Starts `pay_`.'),
    object: z.literal('payment'),
    livemode: z.boolean(),
    order: z.string().describe('The order (`ord_`) it pays.'),
    checkout_session: z.string().nullable(),
    method: z.enum(['mobile_money', 'card', 'comp']),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']),
    failure_code: z
      .string()
      .nullable()
      .describe(`When \`status\` is \`failed\`: one of ${PAYMENT_FAILURE_CODES.map((c) => `\`${c}\``).join(', ')}; read an unknown code as \`declined\`.`),
    failure_message: z.string().nullable(),
    payer_hint: z.string().nullable().describe('The last four digits of the phone or card; never the whole number.'),
    provider: z.enum(PAYMENT_PROVIDERS).nullable().describe('`simulated` in test mode without a configuration; `null` for `comp`.'),
    provider_config: z.string().nullable().describe('The `ppc_` configuration that took it.'),
    provider_reference: z.string().nullable().describe('M-Pesa `CheckoutRequestID`, Paystack reference, Stripe Checkout Session id.'),
    provider_receipt: z.string().nullable().describe('M-Pesa receipt number, Paystack transaction id, Stripe PaymentIntent id.'),
    organization: z.string().nullable(),
    customer: z.string().nullable(),
    amount_refunded: z.number().int().describe('What succeeded refunds of this payment returned.'),
    late: z.boolean().describe('Succeeded after its order expired or was cancelled.'),
    next_action: NextActionSchema.nullable().describe('While `pending`: what the payer must do next.'),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    settled_at: z.string().nullable(),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof PaymentSchema>;

export const RefundSchema = z
  .object({
    id: z.string().describe('Starts `re_`.'),
    object: z.literal('refund'),
    livemode: z.boolean(),
    order: z.string(),
    amount: z.number().int().describe('In the currency\'s minor unit.'),
    currency: z.string(),
    reason: z.string().nullable(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    failure_code: z.string().nullable().describe('`declined`, `refunds_unavailable`, `insufficient_balance` or `provider_error` when `failed`.'),
    failure_message: z.string().nullable(),
    payment: z.string().nullable().describe('The `pay_` whose money it returns.'),
    source: z.enum(['provider', 'manual', 'external']),
    line_items: z.array(z.object({ line_item: z.string(), quantity: z.number().int() })),
    provider: z.string().nullable(),
    provider_reference: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    settled_at: z.string().nullable(),
  })
  .meta({ id: 'Refund' });
export type Refund = z.infer<typeof RefundSchema>;

export const CheckoutSessionSchema = z
  .object({
    id: z.string().describe('Starts `cs_`; unguessable, so it is the only credential the checkout page needs.'),
    object: z.literal('checkout_session'),
    livemode: z.boolean(),
    status: z.enum(['open', 'complete', 'expired']),
    amount: z.number().int(),
    currency: z.string(),
    url: z.string().describe('The checkout page: `{base_url}/checkout/{id}`.'),
    expires_at: z.string(),
    order: z.object({
      id: z.string(),
      code: z.string(),
      status: z.string(),
      kind: z.enum(['ticket', 'product', 'subscription']),
      organization: z.object({ id: z.string(), name: z.string() }),
      event: z.object({ name: z.string(), starts_at: z.string(), venue: z.record(z.string(), z.unknown()).nullable() }).nullable().describe('`null` unless `kind` is `ticket`.'),
      ticket_type: z.object({ name: z.string() }).nullable().describe('`null` unless `kind` is `ticket`.'),
      line_items: z.array(z.object({ description: z.string(), quantity: z.number().int(), amount_total: z.number().int() })),
      quantity: z.number().int(),
      amount_total: z.number().int(),
      amount_discount: z.number().int(),
      amount_paid: z.number().int(),
      amount_due: z.number().int(),
      expires_at: z.string().nullable(),
    }),
    methods: z
      .array(z.object({ method: z.enum(['mobile_money', 'card']), provider: z.enum(PAYMENT_PROVIDERS) }))
      .describe('The ways the page offers to pay: each method once, by the first active configuration serving it (`simulated` in test mode without one).'),
    latest_payment: z
      .object({
        id: z.string(),
        status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']),
        failure_code: z.string().nullable(),
        failure_message: z.string().nullable(),
        next_action: NextActionSchema.nullable(),
      })
      .nullable()
      .describe('The newest payment attempt of this session, or `null`: the page polls it while it is `pending`.'),
    redirect_to: z
      .string()
      .nullable()
      .describe('The booking\'s `redirect_url` with `code`, `outcome` (`succeeded` or `refunded`) and `payment`, once the session is complete or a late payment was refunded; else `null`.'),
    branding: EffectiveBrandingSchema.describe('The effective branding of the order\'s organization: the page dresses itself with it.'),
  })
  .meta({ id: 'CheckoutSession' });
export type CheckoutSession = z.infer<typeof CheckoutSessionSchema>;

export const PayCheckoutSessionSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('mobile_money'),
    phone: z
      .string()
      .regex(/^\+[1-9]\d{7,14}$/, 'An E.164 phone number, e.g. +254711000000.')
      .optional()
      .describe('Required by the simulator and by M-Pesa (a Kenyan `+254` number); Paystack asks on its own page.'),
  }),
  z.object({
    method: z.literal('card'),
    card_number: z
      .string()
      .regex(/^\d{12,19}$/, 'The card number: 12 to 19 digits.')
      .optional()
      .describe('The simulator\'s card (test mode only). In live mode card details are typed on the provider\'s page: sending one is `422`.'),
  }),
]);

export const PayCheckoutSessionResultSchema = z.object({
  payment: PaymentSchema,
  next_action: NextActionSchema.nullable().describe('What the buyer does next: approve the prompt on the phone (the page polls the session), go to the provider\'s page, or nothing (settled at once).'),
  redirect_to: z
    .string()
    .nullable()
    .describe('Where the page sends the buyer: the booking\'s `redirect_url` with `code`, `outcome` (`succeeded`, `pending`, or `refunded` when a late payment found its seats gone) and `payment`; `null` after a failure (the buyer may try again) or without a `redirect_url`.'),
});

export const PayLaterResultSchema = z.object({
  status: z.string().describe('The order\'s status.'),
  paid: z.boolean().describe('Whether `amount_paid` reached `amount_total`.'),
  amount_due: z.number().int().describe('What is left to pay after the payments that succeeded so far.'),
  payment: z.union([z.string(), z.array(z.never())]).describe('The checkout page for this payment, or `[]` when nothing is due.'),
});
