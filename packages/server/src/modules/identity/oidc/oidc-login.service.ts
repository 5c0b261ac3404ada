import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { Session } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { isAllowedRedirect, redirectUrls } from '../settings/identity-settings.service';
import { destinationOf, type Destination } from '../sign-in/destination';
import { signIn } from '../sign-in/otp.service';
import { loadProvider } from './identity-providers.service';
import { discoverProvider, providerRefused } from './oidc-outbound';

const LOGIN_TTL_MS = 10 * 60_000;
const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());
const hashState = (state: string) => createHash('sha256').update(state).digest('hex');
const verifierContext = (stateHash: string) => `${stateHash}:oidc_code_verifier`;
const refuse = (reason: string, message: string) => ApiError.of('oidc_login_invalid', { message, details: { reason } });

export const callbackUrl = (ctx: AppContext) => `${ctx.config.baseUrl}/auth/v1/callback`;

/** The provider's authorization URL, with PKCE (S256), `state` and `nonce` kept (the verifier sealed) for the callback. */
export async function startLogin(ctx: AppContext, scope: Scope, providerName: string, redirectTo: string | null): Promise<string> {
  const provider = await loadProvider(ctx, scope, providerName);
  const { config } = await discoverProvider(ctx, scope, provider);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const stateHash = hashState(state);
  await ctx.db
    .insertInto('oidc_logins')
    .values({
      state_hash: stateHash,
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      provider: providerName,
      code_verifier_sealed: ctx.secrets.encrypt(verifier, verifierContext(stateHash)),
      nonce,
      redirect_to: redirectTo,
      expires_at: new Date(nowOf(ctx).getTime() + LOGIN_TTL_MS),
      consumed_at: null,
    })
    .execute();
  return client
    .buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl(ctx),
      scope: provider.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    })
    .toString();
}

const hasVerifiedContact = (c: Record<string, unknown>) =>
  (typeof c.email === 'string' && c.email_verified === true) || (typeof c.phone_number === 'string' && c.phone_number_verified === true);

/** The person's verified email (or phone) from the ID token: the service's one key for a person. */
function destinationFromClaims(claims: Record<string, unknown>): Destination {
  if (typeof claims.email === 'string' && claims.email_verified === true) return destinationOf({ email: claims.email });
  if (typeof claims.phone_number === 'string' && claims.phone_number_verified === true) return destinationOf({ phone: claims.phone_number });
  throw refuse('no_verified_contact', 'The provider did not vouch for an email address or phone number.');
}

/**
 * Checks the provider's answer: `state` spent once (one conditional update), then the code exchange with the
 * PKCE verifier, and the ID token's signature, issuer, audience and `nonce` (openid-client); signs the person in.
 */
export async function finishLogin(ctx: AppContext, currentUrl: URL): Promise<{ session: Session; redirectTo: string | null }> {
  const state = currentUrl.searchParams.get('state');
  if (!state) throw refuse('missing_state', 'The callback has no `state`.');
  const now = nowOf(ctx);
  const login = await ctx.db
    .updateTable('oidc_logins')
    .set({ consumed_at: now })
    .where('state_hash', '=', hashState(state))
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  if (!login) throw refuse('unknown_state', 'The sign-in is unknown, expired or already finished.');
  if (currentUrl.searchParams.has('error')) throw refuse('provider_error', `The provider answered ${currentUrl.searchParams.get('error')}.`);
  const scope = { tenantId: login.tenant_id, livemode: login.livemode };
  const provider = await loadProvider(ctx, scope, login.provider);
  const { config, refused } = await discoverProvider(ctx, scope, provider);
  let claims: Record<string, unknown>;
  try {
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: ctx.secrets.decrypt(login.code_verifier_sealed, verifierContext(login.state_hash)),
      expectedState: state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    claims = (tokens.claims() ?? {}) as Record<string, unknown>;
    // Many providers put email and phone only in UserInfo; its `sub` must match the ID token's (openid-client checks).
    if (!hasVerifiedContact(claims) && tokens.access_token) {
      claims = { ...claims, ...(await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))) };
    }
  } catch {
    // The token, JWKS or UserInfo endpoint named by the discovery document is refused like the issuer.
    const refusal = refused();
    if (refusal) throw providerRefused(refusal);
    throw refuse('provider_checks_failed', 'The provider\'s answer did not pass the checks (code, PKCE, ID token or nonce).');
  }
  const destination = destinationFromClaims(claims);
  return ctx.db.transaction().execute(async (trx) => {
    const session = await signIn(ctx, trx, scope, destination, 'oidc');
    const allowed = await redirectUrls(trx, scope);
    return { session, redirectTo: isAllowedRedirect(login.redirect_to, allowed) ? login.redirect_to : null };
  });
}
