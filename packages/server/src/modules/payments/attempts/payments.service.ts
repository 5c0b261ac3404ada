import type { CursorPageQuery, Payment } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { PaymentFailureCode } from '../provider';
import { findPayment, listPayments, type PaymentFilters } from './payments.repository';
import { serializePayment } from './payments.serializer';
import { settlePayment } from './settle-payment';

export async function listPaymentObjects(ctx: AppContext, scope: Scope, filters: PaymentFilters, page: CursorPageQuery) {
  const result = await listPayments(ctx.db, scope, filters, page);
  return { ...result, data: result.data.map(serializePayment) };
}

async function paymentRow(ctx: AppContext, scope: Scope, id: string) {
  const row = isIdOf('payment', id) ? await findPayment(ctx.db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('payment', id);
  return row;
}

export async function retrievePayment(ctx: AppContext, scope: Scope, id: string): Promise<Payment> {
  return serializePayment(await paymentRow(ctx, scope, id));
}

/** `POST /v1/test_helpers/payments/{id}/settle`: what a provider's confirmation would do, late-payment policy included. */
export async function settlePaymentForTest(ctx: AppContext, scope: Scope, id: string, input: { outcome: 'succeeded' | 'failed'; failure_code?: PaymentFailureCode }): Promise<Payment> {
  const row = await paymentRow(ctx, scope, id);
  if (row.status !== 'pending') throw ApiError.of('invalid_state_transition', { message: `The payment is ${row.status}, not pending.`, details: { status: row.status } });
  const state =
    input.outcome === 'succeeded'
      ? { status: 'succeeded' as const, amount: row.amount, currency: row.currency, providerReceipt: null }
      : { status: 'failed' as const, failureCode: input.failure_code ?? ('declined' as const), failureMessage: null };
  const { payment } = await settlePayment(ctx, scope, id, state);
  return serializePayment(payment!);
}
