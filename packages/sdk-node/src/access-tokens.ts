import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/** The claims of an identity access token. */
export interface AccessTokenClaims extends JWTPayload {
  /** The person, `usr_…`. */
  sub: string;
  /** The tenant, `ten_…`. */
  tid: string;
  /** The person's customer in that tenant and environment, `cus_…`. */
  cus: string;
  livemode: boolean;
  /** The sign-in session, `ses_…`. */
  sid: string;
  amr: string[];
}

/**
 * A verifier of identity access tokens against the service's JWK set (fetched once and cached by jose,
 * refetched when a token names an unknown `kid`, as after a key rotation): ES256 only, issuer
 * `{baseUrl}/auth/v1`, audience `svc`, not expired. A logout is not visible offline: the token stays valid
 * here until `exp` (15 minutes); call `GET /auth/v1/user` where that matters.
 */
export function accessTokenVerifier(baseUrl: string) {
  const keys = createRemoteJWKSet(new URL(`${baseUrl}/.well-known/jwks.json`));
  return async (token: string): Promise<AccessTokenClaims> => {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ['ES256'],
      issuer: `${baseUrl}/auth/v1`,
      audience: 'svc',
      requiredClaims: ['sub', 'exp', 'tid', 'cus', 'sid'],
    });
    return payload as AccessTokenClaims;
  };
}
