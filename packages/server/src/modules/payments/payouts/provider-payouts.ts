import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { PaymentProviderConfigRow } from '../../../db/payments.schema';
import { callbackAddress } from '../inbound/callback-address';
import { markConfigFailing } from '../provider-configs/provider-configs.service';
import { ProviderError, type PayoutState } from '../provider';
import { providerOfConfig } from '../providers/provider-for';
import { providerDefinition } from '../providers/registry';
import { effectiveConfigs } from '../settings/payment-settings.service';

const canPayOut = (row: PaymentProviderConfigRow) => row.type === 'mpesa' && row.status === 'active' && Boolean(providerDefinition('mpesa')?.capabilities(row.account ?? {}).payouts);

/**
 * The M-Pesa configuration a payout goes through: the one named (of this scope, active, with `payouts`), else
 * the first with `payouts` in the organization's effective list; `null` when none can pay out.
 */
export async function payoutConfig(ctx: AppContext, scope: Scope, organizationId: string, configId?: string): Promise<PaymentProviderConfigRow | null> {
  if (configId) {
    const row = await scoped(ctx.db, scope).selectFrom('payment_provider_configs').selectAll().where('id', '=', configId).executeTakeFirst();
    return row && canPayOut(row) ? row : null;
  }
  try {
    return (await effectiveConfigs(ctx, scope, organizationId)).find(canPayOut) ?? null;
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}

async function adapterOf(ctx: AppContext, scope: Scope, configId: string) {
  const row = await scoped(ctx.db, scope).selectFrom('payment_provider_configs').selectAll().where('id', '=', configId).executeTakeFirst();
  if (!row) throw new ProviderError('rejected', `configuration ${configId} no longer exists`);
  const adapter = providerOfConfig(ctx, row);
  if (!adapter.payout || !adapter.queryPayout) throw new ProviderError('rejected', `a ${row.type} configuration pays nothing out`);
  return { adapter: adapter as Required<typeof adapter>, row };
}

const address = (ctx: AppContext, scope: Scope, configId: string, payoutId: string) => callbackAddress(ctx, ctx.db, scope, { configId, providerType: 'mpesa', operation: { payout: payoutId } });

export type SentPayout = { status: 'sent'; providerReference: string } | { status: 'unknown'; message: string } | Extract<PayoutState, { status: 'failed' }>;

/**
 * Sends a payout once, with its own result address. A refusal (the phone, the initiator, the credentials)
 * means nothing was paid: `failed`. A timeout or an outage may have paid or not: `unknown`, for Transaction
 * Status to tell; sending again could pay twice.
 */
export async function sendProviderPayout(ctx: AppContext, scope: Scope, input: { configId: string; payoutId: string; phone: string; amount: number; currency: string }): Promise<SentPayout> {
  try {
    const { adapter } = await adapterOf(ctx, scope, input.configId);
    const callbackUrl = await address(ctx, scope, input.configId, input.payoutId);
    const sent = await adapter.payout({ payoutId: input.payoutId, phone: input.phone, amount: input.amount, currency: input.currency, callbackUrl });
    return { status: 'sent', providerReference: sent.providerReference };
  } catch (err) {
    if (!(err instanceof ProviderError) || err.kind === 'unavailable') return { status: 'unknown', message: err instanceof Error ? err.message : String(err) };
    if (err.kind === 'credentials') await markConfigFailing(ctx, input.configId, err.message);
    return { status: 'failed', code: 'provider_error', message: err.message };
  }
}

/** Asks the provider to post a payout's result to a fresh address of the payout (M-Pesa: Transaction Status). */
export async function queryProviderPayout(ctx: AppContext, scope: Scope, input: { configId: string; payoutId: string }): Promise<void> {
  try {
    const { adapter } = await adapterOf(ctx, scope, input.configId);
    await adapter.queryPayout({ payoutId: input.payoutId, callbackUrl: await address(ctx, scope, input.configId, input.payoutId) });
  } catch (err) {
    if (err instanceof ProviderError && err.kind === 'credentials') await markConfigFailing(ctx, input.configId, err.message);
    throw err;
  }
}
