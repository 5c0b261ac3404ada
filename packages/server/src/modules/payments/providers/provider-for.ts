import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { PaymentProviderConfigRow } from '../../../db/payments.schema';
import type { PaymentProvider, ProviderCredentials, ProviderEnvironment, ProviderType } from '../provider';
import { mpesaSecurityCertificate, paymentProviderBaseUrl } from '../../../boot/payments-config';
import { providerDefinition } from './registry';

/** Binds a configuration's secrets to its id, so a sealed value cannot be moved to another configuration. */
export const secretsContext = (configId: string) => `payment_provider_config:${configId}`;

/** The provider's base address: the server's variable when set (fakes, proxies), else its real host for the mode. */
export function apiUrlOf(ctx: AppContext, type: ProviderType, livemode: boolean): string {
  const url = type === 'simulated' ? '' : paymentProviderBaseUrl(type, livemode, ctx.config);
  return url.replace(/\/+$/, '');
}

const nowOf = (ctx: AppContext) => () => (ctx.clock ? ctx.clock() : new Date());

/** The adapter for credentials not yet stored (verification on create and update). */
export function providerWith(ctx: AppContext, type: ProviderType, credentials: ProviderCredentials): PaymentProvider {
  const definition = providerDefinition(type);
  if (!definition) throw ApiError.of('validation_failed', { param: 'type', message: `This server does not speak to '${type}'.` });
  // Safaricom's certificate seals M-Pesa's initiator password (reversals); the other adapters ignore it.
  const securityCertificate = type === 'mpesa' ? mpesaSecurityCertificate(credentials.livemode, ctx.config) : null;
  return definition.create(credentials, { apiUrl: apiUrlOf(ctx, type, credentials.livemode), now: nowOf(ctx), securityCertificate } as ProviderEnvironment);
}

/** The adapter of a stored configuration, its secrets unsealed for this call only. */
export function providerOfConfig(ctx: AppContext, row: PaymentProviderConfigRow): PaymentProvider {
  const secrets = JSON.parse(ctx.secrets.decrypt(row.secrets_sealed, secretsContext(row.id))) as Record<string, string>;
  return providerWith(ctx, row.type, { configId: row.id, livemode: row.livemode, account: row.account ?? {}, secrets });
}

/** The test-mode simulator. */
export const simulatedProvider = (ctx: AppContext): PaymentProvider => providerWith(ctx, 'simulated', { configId: null, livemode: false, account: {}, secrets: {} });
