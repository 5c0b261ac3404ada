import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitPreparedEvents, envelopeOf } from '../../../core/events/emit-event';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { paymentTarget } from '../payment-targets';
import type { ProviderPaymentState } from '../provider';
import type { PaymentRow } from './payments.repository';
import { serializePayment } from './payments.serializer';

export interface Confirmation {
  paymentId: string;
  state: ProviderPaymentState;
}

/**
 * Several confirmations of one scope settled in ONE transaction: the payments locked in id order, then those
 * still `pending` whose provider confirmed the whole amount in their currency, and whose orders the product
 * takes together (`PaymentTarget.paymentsSucceededTogether`, the plain case), marked `succeeded` in one
 * statement, their orders paid together and their `payments.payment.succeeded` events written in one more.
 * Many confirmations of one event then take its capacity row once per transaction instead of once each.
 * Answers the ids paid; every other confirmation is left untouched for `settlePayment`, one by one. Throws
 * (nothing written) for the caller to settle each alone.
 */
export async function settlePaymentsTogether(ctx: AppContext, scope: Scope, confirmations: readonly Confirmation[]): Promise<Set<string>> {
  const target = paymentTarget();
  const stateOf = new Map(confirmations.map((c) => [c.paymentId, c.state]));
  if (!target.paymentsSucceededTogether || stateOf.size === 0) return new Set();
  const together = target.paymentsSucceededTogether.bind(target);
  return ctx.db.transaction().execute(async (trx) => {
    const locked = await scoped(trx, scope).selectFrom('payments').selectAll().where('id', 'in', [...stateOf.keys()]).orderBy('id').forUpdate().execute();
    const ready = locked.filter((p) => {
      const state = stateOf.get(p.id)!;
      return p.status === 'pending' && state.status === 'succeeded' && state.amount === p.amount && state.currency.toUpperCase() === p.currency.toUpperCase();
    });
    if (ready.length === 0) return new Set<string>();
    const plan = await together(trx, ctx, scope, ready);
    const paying = ready.filter((p) => plan.ids.has(p.id));
    if (paying.length === 0) return new Set<string>();
    const receipts = paying.map((p) => {
      const state = stateOf.get(p.id)!;
      return (state.status === 'succeeded' ? state.providerReceipt : null) ?? p.provider_receipt;
    });
    const succeeded = await markSucceeded(trx, scope, paying.map((p) => p.id), receipts, ctx.clock ? ctx.clock() : new Date());
    if (succeeded.length !== paying.length) throw new Error('settlePaymentsTogether: a payment was not marked succeeded');
    await plan.pay(succeeded);
    await emitPreparedEvents(
      trx,
      succeeded.map((row) => ({
        scope,
        envelope: envelopeOf(scope, { type: 'payments.payment.succeeded', subject: row.id, object: serializePayment(row), previousAttributes: { status: 'pending' } }),
      })),
    );
    return new Set(succeeded.map((p) => p.id));
  });
}

/** `pending` to `succeeded` for several payments, each with its receipt, in one statement; answers them in the same order. */
async function markSucceeded(trx: Transaction<DB>, scope: Scope, ids: readonly string[], receipts: ReadonlyArray<string | null>, at: Date): Promise<PaymentRow[]> {
  const { rows } = await sql<PaymentRow>`
    update payments p set status = 'succeeded', failure_code = null, failure_message = null, provider_receipt = v.receipt,
      settled_at = ${at}, next_check_at = null, next_action = null, updated_at = ${new Date()}
    from unnest(${[...ids]}::text[], ${[...receipts]}::text[]) as v(id, receipt)
    where p.id = v.id and p.tenant_id = ${scope.tenantId} and p.livemode = ${scope.livemode} and p.status = 'pending'
    returning p.*`.execute(trx);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is PaymentRow => r !== undefined);
}
