import { z } from 'zod';

/**
 * The issuer's discovery document (OpenID Connect Discovery 1.0, RFC 8414), so that libraries that discover an
 * issuer (openid-client, and jose through `jwks_uri`) find its keys and token endpoint.
 */
export const OpenIdConfigurationSchema = z
  .object({
    issuer: z.string().describe('`<base URL>/auth/v1`, the `iss` of every access token.'),
    jwks_uri: z.string(),
    token_endpoint: z.string().describe('Where a refresh token is spent for a new session (`grant_type=refresh_token`, JSON body).'),
    authorization_endpoint: z.string().describe('Where an OpenID Connect sign-in starts; it answers with the session in the redirect\'s fragment.'),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    subject_types_supported: z.array(z.string()),
    id_token_signing_alg_values_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    claims_supported: z.array(z.string()),
    service_documentation: z.string(),
  })
  .meta({ id: 'OpenIdConfiguration' });
