import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import { settlePayment } from '../attempts/settle-payment';
import type { ProviderPaymentState } from '../provider';
import { providerForRow } from '../providers/provider-of-row';
import { attemptOf } from '../refunds/refund-payment';

/**
 * The order stopped waiting (expired or cancelled): its attempts on a hosted page are given up (products-api
 * § 1.3). Stripe's session is expired at Stripe; a Paystack page cannot be closed, so its attempt is `cancelled`
 * unless Paystack already has the money. Either way the provider is asked first, and a success it reports is
 * settled as one (then the late-payment policy decides); a success confirmed later still wins. M-Pesa prompts
 * are left to reconciliation. Runs after the order's transaction: a provider that does not answer changes nothing.
 */
export async function giveUpHostedAttempts(ctx: AppContext, scope: Scope, orderId: string): Promise<void> {
  const pending = await scoped(ctx.db, scope)
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'pending')
    .where('provider', 'in', ['paystack', 'stripe'])
    .execute();
  for (const payment of pending) {
    try {
      const provider = await providerForRow(ctx, new Map(), payment.provider, payment.provider_config_id);
      await provider.cancelPayment(attemptOf(payment));
      const state = await provider.queryPayment(attemptOf(payment));
      const final: ProviderPaymentState = state.status === 'pending' ? { status: 'cancelled' } : state;
      await settlePayment(ctx, scope, payment.id, final);
    } catch (err) {
      ctx.log.warn({ payment: payment.id, err: err instanceof Error ? err.message : String(err) }, 'a hosted payment attempt could not be given up; reconciliation will ask again');
    }
  }
}
