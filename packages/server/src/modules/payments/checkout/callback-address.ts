import { createHash } from 'node:crypto';
import type { AppContext } from '../../../core/context';
import { randomToken } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

/**
 * The inbound address of one operation at a provider: M-Pesa's carries a per-operation token (stored hashed),
 * Paystack and Stripe notify the configuration's webhook address.
 */
export async function callbackAddress(
  ctx: AppContext,
  db: Executor,
  _scope: Scope,
  input: { configId: string; providerType: 'mpesa' | 'paystack' | 'stripe'; operation: { payment: string } | { refund: string } | { payout: string } },
): Promise<string> {
  const base = `${ctx.config.baseUrl.replace(/\/+$/, '')}/api/v1/payments/${input.providerType}/webhooks/${input.configId}`;
  if (input.providerType !== 'mpesa') return base;
  const token = randomToken(32);
  const subject = 'payment' in input.operation ? input.operation.payment : 'refund' in input.operation ? input.operation.refund : input.operation.payout;
  await db
    .insertInto('payment_callback_tokens')
    .values({ token_hash: createHash('sha256').update(token).digest('hex'), provider_config_id: input.configId, subject_id: subject })
    .execute();
  return `${base}/${token}`;
}
