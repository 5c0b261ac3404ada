import type { ModuleDefinition } from '../../core/modules/module-definition';
import { paymentsRouter } from './payments.router';
import { reconcileJobs } from './reconcile/reconcile-payments.job';
import { purgePaymentNotificationsJob } from './retention/purge-payment-notifications.job';
import { applyNotificationJobs } from './inbound/apply-notification.job';
import { mountPaymentWebhooks } from './inbound/inbound.receiver';

/**
 * Payments: payment attempts at a provider (the simulator in test mode, tenants' M-Pesa, Paystack and Stripe
 * accounts), their references, provider notifications, reconciliation and refunds at the provider. The
 * products that own orders (ticketing) pay through it and register a `PaymentTarget` to learn of money.
 */
export const paymentsModule: ModuleDefinition = {
  name: 'payments',
  routers: (ctx) => ({ payments: paymentsRouter(ctx) }),
  // Provider notifications are signed over their raw bytes (M-Pesa's carry a token in the address instead).
  mountRaw: (app, ctx, middleware) => mountPaymentWebhooks(app, ctx, middleware),
  jobs: (ctx) => [...reconcileJobs(ctx), ...applyNotificationJobs(ctx), purgePaymentNotificationsJob(ctx)],
};

export { registerPaymentTarget, type PaymentTarget, type TogetherPlan } from './payment-targets';
export { declinedByPayer, recordPayment, recordPayments, refundablePayments, serializePayment, startSimulatedPayment, succeededPayments, nextCheckAt, type PaymentRow } from './attempts/payment-rows.service';
export { refundPayment } from './refunds/refund-payment';
export { listRefundObjects, type RefundRow } from './refunds/refunds.service';
export { serializeRefund } from './refunds/refunds.serializer';
export { payerHint } from './providers/simulated/simulator';
export { effectiveConfigs, latePaymentPolicy, requireLivePayments } from './settings/payment-settings.service';
export { callbackAddress, type CallbackOperation } from './inbound/callback-address';
export { checkoutMethods, offeredMethods, type OfferedMethod } from './checkout/checkout-methods';
export { startCheckoutPayment, type CheckoutAttempt } from './checkout/start-checkout-payment';
export { keepSimulatedCard, reusableCardPayment } from './attempts/saved-methods';
export { keptCardPayments, registerSavedCardDependents, type SavedCardDependents } from './attempts/saved-card-dependents';
export { latestSessionPayment, refreshPayment } from './checkout/refresh-payment';
export type { NextAction } from './provider';
export { giveUpHostedAttempts } from './checkout/give-up-attempts';
export { registerPayoutTarget, type PayoutTarget } from './payouts/payout-target';
export { payoutConfig, queryProviderPayout, sendProviderPayout, type SentPayout } from './payouts/provider-payouts';
export type { PayoutState } from './provider';
