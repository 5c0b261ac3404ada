import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { SavedMethod } from '../provider';
import { findConfigsForSettings } from '../provider-configs/provider-configs.service';
import { simulatedSavedCard } from '../providers/simulated/simulator';

// Bound to the payment: a sealed reference copied to another row does not open.
const context = (paymentId: string) => `payment_saved_method:${paymentId}`;

export const sealSavedMethod = (ctx: AppContext, paymentId: string, method: SavedMethod) => ctx.secrets.encrypt(JSON.stringify(method), context(paymentId));

/**
 * Test mode: a succeeded simulator card payment counts as a saved card (products-api § 1.9), so a subscription
 * it activates renews automatically like one paid through Stripe. In the payment's transaction, before the order
 * is paid (the activation reads whether a card was kept).
 */
export async function keepSimulatedCard(trx: Executor, ctx: AppContext, scope: Scope, paymentId: string, cardNumber: string): Promise<void> {
  const sealed = sealSavedMethod(ctx, paymentId, simulatedSavedCard(cardNumber));
  await scoped(trx, scope).updateTable('payments').set({ saved_method_sealed: sealed }).where('id', '=', paymentId).where('provider', '=', 'simulated').execute();
}

/**
 * The succeeded card payment of an order whose card the provider kept for off-session charges (its `pay_` id),
 * or `null`: what a subscription's automatic renewal charges from then on.
 */
export async function reusableCardPayment(db: Executor, scope: Scope, orderId: string): Promise<string | null> {
  const row = await scoped(db, scope)
    .selectFrom('payments')
    .select('id')
    .where('order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .where('saved_method_sealed', 'is not', null)
    .orderBy('settled_at', 'desc')
    .executeTakeFirst();
  return row?.id ?? null;
}

const unavailable = (message: string) => ApiError.of('payment_method_unavailable', { param: 'method', message });

/**
 * The configuration and the opened card of a payment whose card was kept, for a charge without the payer: the
 * configuration must still be `active` (a `failing` or deleted one charges nothing: `422 payment_method_unavailable`).
 * A simulator card has no configuration (`config: null`): the simulator charges it.
 */
export async function savedMethodOf(ctx: AppContext, scope: Scope, paymentId: string) {
  const source = await scoped(ctx.db, scope)
    .selectFrom('payments')
    .select(['id', 'provider', 'provider_config_id', 'saved_method_sealed', 'payer_hint'])
    .where('id', '=', paymentId)
    .executeTakeFirst();
  const simulated = source?.provider === 'simulated' && !scope.livemode;
  if (!source?.saved_method_sealed || (!source.provider_config_id && !simulated)) throw unavailable('No saved card to charge.');
  const saved = JSON.parse(ctx.secrets.decrypt(source.saved_method_sealed, context(source.id))) as SavedMethod;
  if (simulated) return { config: null, saved, payerHint: source.payer_hint };
  const [config] = await findConfigsForSettings(ctx, scope, [source.provider_config_id!]);
  if (!config || config.status !== 'active') throw unavailable('The payment configuration of the saved card is not active.');
  return { config, saved, payerHint: source.payer_hint };
}
