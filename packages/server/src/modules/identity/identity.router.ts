import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { Request } from 'express';
import { brandOf, linkBaseOf, neutralBrand, type ServedDomain } from '../../core/branding';
import type { AppContext } from '../../core/context';
import type { Principal } from '../../core/principal';
import type { Scope } from '../../core/scope';
import type { UserPrincipal } from './auth/access-tokens';
import { currentUser } from './auth/current-user';
import { openIdConfiguration } from './auth/discovery';
import { issueCustomerToken } from './auth/customer-token.service';
import { logout, refreshSession } from './auth/sessions.service';
import { publicJwks, rotateSigningKeys } from './auth/signing-keys';
import * as messages from '../messaging';
import { authorizeScope } from './oidc/authorize-scope';
import { listProviders, putProvider } from './oidc/identity-providers.service';
import { finishLogin, startLogin } from './oidc/oidc-login.service';
import * as settings from './settings/identity-settings.service';
import { expiredLinkPage, linkPage, linkUsable, redirectWithSession, signedInPage, useLink } from './sign-in/magic-link.service';
import { requestCode, verifyCode } from './sign-in/otp.service';

const s = initServer();

const principalOf = (req: { principal?: Principal }): Principal => {
  if (!req.principal) throw new Error('route reached without a principal');
  return req.principal;
};
const scopeOf = (req: { principal?: Principal }): Scope => {
  const p = principalOf(req);
  if (!('scope' in p)) throw new Error('route reached without a tenant principal');
  return p.scope;
};
const userOf = (req: { principal?: Principal }): UserPrincipal => {
  const p = principalOf(req);
  if (p.kind !== 'user') throw new Error('route reached without a signed-in person');
  return p;
};
const bearerOf = (req: { headers: Request['headers'] }) => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
const JWKS_CACHE = 'public, max-age=300, stale-while-revalidate=60';

/** The brand of a sign-in page: the link's tenant (the domain's organization on its own domain), else the domain's, else neutral. */
async function pageBrand(ctx: AppContext, domain: ServedDomain | undefined, scope?: { tenantId: string; livemode: boolean }) {
  const env = scope ?? (domain ? { tenantId: domain.tenantId, livemode: domain.livemode } : undefined);
  if (!env) return neutralBrand('Sign in');
  return brandOf(ctx, env, domain && domain.tenantId === env.tenantId ? domain.organizationId : null);
}

export const identityRouter = (ctx: AppContext) =>
  s.router(contract.identity, {
    auth: {
      requestOtp: async ({ body, req }) => ({
        status: 200,
        body: { data: await requestCode(ctx, scopeOf(req), { ...body, ip: req.ip ?? 'unknown', brand: await brandOf(ctx, scopeOf(req), req.domain?.organizationId ?? null) }) },
      }),
      verifyOtp: async ({ body, req }) => ({ status: 200, body: { data: await verifyCode(ctx, scopeOf(req), body) } }),
      requestMagicLink: async ({ body, req }) => ({
        status: 200,
        body: {
          data: await requestCode(ctx, scopeOf(req), {
            email: body.email,
            ip: req.ip ?? 'unknown',
            // On a custom domain the link stays on it, in its organization's brand.
            link: { baseUrl: await linkBaseOf(ctx, scopeOf(req), req.domain?.organizationId ?? null, 'capsule', req.domain), redirectTo: body.redirect_to ?? null },
            brand: await brandOf(ctx, scopeOf(req), req.domain?.organizationId ?? null),
          }),
        },
      }),
      showMagicLink: async ({ query, req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        const scope = await linkUsable(ctx, query.token);
        return scope ? { status: 200, body: linkPage(await pageBrand(ctx, req.domain, scope)) } : { status: 200, body: expiredLinkPage(await pageBrand(ctx, req.domain)) };
      },
      useMagicLink: async ({ query, req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        const used = await useLink(ctx, query.token);
        if (!used) return { status: 200, body: expiredLinkPage(await pageBrand(ctx, req.domain)) };
        if (!used.redirectTo) return { status: 200, body: signedInPage(await pageBrand(ctx, req.domain, used.scope)) };
        res.setHeader('Location', redirectWithSession(used.redirectTo, used.session));
        return { status: 303, body: undefined };
      },
      authorize: async ({ query, res }) => {
        const scope = await authorizeScope(ctx, query);
        res.setHeader('Location', await startLogin(ctx, scope, query.provider, query.redirect_to ?? null));
        res.setHeader('Cache-Control', 'no-store');
        return { status: 302, body: undefined };
      },
      callback: async ({ req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        const done = await finishLogin(ctx, new URL(req.originalUrl, ctx.config.baseUrl));
        if (!done.redirectTo) return { status: 200, body: signedInPage(await pageBrand(ctx, req.domain)) };
        res.setHeader('Location', redirectWithSession(done.redirectTo, done.session));
        return { status: 303, body: undefined };
      },
      refresh: async ({ body }) => ({ status: 200, body: { data: await refreshSession(ctx, body.refresh_token) } }),
      logout: async ({ body, req }) => {
        await logout(ctx, userOf(req), body?.scope === 'global');
        return { status: 204, body: undefined };
      },
      getUser: async ({ req }) => ({ status: 200, body: { data: await currentUser(ctx, userOf(req)) } }),
      customerToken: async ({ req }) => ({ status: 200, body: { data: await issueCustomerToken(ctx, scopeOf(req), bearerOf(req)) } }),
      jwks: async ({ res }) => {
        res.setHeader('Cache-Control', JWKS_CACHE);
        return { status: 200, body: await publicJwks(ctx) };
      },
      rotateSigningKeys: async () => {
        await rotateSigningKeys(ctx);
        return { status: 200, body: await publicJwks(ctx) };
      },
      authJwks: async ({ res }) => {
        res.setHeader('Cache-Control', JWKS_CACHE);
        return { status: 200, body: await publicJwks(ctx) };
      },
      discovery: async ({ res }) => {
        res.setHeader('Cache-Control', JWKS_CACHE);
        return { status: 200, body: openIdConfiguration(ctx) };
      },
      authorizationServerMetadata: async ({ res }) => {
        res.setHeader('Cache-Control', JWKS_CACHE);
        return { status: 200, body: openIdConfiguration(ctx) };
      },
    },
    settings: {
      retrieveSettings: async ({ req }) => ({ status: 200, body: { data: await settings.getSettings(ctx, scopeOf(req)) } }),
      updateSettings: async ({ body, req }) => ({ status: 200, body: { data: await settings.updateSettings(ctx, scopeOf(req), body) } }),
      putProvider: async ({ params, body, req }) => ({ status: 200, body: { data: await putProvider(ctx, scopeOf(req), params.name, body) } }),
      listProviders: async ({ req }) => ({ status: 200, body: { data: await listProviders(ctx, scopeOf(req)) } }),
    },
    messages: {
      list: async ({ query: { to, channel, status, template, related, ...page }, req }) => ({
        status: 200,
        body: await messages.listMessages(ctx.db, scopeOf(req), { to, channel, status, template, related }, page),
      }),
      retrieve: async ({ params, req }) => ({ status: 200, body: { data: await messages.getMessage(ctx.db, scopeOf(req), params.id) } }),
      resend: async ({ params, req }) => ({ status: 201, body: { data: await messages.resendMessage(ctx, scopeOf(req), params.id) } }),
    },
  });
