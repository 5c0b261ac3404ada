import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { findPayment, type PaymentRow } from '../attempts/payment-rows.service';
import { settlePayment } from '../attempts/settle-payment';
import { ProviderError } from '../provider';
import { providerForRow } from '../providers/provider-of-row';
import { attemptOf } from '../refunds/refund-payment';

/**
 * Asks the provider about one pending attempt now (the buyer is back from a hosted page) and applies its answer
 * as reconciliation would: only the provider's own answer moves money. An outage leaves it to reconciliation.
 */
export async function refreshPayment(ctx: AppContext, scope: Scope, paymentId: string): Promise<PaymentRow | undefined> {
  const payment = await findPayment(ctx.db, scope, paymentId);
  if (!payment || payment.status !== 'pending' || payment.provider === 'simulated' || payment.provider === null) return payment;
  try {
    const provider = await providerForRow(ctx, new Map(), payment.provider, payment.provider_config_id);
    return (await settlePayment(ctx, scope, payment.id, await provider.queryPayment(attemptOf(payment)))).payment;
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    ctx.log.warn({ payment: payment.id, kind: err.kind, err: err.message }, 'a provider could not be asked about a returning buyer');
    return payment;
  }
}

/** The newest attempt of a checkout session, or `undefined`. */
export const latestSessionPayment = (db: Executor, scope: Scope, checkoutSessionId: string) =>
  scoped(db, scope).selectFrom('payments').selectAll().where('checkout_session_id', '=', checkoutSessionId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
