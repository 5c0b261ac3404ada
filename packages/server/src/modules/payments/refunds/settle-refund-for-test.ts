import type { Refund } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { findRefund } from './refunds.repository';
import { serializeRefund } from './refunds.serializer';
import { settleRefund } from './settle-refund';

/** `POST /v1/test_helpers/refunds/{id}/settle`: settles a `pending` refund as the provider's result would. */
export async function settleRefundForTest(ctx: AppContext, scope: Scope, id: string, outcome: 'succeeded' | 'failed' = 'succeeded'): Promise<Refund> {
  const row = isIdOf('refund', id) ? await findRefund(ctx.db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('refund', id);
  if (row.status !== 'pending') throw ApiError.of('invalid_state_transition', { message: `The refund is ${row.status}, not pending.`, details: { status: row.status } });
  const state = outcome === 'succeeded' ? { status: 'succeeded' as const } : { status: 'failed' as const, failureCode: 'declined' as const, failureMessage: null };
  return serializeRefund((await settleRefund(ctx, scope, id, state))!);
}
