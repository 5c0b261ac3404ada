import { PaymentSchema, RefundSchema } from '../ticketing/payments.schemas';
import { PaymentProviderConfigSchema } from '../payments/provider-configs.schemas';
import { defineEvents } from './define-events';

// `payments.payment.failed`, `payments.refund.succeeded` and `.failed` are declared with ticketing's events.
export const paymentsEvents = defineEvents({
  'payments.payment.succeeded': {
    payload: PaymentSchema,
    description: 'A payment was confirmed by its provider (`late` says whether after its order stopped waiting).',
  },
  'payments.payment.cancelled': { payload: PaymentSchema, description: 'The service gave a pending attempt up.' },
  'payments.refund.created': { payload: RefundSchema, description: 'A refund was made and is `pending` at the provider.' },
  'payments.provider_config.failing': {
    payload: PaymentProviderConfigSchema,
    description: 'The provider refused a configuration\'s stored credentials; checkout skips it until a verified update.',
  },
});
