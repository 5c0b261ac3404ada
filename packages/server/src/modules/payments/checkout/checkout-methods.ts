import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { PaymentProviderConfigRow } from '../../../db/payments.schema';
import type { PaymentMethod, ProviderType } from '../provider';
import { providerDefinition } from '../providers/registry';
import { effectiveConfigs } from '../settings/payment-settings.service';

export interface OfferedMethod {
  method: PaymentMethod;
  provider: ProviderType;
  /** The configuration that serves it; `null` for the simulator. */
  config: PaymentProviderConfigRow | null;
}

const SIMULATED: OfferedMethod[] = [
  { method: 'mobile_money', provider: 'simulated', config: null },
  { method: 'card', provider: 'simulated', config: null },
];

/**
 * The methods a checkout of `amount` `currency` for an organization offers (products-api § 1.2): each method
 * once, by the first active configuration in the effective list that offers it and accepts the amount (M-Pesa:
 * whole shillings of KES). Test mode without a list is the simulator. Throws `409 payments_not_configured` or
 * `503 payments_unavailable` as `effectiveConfigs` does.
 */
export async function checkoutMethods(ctx: AppContext, scope: Scope, organizationId: string, amount: number, currency: string): Promise<OfferedMethod[]> {
  const configs = await effectiveConfigs(ctx, scope, organizationId);
  if (configs.length === 0) return SIMULATED;
  const offered: OfferedMethod[] = [];
  for (const config of configs) {
    const definition = providerDefinition(config.type);
    if (!definition?.accepts(amount, currency)) continue;
    for (const method of definition.methods) {
      if (!offered.some((o) => o.method === method)) offered.push({ method, provider: config.type, config });
    }
  }
  return offered;
}

/** The methods as the checkout session shows them; a checkout nothing can pay offers none (the page says so). */
export async function offeredMethods(ctx: AppContext, scope: Scope, organizationId: string, amount: number, currency: string): Promise<Array<{ method: PaymentMethod; provider: ProviderType }>> {
  try {
    return (await checkoutMethods(ctx, scope, organizationId, amount, currency)).map(({ method, provider }) => ({ method, provider }));
  } catch (err) {
    if (err instanceof ApiError) return [];
    throw err;
  }
}

/** The configuration serving one method, or `422 payment_method_unavailable`. */
export async function methodServer(ctx: AppContext, scope: Scope, organizationId: string, method: PaymentMethod, amount: number, currency: string): Promise<OfferedMethod> {
  const found = (await checkoutMethods(ctx, scope, organizationId, amount, currency)).find((o) => o.method === method);
  if (!found) {
    throw ApiError.of('payment_method_unavailable', {
      param: 'method',
      message: `No active payment configuration serves ${method} for ${amount} ${currency} for this order.`,
    });
  }
  return found;
}
