import * as client from 'openid-client';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { policyFetch } from '../../../core/outbound/policy-fetch';
import { permittedAddresses, systemResolver, UrlRefused } from '../../../core/outbound/url-policy';
import type { Scope } from '../../../core/scope';

type Ctx = Pick<AppContext, 'resolveHost'>;

/**
 * Refuses an issuer a request must not reach, under the webhook rules (core/outbound/url-policy.ts), at `PUT`.
 * Every request of a sign-in is checked again (`providerFetch`): the DNS may have changed since.
 */
export async function checkIssuer(ctx: Ctx, scope: Scope, issuer: string): Promise<void> {
  try {
    await permittedAddresses(new URL(issuer), scope.livemode, ctx.resolveHost ?? systemResolver);
  } catch (err) {
    if (!(err instanceof UrlRefused)) throw err;
    const message = err.reason === 'https_required' ? 'A live-mode issuer must use https://.' : err.message;
    throw ApiError.of('webhook_url_not_allowed', { message, param: 'issuer', details: { reason: err.reason } });
  }
}

/**
 * The fetch of every request openid-client makes for a provider (discovery, JWKS, token, UserInfo): each URL
 * goes through the webhook rules of the environment and the connection goes to the checked address. It
 * remembers a refusal, so a refused address is told apart from a provider that failed.
 */
export function providerFetch(ctx: Ctx, livemode: boolean): { fetch: client.CustomFetch; refused: () => UrlRefused | undefined } {
  const fetchChecked = policyFetch({ livemode, resolve: ctx.resolveHost ?? systemResolver });
  let refused: UrlRefused | undefined;
  const fetch: client.CustomFetch = async (url, options) => {
    try {
      return await fetchChecked(url, options);
    } catch (err) {
      if (err instanceof UrlRefused) refused = err;
      throw err;
    }
  };
  return { fetch, refused: () => refused };
}

/**
 * A refused provider address at sign-in. The routes are public, so the message does not say what the host
 * resolves to; `details.reason` says which rule refused it.
 */
export const providerRefused = (err: UrlRefused) =>
  ApiError.of('webhook_url_not_allowed', {
    message: 'The identity provider\'s address is refused by the server\'s outbound rules; the tenant must fix its issuer.',
    param: 'issuer',
    details: { reason: err.reason },
  });

/** The provider's configuration from its discovery document; every later request of it uses the same checked fetch. */
export async function discoverProvider(
  ctx: Ctx,
  scope: Scope,
  provider: { issuer: string; client_id: string; clientSecret: string },
): Promise<{ config: client.Configuration; refused: () => UrlRefused | undefined }> {
  const outbound = providerFetch(ctx, scope.livemode);
  // Test mode may use http like test-mode webhooks; live mode is https only (the fetch refuses http there).
  const execute = scope.livemode ? [] : [client.allowInsecureRequests];
  try {
    const config = await client.discovery(new URL(provider.issuer), provider.client_id, provider.clientSecret, undefined, {
      [client.customFetch]: outbound.fetch,
      execute,
    });
    return { config, refused: outbound.refused };
  } catch {
    const refused = outbound.refused();
    if (refused) throw providerRefused(refused);
    throw ApiError.of('provider_unavailable', { message: 'The identity provider\'s discovery document could not be read.' });
  }
}
