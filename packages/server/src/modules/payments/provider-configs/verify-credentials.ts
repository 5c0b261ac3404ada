import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { ProviderError, type ConfigurableProviderType, type ProviderCredentials } from '../provider';
import { providerWith } from '../providers/provider-for';
import { providerDefinition } from '../providers/registry';

/** The provider's refusal as the API's error: the field and reason, never a secret (adapters redact their messages). */
function credentialsError(err: ProviderError): ApiError {
  return ApiError.of('payment_credentials_invalid', {
    message: `The provider refused the credentials: ${err.message}`,
    param: err.detail.param,
    details: { reason: err.detail.reason ?? 'rejected' },
  });
}

/**
 * Tries credentials before they are stored: first by form (key prefixes and mode), then with a harmless call
 * at the provider. A refusal is `422 payment_credentials_invalid`; an outage `502 provider_unavailable`.
 * Answers the non-secret facts learnt (Stripe's account id).
 */
export async function verifyCredentials(ctx: AppContext, type: ConfigurableProviderType, credentials: ProviderCredentials): Promise<Record<string, string | null>> {
  const definition = providerDefinition(type);
  if (!definition) {
    throw ApiError.of('validation_failed', { param: 'type', message: `This server does not speak to '${type}'.`, details: { type: ['not available on this server'] } });
  }
  const form = definition.checkForm(credentials);
  if (form) throw credentialsError(form);
  try {
    const verified = await providerWith(ctx, type, credentials).verifyCredentials();
    return verified.account;
  } catch (err) {
    if (err instanceof ProviderError && err.kind !== 'unavailable') throw credentialsError(err);
    ctx.log.warn({ provider: type, err: err instanceof Error ? err.message : String(err) }, 'payment provider unavailable while verifying credentials');
    throw ApiError.of('provider_unavailable', { message: `${type} did not answer; try again shortly.` });
  }
}
