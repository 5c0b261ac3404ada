import type { AppContext } from '../../../core/context';
import type { PaymentProviderConfigRow } from '../../../db/payments.schema';
import type { PaymentProvider } from '../provider';
import { providerOfConfig } from '../providers/provider-for';

/** Adapters kept per configuration version, so a busy address does not unseal secrets on every callback. */
const MAX = 500;
const adapters = new WeakMap<AppContext, Map<string, PaymentProvider>>();

/**
 * The adapter of a stored configuration, cached while the row is unchanged (`updated_at` moves with every
 * secret change, so a rotated key is used at once). The secrets stay in memory only as the adapter holds them.
 */
export function inboundAdapter(ctx: AppContext, row: PaymentProviderConfigRow): PaymentProvider {
  let cache = adapters.get(ctx);
  if (!cache) adapters.set(ctx, (cache = new Map()));
  const key = `${row.id}@${new Date(row.updated_at).getTime()}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const adapter = providerOfConfig(ctx, row);
  if (cache.size >= MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, adapter);
  return adapter;
}
