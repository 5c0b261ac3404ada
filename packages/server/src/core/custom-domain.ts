import type { NextFunction, Request, Response } from 'express';
import type { DomainFamily } from '@svc/contract';
import type { AppContext } from './context';
import { ApiError } from './errors';

/** The paths each family of a custom domain answers (products-api § 5.3); the check path answers on every one. */
const FAMILY_PATHS: Record<DomainFamily, (req: Request) => boolean> = {
  checkout: (req) => req.path.startsWith('/checkout/') || req.path.startsWith('/v1/checkout/sessions/'),
  capsule: (req) =>
    req.path.startsWith('/v1/public/') ||
    req.path.startsWith('/v1/plus/contents') ||
    req.path === '/v1/events' ||
    req.path.startsWith('/v1/events/') ||
    (req.path === '/v1/orders' && req.method === 'POST') ||
    req.path.startsWith('/auth/v1/') ||
    req.path === '/.well-known/jwks.json' ||
    req.path.startsWith('/capsules/'),
  playback: (req) => req.path.startsWith('/v1/streams/playback/'),
};
const ALWAYS = new Set(['/.well-known/svc-domain-check']);

/** The request's host (`Host`, or `X-Forwarded-Host` behind a trusted proxy: Express's `hostname`), lower case. */
const hostOf = (req: Request) => req.hostname?.replace(/\.$/, '').toLowerCase();

/**
 * Requests on a tenant's active custom domain: the domain is attached (`req.domain`) so the resolver chain
 * takes it as the tenant header and pages dress in its brand; paths outside the families it serves are
 * `404 route_not_found`. Any other host is served as before, never as another tenant's domain.
 */
export function customDomains(ctx: AppContext) {
  const ownHost = new URL(ctx.config.baseUrl).hostname.toLowerCase();
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const host = hostOf(req);
      if (!ctx.whitelabel || !host || host === ownHost || ALWAYS.has(req.path)) return next();
      const domain = await ctx.whitelabel.domainOfHost(host);
      if (!domain) return next();
      if (req.method !== 'OPTIONS' && !domain.serves.some((family) => FAMILY_PATHS[family](req))) {
        return next(ApiError.of('route_not_found', { message: `${host} does not serve ${req.path}.` }));
      }
      req.domain = domain;
      next();
    } catch (err) {
      next(err);
    }
  };
}
