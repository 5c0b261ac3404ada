import type { AppContext } from '../../../core/context';
import { ProviderError, type PaymentProvider } from '../provider';
import { providerOfConfig, simulatedProvider } from './provider-for';

/** The adapter a payment or refund was made with, cached per pass by configuration. */
export async function providerForRow(ctx: AppContext, cache: Map<string, PaymentProvider>, provider: string | null, configId: string | null): Promise<PaymentProvider> {
  if (provider === 'simulated' || provider === null || configId === null) {
    if (provider !== 'simulated' && provider !== null) throw new ProviderError('rejected', `the ${provider} configuration of this row was deleted`);
    return simulatedProvider(ctx);
  }
  const cached = cache.get(configId);
  if (cached) return cached;
  const row = await ctx.db.selectFrom('payment_provider_configs').selectAll().where('id', '=', configId).executeTakeFirst();
  if (!row) throw new ProviderError('rejected', `configuration ${configId} no longer exists`);
  const adapter = providerOfConfig(ctx, row);
  cache.set(configId, adapter);
  return adapter;
}
