import { principalForKey } from '../api-key-principal';
import { looksLikeJwt, type CredentialResolver } from '../credential-resolver';

/**
 * First in the chain: an API key in `Authorization: Bearer` (secret or restricted; a publishable key sent
 * there resolves too and is refused by the route check). Beside `Svc-Publishable-Key` the bearer is a
 * customer token, and a JWT is left to the access-token step.
 */
export const resolveSecretKey: CredentialResolver = async (ctx, { bearer, publishable, ip }) => {
  if (!bearer || publishable !== undefined || looksLikeJwt(bearer)) return undefined;
  return principalForKey(ctx, ip, bearer);
};
