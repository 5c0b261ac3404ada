import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import { OpenIdConfigurationSchema } from './discovery.schemas';
import { CodeSentSchema, CurrentUserSchema, EmailSchema, JwksSchema, PhoneSchema, SessionSchema } from './session.schemas';

const c = initContract();

/** The tenant comes from a publishable key (its environment) or the tenant header (live mode). */
const signIn = access({ auth: 'tenant', credentials: ['publishable', 'tenant-header'], scope: 'identity:write', product: 'identity' });
const signedIn = access({ auth: 'tenant', credentials: ['user'], scope: 'identity:read', product: 'identity' });
const publicRoute = access({ auth: 'public' });
const errors = errorResponses(400, 401, 403, 404, 422, 429, 500);
const html = c.otherResponse({ contentType: 'text/html', body: z.string() });
const publicErrors = errorResponses(429, 500);

const Destination = z.object({ phone: PhoneSchema.optional(), email: EmailSchema.optional() });

export const authContract = c.router(
  {
    requestOtp: {
      method: 'POST',
      path: '/auth/v1/otp',
      summary: 'Send a sign-in code',
      description:
        'Sends a 6-digit code to a phone (`sms` by default, or `whatsapp`) or an email (`email`). Always answers 200, whether or not an account exists. ' +
        'A code lasts 5 minutes (phone) or 10 (email); a new one replaces the last. At most one send per destination per 60 s and 5 per hour, 30 per IP per hour (`429 rate_limited`). ' +
        'Live mode without a provider for the channel: `503 channel_unavailable`.',
      body: Destination.extend({ channel: z.enum(['whatsapp', 'sms', 'email']).optional() }).meta({ id: 'RequestOtpRequest' }),
      responses: { 200: dataOf(CodeSentSchema), ...errors, ...errorResponses(503) },
      metadata: signIn,
    },
    verifyOtp: {
      method: 'POST',
      path: '/auth/v1/verify',
      summary: 'Verify a sign-in code',
      description:
        'Exchanges the code for a session. Wrong code: `401 otp_invalid`; too old: `401 otp_expired`; after five wrong codes the code is burnt and ' +
        'ten failures in an hour lock the destination for an hour: `429 otp_attempts_exceeded`.',
      body: Destination.extend({ code: z.string().regex(/^[0-9]{6}$/) }).meta({ id: 'VerifyOtpRequest' }),
      responses: { 200: dataOf(SessionSchema), ...errors },
      metadata: signIn,
    },
    requestMagicLink: {
      method: 'POST',
      path: '/auth/v1/magic_link',
      summary: 'Send an email link',
      description:
        'Emails a single-use sign-in link (valid 15 minutes) and a 6-digit code. The link\'s page signs in with a button; then it redirects (303) to ' +
        '`redirect_to`, with the session in the URL fragment, if the URL is on the tenant\'s allow-list (`PATCH /v1/identity/settings`).',
      body: z.object({ email: EmailSchema, redirect_to: z.string().url().max(2000).optional() }).meta({ id: 'MagicLinkRequest' }),
      responses: { 200: dataOf(CodeSentSchema), ...errors, ...errorResponses(503) },
      metadata: signIn,
    },
    showMagicLink: {
      method: 'GET',
      path: '/auth/v1/magic_link/verify',
      summary: 'Email link page',
      description:
        'A page with a button that signs in (or, for a used or expired link, a page that says so). A GET never spends the link, so mail scanners that fetch links do no harm. ' +
        'The token travels in the query string, which the server never logs.',
      query: z.object({ token: z.string().max(100) }),
      responses: { 200: html, ...publicErrors },
      metadata: publicRoute,
    },
    useMagicLink: {
      method: 'POST',
      path: '/auth/v1/magic_link/verify',
      summary: 'Sign in with an email link',
      description: 'Spends the link: 303 to `redirect_to#access_token=…&refresh_token=…`, or a page saying "signed in" without an allowed `redirect_to`.',
      query: z.object({ token: z.string().max(100) }),
      body: c.noBody(),
      responses: { 200: html, 303: c.noBody(), ...publicErrors },
      metadata: publicRoute,
    },
    authorize: {
      method: 'GET',
      path: '/auth/v1/authorize',
      summary: 'Start OpenID Connect sign-in',
      description:
        'Redirects (302) to the provider with the authorization-code flow, PKCE, `state` and `nonce`. A browser navigation sends no headers, so the tenant is ' +
        '`tenant` (code or `ten_` id, live mode) or `publishable_key` (its environment).',
      query: z.object({
        provider: z.string().max(64),
        redirect_to: z.string().url().max(2000).optional(),
        tenant: z.string().max(64).optional(),
        publishable_key: z.string().max(200).optional(),
      }),
      responses: { 302: c.noBody(), ...errors },
      metadata: publicRoute,
    },
    callback: {
      method: 'GET',
      path: '/auth/v1/callback',
      summary: 'OpenID Connect callback',
      description: 'Checks the provider\'s answer (state, PKCE, nonce, ID token), signs the person in and redirects like the email link.',
      query: z.record(z.string(), z.string().max(4000)),
      responses: { 200: html, 303: c.noBody(), ...errors },
      metadata: publicRoute,
    },
    refresh: {
      method: 'POST',
      path: '/auth/v1/token',
      summary: 'Refresh a session',
      description:
        'Spends the refresh token for a new session (new access and refresh tokens). The parent of the active token, within 10 s, answers the active one; ' +
        'any other reuse ends the whole session: `401 refresh_token_already_used`.',
      body: z.object({ grant_type: z.literal('refresh_token'), refresh_token: z.string().max(200) }).meta({ id: 'RefreshRequest' }),
      responses: { 200: dataOf(SessionSchema), ...errors },
      metadata: publicRoute,
    },
    logout: {
      method: 'POST',
      path: '/auth/v1/logout',
      summary: 'Sign out',
      description: 'Ends this session, or with `scope: global` every session of the person in this tenant. Its access tokens are refused at once on every server process.',
      body: z.object({ scope: z.enum(['local', 'global']).optional() }).optional(),
      responses: { 204: c.noBody(), ...errors },
      metadata: signedIn,
    },
    getUser: {
      method: 'GET',
      path: '/auth/v1/user',
      summary: 'The signed-in person',
      description: 'The person, their customer and their memberships in this tenant.',
      responses: { 200: dataOf(CurrentUserSchema), ...errors },
      metadata: signedIn,
    },
    customerToken: {
      method: 'POST',
      path: '/auth/v1/customer_token',
      summary: 'Get a customer token',
      description:
        'With the access token (`Authorization: Bearer`) and the tenant\'s publishable key: a customer token (HS256, 15 minutes) whose `sub` is the person\'s `cus_` id, ' +
        'signed with a key the service manages. It opens playback sessions from a page with no server of its own.',
      body: c.noBody(),
      responses: { 200: dataOf(z.object({ token: z.string(), expires_at: z.string() }).meta({ id: 'IssuedCustomerToken' })), ...errors },
      metadata: access({ auth: 'tenant', credentials: ['publishable'], scope: 'identity:write', product: 'identity' }),
    },
    jwks: {
      method: 'GET',
      path: '/.well-known/jwks.json',
      summary: 'Access-token keys',
      description: 'The public keys access tokens are signed with, as a JWK set.',
      responses: { 200: JwksSchema, ...publicErrors },
      metadata: publicRoute,
    },
    rotateSigningKeys: {
      method: 'POST',
      path: '/v1/operator/identity/signing_keys/rotate',
      summary: 'Rotate the access-token signing keys',
      description:
        'Without downtime: the standby key (already in the JWKS) starts signing, the current key stays valid as previous until its tokens expire, ' +
        'the old previous key is revoked and a new standby is made. Answers the JWK set after the rotation. Operator only.',
      body: c.noBody(),
      responses: { 200: JwksSchema, ...errorResponses(401, 429, 500) },
      metadata: access({ auth: 'operator' }),
    },
    authJwks: {
      method: 'GET',
      path: '/auth/v1/.well-known/jwks.json',
      summary: 'Access-token keys (issuer path)',
      description: 'The same JWK set under the issuer\'s path.',
      responses: { 200: JwksSchema, ...publicErrors },
      metadata: publicRoute,
    },
    discovery: {
      method: 'GET',
      path: '/auth/v1/.well-known/openid-configuration',
      summary: 'Issuer discovery (OpenID Connect)',
      description:
        'The access-token issuer\'s discovery document, where OpenID Connect Discovery puts it for the issuer `<base URL>/auth/v1`: issuer, `jwks_uri`, ' +
        'token endpoint, supported algorithms and claims.',
      responses: { 200: OpenIdConfigurationSchema, ...publicErrors },
      metadata: publicRoute,
    },
    authorizationServerMetadata: {
      method: 'GET',
      path: '/.well-known/oauth-authorization-server/auth/v1',
      summary: 'Issuer discovery (OAuth 2.0 metadata)',
      description: 'The same document where RFC 8414 puts it for an issuer with a path, for clients that discover OAuth 2.0 servers.',
      responses: { 200: OpenIdConfigurationSchema, ...publicErrors },
      metadata: publicRoute,
    },
  },
  { strictStatusCodes: true },
);
