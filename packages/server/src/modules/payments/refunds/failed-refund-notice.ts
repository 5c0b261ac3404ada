import type { Transaction } from 'kysely';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { RefundRow } from './refunds.repository';

const amountOf = (r: RefundRow) => `${(r.amount / 100).toFixed(2)} ${r.currency.toUpperCase()}`;

/**
 * A refund that failed leaves a buyer's money with the tenant, and many are made by the service itself (a late
 * or duplicate payment, a cancelled event), so nobody may be watching the API: the tenant's owners get an
 * email (products-api § 1.8), in the caller's transaction with the failure. It names ids and the provider's
 * reason, never a credential.
 */
export async function noticeFailedRefund(trx: Transaction<DB>, scope: Scope, refund: RefundRow): Promise<void> {
  const manual = `Return the money another way, then record it with POST /v1/orders/${refund.order_id}/refunds {"amount": ${refund.amount}, "manual": true}.`;
  await scoped(trx, scope)
    .insertInto('email_outbox', {
      id: newId('outbox_email'),
      recipients: 'tenant_owners',
      template: 'refund_failed',
      subject: `A refund of ${amountOf(refund)} failed`,
      body: [
        `The ${scope.livemode ? 'live' : 'test'} refund ${refund.id} of ${amountOf(refund)} for order ${refund.order_id} failed${refund.reason ? ` (it was made for: ${refund.reason})` : ''}.`,
        `The provider's reason: ${refund.failure_message ?? refund.failure_code ?? 'none given'}.`,
        manual,
      ].join('\n'),
      data: JSON.stringify({ refund: refund.id, order: refund.order_id, payment: refund.payment_id, failure_code: refund.failure_code }),
    })
    .execute();
}
