import type { OpenIdConfigurationSchema } from '@svc/contract';
import type { z } from 'zod';
import type { AppContext } from '../../../core/context';
import { issuerOf } from './access-tokens';
import { ACCESS_TOKEN_ALG } from './signing-keys';

/** The claims `signAccessToken` writes. */
const CLAIMS = ['iss', 'aud', 'sub', 'tid', 'cus', 'livemode', 'sid', 'iat', 'exp', 'jti', 'amr'];

/**
 * The issuer's discovery document. The sign-in at `authorize` answers with the session in the redirect's
 * fragment (`#access_token=…`), which is the `token` response type in the `fragment` mode; a refresh token is
 * spent at `token` by a public client (no client secret).
 */
export function openIdConfiguration(ctx: AppContext): z.infer<typeof OpenIdConfigurationSchema> {
  const issuer = issuerOf(ctx);
  return {
    issuer,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    token_endpoint: `${issuer}/token`,
    authorization_endpoint: `${issuer}/authorize`,
    response_types_supported: ['token'],
    response_modes_supported: ['fragment'],
    grant_types_supported: ['refresh_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [ACCESS_TOKEN_ALG],
    token_endpoint_auth_methods_supported: ['none'],
    claims_supported: CLAIMS,
    service_documentation: `${ctx.config.baseUrl}/docs`,
  };
}
