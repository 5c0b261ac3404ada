import { ApiError } from '../../errors';
import { looksLikeJwt, type CredentialResolver } from '../credential-resolver';

/**
 * Third: a signed-in person's access token (a JWT in `Authorization: Bearer`). The identity module verifies
 * it through `ctx.auth.userTokens`. Until one is installed, a route that takes `user` refuses the token as
 * such, and any other route answers as it always did for a bearer that is not an API key.
 */
export const resolveUserToken: CredentialResolver = async (ctx, { bearer, publishable, tenantHeader, environment, ip }, access) => {
  if (!bearer || publishable !== undefined || !looksLikeJwt(bearer)) return undefined;
  const verifier = ctx.auth.userTokens;
  if (verifier) {
    try {
      return await verifier.verify(bearer, { tenantHeader, environment, ip });
    } catch (err) {
      // On a route that takes no access token, a token that is not one (a customer token without its
      // publishable key, garbage) is an unknown bearer, as it always was.
      if (!access.credentials.includes('user') && err instanceof ApiError && err.code === 'invalid_access_token') {
        throw ApiError.of('api_key_invalid', { message: 'The API key is malformed.' });
      }
      throw err;
    }
  }
  if (access.credentials.includes('user')) {
    throw ApiError.of('invalid_access_token', {
      message: 'This server does not accept access tokens yet.',
      details: { reason: 'unsupported' },
    });
  }
  throw ApiError.of('api_key_invalid', { message: 'The API key is malformed.' });
};
