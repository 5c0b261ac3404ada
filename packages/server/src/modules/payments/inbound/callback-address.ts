import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { hashSecret } from '../../../core/auth/api-key-secret';
import { randomToken } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';

/** Daraja signs nothing: the address itself is the credential, so its token is long and random and kept hashed. */
export const CALLBACK_TOKEN_LENGTH = 32;

export type CallbackOperation = { payment: string } | { refund: string } | { payout: string };

function subjectOf(operation: CallbackOperation): { type: 'payment' | 'refund' | 'payout'; id: string } {
  if ('payment' in operation) return { type: 'payment', id: operation.payment };
  if ('refund' in operation) return { type: 'refund', id: operation.refund };
  return { type: 'payout', id: operation.payout };
}

export const hashCallbackToken = (token: string) => hashSecret(token);

/**
 * The inbound address a provider should notify for one operation (products-api § 1.4). M-Pesa: a fresh
 * per-operation address `…/mpesa/webhooks/{ppc}/{token}`, whose token row is written in `db` (the caller's
 * transaction, so an attempt that rolls back leaves no live address); the configuration must be the scope's.
 * Paystack and Stripe sign their notifications, so their address is the configuration's own `webhook_url`.
 */
export async function callbackAddress(
  ctx: AppContext,
  db: Kysely<DB> | Transaction<DB>,
  scope: Scope,
  input: { configId: string; providerType: 'mpesa' | 'paystack' | 'stripe'; operation: CallbackOperation },
): Promise<string> {
  const base = `${ctx.config.baseUrl}/api/v1/payments/${input.providerType}/webhooks/${input.configId}`;
  if (input.providerType !== 'mpesa') return base;
  const token = randomToken(CALLBACK_TOKEN_LENGTH);
  const subject = subjectOf(input.operation);
  const inserted = await db
    .insertInto('payment_callback_tokens')
    .columns(['token_hash', 'provider_config_id', 'subject_id', 'subject_type'])
    .expression((eb) =>
      eb
        .selectFrom('payment_provider_configs')
        .select([eb.val(hashCallbackToken(token)).as('token_hash'), 'id', eb.val(subject.id).as('subject_id'), eb.val(subject.type).as('subject_type')])
        .where('id', '=', input.configId)
        .where('tenant_id', '=', scope.tenantId)
        .where('livemode', '=', scope.livemode)
        .where('type', '=', 'mpesa'),
    )
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new Error(`payment provider configuration ${input.configId} is not an M-Pesa configuration of this scope`);
  return `${base}/${token}`;
}
